// What a glrmask::Constraint handle holds: the source it was made from, the compiled grammar and
// the recognizer every matcher's parse state runs on, the chosen engine's compiled data, and the
// pool of engines lent to matchers (engine_pool.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "api/src/constraint_source.h"
#include "api/src/engine_pool.h"
#include "api/src/grammar_impl.h"
#include "api/src/tokenizer_impl.h"
#include "glr/compiled_grammar.h"
#include "glr/incremental_recognizer.h"
#include "glrmask/constraint.hpp"
#include "mask/compiled/compiled_mask.h"
#include "mask/lazy/background_mask_build.h"

namespace glrmask {

struct Constraint::Impl {
  Tokenizer tokenizer;
  ConstraintSource source;
  // The public handle of the grammar compiled (for a loaded constraint, over the compiled
  // grammar's model).
  std::optional<Grammar> grammar_handle;
  Engine engine = Engine::kOracle;
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  std::shared_ptr<const glr::IncrementalRecognizer> recognizer;
  std::shared_ptr<const mask::CompiledMask> compiled;  // the wfa engine's automata
  // kStaged: the wfa's automata being built, shared by the constraint's staged engines.
  std::shared_ptr<mask::BackgroundMaskBuild> staged_build;
  CompileStatistics statistics;
  Limits limits;
  // Made by constraint_over_engine() (engine_constraint.h): `source` is only a name and the
  // engine is the caller's, so the constraint cannot be saved.
  bool external_engine = false;
  mutable std::unique_ptr<EnginePool> engines;

  explicit Impl(Tokenizer tokenizer_in) : tokenizer(std::move(tokenizer_in)) {}

  const Vocabulary& vocabulary() const { return tokenizer.impl().vocabulary; }

  // Bytes that lex alike, for jump-forward: the class of each byte, and how many bytes each class
  // holds. Built on first use.
  struct ByteClasses {
    std::array<std::uint8_t, 256> class_of{};
    std::vector<std::uint8_t> representatives;
    std::vector<std::uint16_t> sizes;
  };
  const ByteClasses& byte_classes() const;

 private:
  mutable std::once_flag byte_classes_once_;
  mutable ByteClasses byte_classes_;
};

// Builds the constraint: the grammar, then the engine (`compile.engine`, or under kAuto the first
// of the registry's order that serves the grammar, engine_registry.h). `dwa_options`, when given,
// replaces the Parser DWA options the compile options imply (glrmask's studies vary them). Throws
// glrmask::Error.
std::shared_ptr<const Constraint::Impl> build_constraint(
    const Grammar& grammar, const Tokenizer& tokenizer, const CompileOptions& compile,
    const mask::ParserDwaOptions* dwa_options = nullptr);
// The same from a source, its front end run first.
std::shared_ptr<const Constraint::Impl> build_constraint(
    ConstraintSource source, const Tokenizer& tokenizer, const CompileOptions& compile,
    const mask::ParserDwaOptions* dwa_options = nullptr);

}  // namespace glrmask
