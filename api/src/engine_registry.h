// The mask engines of glrmask/engines.def, as the library builds them: what each precompiles,
// how it is lent to matchers, what it stores in an artifact, what it refuses, and the order kAuto
// tries them in. Constraint compilation and loading, the studies' engines by name
// (harness/mask_engines.h) and the engine conformance test all iterate this table; nothing else
// lists the engines, so a new engine is its own folder under mask/, a line in engines.def and one
// entry here (docs/extending.md).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "api/src/constraint_impl.h"
#include "glrmask/constraint.hpp"
#include "mask/artifact/mask_artifact.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/mask_engine.h"
#include "mask/parser_dwa/parser_dwa_builder.h"

namespace glrmask {

// Grammars an engine refuses with kUnsupported rather than serve inexactly; the bits of
// EngineEntry::refuses. The conformance test holds every engine to its declaration: refused
// exactly where declared, equal to the oracle everywhere else.
enum EngineRefusal : std::uint8_t {
  // A post-lexer between lexer and parser (Python's indenter).
  kRefusesPostLexer = 1,
  // A skippable terminal in a grammar whose session can hold two stacks.
  kRefusesSkippableOnForks = 2,
  // Reductions that never end (a derivation cycle the normalization did not rewrite).
  kRefusesEndlessReductions = 4,
};

// What a standalone engine is built from (the studies, the benchmarks, the tests).
struct EngineInputs {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  const Vocabulary* vocabulary = nullptr;
  // The wfa engine's automata, when loaded from an artifact (used instead of compiling again).
  std::shared_ptr<const mask::CompiledMask> compiled = nullptr;
  // The vocabulary's tables for the lazy and staged engines (built from `vocabulary` if null).
  const mask::VocabularyTables* tables = nullptr;
  mask::ParserDwaOptions dwa_options = {};
};

// What save() writes for a constraint: the engine the artifact names and its automata (null for
// an engine that precompiles none).
struct StoredEngine {
  Engine engine;
  std::shared_ptr<const mask::CompiledMask> compiled;
};

struct EngineEntry {
  Engine engine;
  // kAuto tries the engines of nonzero order, ascending, until one does not refuse the grammar.
  int auto_order;
  // EngineRefusal bits.
  std::uint8_t refuses;
  // Whether the artifact of a constraint served by it holds a CompiledMask.
  bool stores_automata;
  // At compile time: builds what the engine precompiles into `impl` (its CompiledMask, a
  // background build); throws kUnsupported for a grammar it refuses. Null: nothing to build.
  void (*prepare)(Constraint::Impl& impl, const mask::ParserDwaOptions& options);
  // At load time: what it needs besides the artifact's compiled grammar (which load() reads).
  void (*load)(Constraint::Impl& impl, const mask::ArtifactFile& file, const Limits& limits);
  // What save() stores.
  StoredEngine (*save)(const Constraint::Impl& impl);
  // The pool of engines lent to `impl`'s matchers (impl.engines); the first engine may be built
  // here so that a grammar it refuses is refused at compile time.
  void (*make_pool)(Constraint::Impl& impl);
  // An engine on its own.
  std::unique_ptr<mask::MaskEngine> (*make_engine)(const EngineInputs& inputs);
};

// Every engine but kAuto, in engines.def's order.
std::span<const EngineEntry> engine_registry();
// The entry of `engine` (not kAuto).
const EngineEntry& engine_entry(Engine engine);
// The engines kAuto tries, in order.
std::span<const Engine> auto_engine_order();
// "wfa, spanner, ..." (every engine but kAuto): for messages and usage lines.
std::string engine_names();

}  // namespace glrmask
