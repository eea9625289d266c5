// A compiler of constraints for one tokenizer, with a bounded cache of what it compiled: the
// shape of a serving loop that meets the same grammars and schemas again and again. compile() of
// a source compiled before (the same format, text, name and options, and the same compile
// options) returns the cached constraint at once; concurrent requests for one source wait for a
// single compile. Beyond `max_entries` the least recently used constraint is dropped from the
// cache (matchers and copies that hold it keep it alive). Thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "glrmask/constraint.hpp"
#include "glrmask/grammar.hpp"
#include "glrmask/tokenizer.hpp"

namespace glrmask {

struct CompilerOptions {
  // What compile() uses when a call gives no compile options of its own.
  CompileOptions compile = {};
  // Constraints kept; 0 turns the cache off.
  std::size_t max_entries = 64;
};

struct CompilerCacheStatistics {
  std::size_t hits = 0;       // compiles answered from the cache (or by waiting for another's)
  std::size_t misses = 0;     // compiles that ran
  std::size_t entries = 0;    // constraints held now
  std::size_t evictions = 0;  // constraints dropped to stay within max_entries
};

class GLRMASK_API Compiler {
 public:
  explicit Compiler(Tokenizer tokenizer, CompilerOptions options = {});

  const Tokenizer& tokenizer() const;

  // The grammar compiled with the compiler's compile options, or with `compile`.
  Constraint compile(const Grammar& grammar);
  Constraint compile(const Grammar& grammar, const CompileOptions& compile);
  // The front end and the compile in one, the front end skipped on a cache hit.
  Constraint compile_source(std::string_view format, std::string_view text,
                            const SourceOptions& options = {}, std::string_view name = {});
  Constraint compile_lark(std::string_view grammar, const GrammarOptions& options = {},
                          std::string_view name = "<grammar>");
  Constraint compile_json_schema(std::string_view schema, const JsonOptions& options = {},
                                 std::string_view name = "<schema>");
  Constraint compile_regex(std::string_view pattern);
  Constraint compile_any_json(const JsonOptions& options = {});

  CompilerCacheStatistics cache_statistics() const;
  void clear_cache();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace glrmask
