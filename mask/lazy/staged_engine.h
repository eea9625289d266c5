// The staged engine: exact masks from the first step of a grammar never seen before, and the wfa
// engine's speed once it is built. Once it has answered its first mask (or at construction) it
// starts compiling the grammar for the wfa engine (CompiledMask: Terminal DWA, Parser DWA, mask
// classes) on a thread of its own, and answers get_mask from the lazy engine
// (lazy_walk_engine.h) until that is done; from then on the wfa engine answers. Both are exact, so
// the switch changes no mask bit (both are checked against the oracle); it changes the cost of a
// step.
//
// The vocabulary tables (vocabulary_tables.h) are shared with other grammars: a new grammar's
// first mask costs its grammar compilation (lexer DFA, LR table) and the walk of one lexer fork,
// not a whole automaton (docs/json_schema.md, "Time to first mask"). The build
// (background_mask_build.h) may be shared too: several staged engines of one grammar, lent to
// concurrent sequences, then compile its automata once.
#pragma once

#include <memory>
#include <string>

#include "glr/compiled_grammar.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/lazy/background_mask_build.h"
#include "mask/lazy/lazy_walk_engine.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/mask_engine.h"
#include "mask/parser_dwa/parser_dwa_builder.h"
#include "mask/wfa/wfa_engine.h"

namespace glrmask::mask {

struct StagedOptions {
  // false: never build the wfa engine (the lazy engine answers every step).
  bool build_wfa = true;
  // Start the build after the first mask has been answered, so that the first mask has the
  // machine to itself (true), or at construction (false).
  bool build_after_first_mask = true;
  ParserDwaOptions parser_dwa;
};

class StagedEngine final : public MaskEngine {
 public:
  // `tables` must outlive the engine. The engine owns its build; the destructor waits for it.
  StagedEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const VocabularyTables& tables,
               const StagedOptions& options = {});
  // An engine that switches when `build` (of the same grammar and tables) is ready; it starts
  // the build after its first mask unless the build has started already.
  StagedEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const VocabularyTables& tables,
               std::shared_ptr<BackgroundMaskBuild> build);
  ~StagedEngine() override;
  StagedEngine(const StagedEngine&) = delete;
  StagedEngine& operator=(const StagedEngine&) = delete;

  std::string_view name() const override { return "staged"; }
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override;
  std::span<const std::uint32_t> mask_view(const glr::ParseView& parse,
                                           std::span<std::uint32_t> scratch) override;
  std::span<const EngineCounter> last_step_counters() const override;

  // Whether the wfa engine answers now (or will at the next step: the build is ready).
  bool switched() const { return build_ != nullptr && build_->ready(); }
  // Blocks until the background build is over; then rethrows its error, if any, as it was thrown
  // (a glrmask::Error keeps its code and place: kUnsupported for a grammar the wfa construction
  // refuses, kLimit for a budget of ParserDwaOptions). The lazy engine keeps answering either way.
  void wait_for_wfa();
  // Seconds the background build took (0 before it is done).
  double wfa_build_seconds() const { return build_ != nullptr ? build_->seconds() : 0; }
  const LazyWalkEngine& lazy() const { return lazy_; }
  // The wfa engine's automata once built, else null.
  std::shared_ptr<const CompiledMask> compiled() const {
    return build_ != nullptr ? build_->compiled() : nullptr;
  }

 private:
  MaskEngine& current();
  void start_build();

  const VocabularyTables& tables_;
  LazyWalkEngine lazy_;
  std::shared_ptr<BackgroundMaskBuild> build_;  // null: the wfa engine is never built
  std::unique_ptr<WfaEngine> wfa_;              // made from the build's automata once ready
};

}  // namespace glrmask::mask
