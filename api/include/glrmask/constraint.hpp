// A constraint compiled against one tokenizer: what every matcher of a sequence reads.
//
// Made from a Lark grammar, a JSON Schema, a regex or "any JSON". Compiling builds the lexer, the
// LALR(1) automaton with every conflict kept, and, for the default engine, the automata get_mask
// runs (seconds for a programming language with a 128k vocabulary, milliseconds to a fraction of
// a second for a JSON Schema). A Constraint is a cheap handle to immutable data: copies share it,
// and any number of matchers on any number of threads may use it at once. save() writes it to a
// file that load() maps back in milliseconds; processes that load the same file share its pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "glrmask/grammar.hpp"
#include "glrmask/tokenizer.hpp"

namespace glrmask {

// The mask engine a constraint serves with. All are exact; they differ in speed and in what they
// support (docs/architecture.md, "Mask engines"): kAuto (the fastest one that serves the grammar:
// wfa, else spanner, else oracle), kWfa (the compiled Parser DWA run over the parse stack, about a
// microsecond a mask), kSpanner (tens of microseconds), kOracle (tries every token: the reference),
// kLazy (for a grammar seen for the first time: nothing built ahead but the lexer and the LR table,
// so compiling takes milliseconds; each lexer configuration's walk is made the first time a
// sequence reaches it; a post-lexer is refused with kUnsupported) and kStaged (kLazy's masks until
// the wfa's automata, compiled on a thread of their own, are ready; a build the wfa refuses or that
// exceeds a budget leaves kLazy answering). The list is glrmask/engines.def.
enum class Engine : std::uint8_t {
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary) k##cpp_name = value,
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
};
// "wfa", "auto", ...; "?" for a value that is no engine.
GLRMASK_API const char* engine_name(Engine engine) noexcept;
// One line on what the engine does.
GLRMASK_API const char* engine_summary(Engine engine) noexcept;
// The engine called `name`, or nullopt.
GLRMASK_API std::optional<Engine> engine_from_name(std::string_view name) noexcept;
// Every engine, kAuto first, in the order engines.def lists them.
GLRMASK_API std::span<const Engine> all_engines() noexcept;

// Budgets: what compiling a constraint and running its matchers may cost, so that a server
// handed a costly grammar, schema or text gets a clean error in bounded time and memory instead
// of the OOM killer. Exceeding one throws glrmask::Error with ErrorCode::kLimit naming the field
// and the command-line option that raises it (the field's name with dashes: --max-step-work).
// 0 means no limit. docs/limits.md gives what real grammars need of each.
struct Limits {
  // Compiling.
  std::size_t max_lexer_states = std::size_t{1} << 18;            // lexer DFA, before minimization
  std::size_t max_terminal_dwa_forks = std::size_t{1} << 16;      // lexer configurations (wfa)
  std::size_t max_parser_dwa_states = std::size_t{1} << 22;       // wfa
  std::size_t max_parser_dwa_transitions = std::size_t{1} << 24;  // wfa, live ones
  // The process's resident memory while the Parser DWA is built (all of the process's memory,
  // looked at every few thousand transitions).
  std::size_t max_compile_memory_mib = 6144;
  // Running; a loaded artifact takes them from Constraint::load.
  std::uint64_t max_step_work = std::uint64_t{1} << 26;  // GSS edges one parser step may visit
  double max_commit_seconds = 60;  // one accept_token / accept_bytes / is_accepting call
};

struct CompileOptions {
  Engine engine = Engine::kAuto;
  // Threads of the automaton construction (0: all cores).
  std::size_t build_threads = 0;
  Limits limits = {};
};

// What compiling took, for logs and studies.
struct CompileStatistics {
  double grammar_seconds = 0;  // lexer and LR automaton
  double engine_seconds = 0;   // the engine's automata (0 for the oracle)
  std::size_t peak_memory_bytes = 0;
  std::size_t lr_states = 0;
  std::size_t automaton_states = 0;  // Parser DWA states (wfa), else 0
};

class GLRMASK_API Constraint {
 public:
  // `grammar` compiled against `tokenizer` with the engine `compile` chooses. Throws
  // glrmask::Error (kUnsupported when the requested engine cannot serve the grammar, kLimit when a
  // budget is exceeded). The from_* constructors below are Grammar::from_* then compile.
  static Constraint compile(const Grammar& grammar, const Tokenizer& tokenizer,
                            const CompileOptions& compile = {});
  // A grammar in Lark syntax (Lark 1.1.5: rules, terminals, %import common, %ignore, %declare).
  // `name` names the grammar in messages (e.g. its file). Throws glrmask::Error
  // (ErrorCode::kGrammar with file:line:col; kUnsupported when the requested engine cannot serve
  // the grammar).
  static Constraint from_lark(std::string_view grammar, const Tokenizer& tokenizer,
                              const GrammarOptions& options = {},
                              const CompileOptions& compile = {},
                              std::string_view name = "<grammar>");
  static Constraint from_lark_file(const std::filesystem::path& path, const Tokenizer& tokenizer,
                                   const GrammarOptions& options = {},
                                   const CompileOptions& compile = {});
  // A JSON Schema (draft 4 to 2020-12; docs/json_schema.md lists the keywords). Throws
  // glrmask::Error (ErrorCode::kSchema with the JSON pointer).
  static Constraint from_json_schema(std::string_view schema, const Tokenizer& tokenizer,
                                     const JsonOptions& options = {},
                                     const CompileOptions& compile = {},
                                     std::string_view name = "<schema>");
  // Any JSON value.
  static Constraint any_json(const Tokenizer& tokenizer, const JsonOptions& options = {},
                             const CompileOptions& compile = {});
  // The whole output matches `pattern` (Python `re` syntax, a full match).
  static Constraint from_regex(std::string_view pattern, const Tokenizer& tokenizer,
                               const CompileOptions& compile = {});
  // Free text with tagged segments, XGrammar's structural tag as JSON (docs/grammar.md,
  // "Structural tags"); `options` apply to its JSON Schema contents. Throws glrmask::Error
  // (ErrorCode::kSchema with the JSON pointer).
  static Constraint from_structural_tag(std::string_view tag, const Tokenizer& tokenizer,
                                        const JsonOptions& options = {},
                                        const CompileOptions& compile = {},
                                        std::string_view name = "<structural_tag>");

  // Writes the compiled constraint (grammar, options and the engine's automata) to `path`,
  // atomically (a temporary file renamed over it). Throws glrmask::Error (kIo). A kStaged
  // constraint waits for its automata and is saved as kWfa (as kLazy if their build failed).
  void save(const std::filesystem::path& path) const;
  // Reads a file save() wrote, for `tokenizer` (the one it was compiled for: checked). The file
  // is mapped read-only and must not be rewritten in place while loaded. Throws glrmask::Error
  // (kArtifact) for a missing, corrupt or mismatched file.
  static Constraint load(const std::filesystem::path& path, const Tokenizer& tokenizer,
                         const Limits& limits = {});
  // The same in memory: the bytes save() would write, and a constraint read back from them (a
  // copy is kept; nothing refers to `bytes` afterwards). For pickling and for sending a compiled
  // constraint to another process.
  std::string serialize() const;
  static Constraint deserialize(std::string_view bytes, const Tokenizer& tokenizer,
                                const Limits& limits = {});

  const Tokenizer& tokenizer() const;
  // The grammar it was compiled from (for a loaded constraint, rebuilt from the stored source).
  const Grammar& grammar() const;
  // The grammar's warnings (grammar().warnings()).
  const std::vector<Warning>& warnings() const;
  Engine engine() const;
  const CompileStatistics& statistics() const;
  // The budgets it was compiled (or loaded) with; its matchers run under the runtime ones.
  const Limits& limits() const;
  // One line: the grammar's name, its options and the engine.
  std::string description() const;

  // glrmask's own tools reach the internals through these; the Impl type is not public.
  struct Impl;
  const Impl& impl() const { return *impl_; }
  static Constraint wrap(std::shared_ptr<const Impl> impl) { return Constraint(std::move(impl)); }

 private:
  explicit Constraint(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
  friend class Matcher;
};

}  // namespace glrmask
