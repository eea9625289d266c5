#include "glrmask/compiler.hpp"

#include <condition_variable>
#include <cstring>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "api/src/constraint_impl.h"
#include "api/src/grammar_impl.h"
#include "lib/core/binary_io.h"

namespace glrmask {
namespace {

// The cache key: the source as an artifact stores it, and the compile options that can change
// the result (the engine and the budgets; not the thread count, which never does).
std::string cache_key(const ConstraintSource& source, const CompileOptions& compile) {
  BinaryWriter out;
  out.put_string(source.serialize());
  out.put(static_cast<std::uint8_t>(compile.engine));
  const Limits& limits = compile.limits;
  out.put<std::uint64_t>(limits.max_lexer_states);
  out.put<std::uint64_t>(limits.max_terminal_dwa_forks);
  out.put<std::uint64_t>(limits.max_parser_dwa_states);
  out.put<std::uint64_t>(limits.max_parser_dwa_transitions);
  out.put<std::uint64_t>(limits.max_compile_memory_mib);
  out.put<std::uint64_t>(limits.max_step_work);
  std::uint64_t seconds = 0;
  std::memcpy(&seconds, &limits.max_commit_seconds, sizeof seconds);
  out.put(seconds);
  return out.take();
}

}  // namespace

struct Compiler::Impl {
  Tokenizer tokenizer;
  CompilerOptions options;

  struct Entry {
    std::optional<Constraint> constraint;  // empty while its compile runs
    std::list<std::string>::iterator use;  // its place in `recent`
  };
  mutable std::mutex mutex;
  std::condition_variable compiled;  // a running compile finished (or failed)
  std::unordered_map<std::string, Entry> entries;
  std::list<std::string> recent;  // keys, most recently used first
  CompilerCacheStatistics statistics;

  Impl(Tokenizer tokenizer_in, CompilerOptions options_in)
      : tokenizer(std::move(tokenizer_in)), options(options_in) {}

  // The constraint of `source`, compiled by `build` on a miss.
  template <class Build>
  Constraint get(const ConstraintSource& source, const CompileOptions& compile, Build build);
  void evict_beyond_limit();
};

template <class Build>
Constraint Compiler::Impl::get(const ConstraintSource& source, const CompileOptions& compile,
                               Build build) {
  if (options.max_entries == 0) {
    const std::lock_guard lock(mutex);
    ++statistics.misses;
  }
  if (options.max_entries == 0) return build();
  const std::string key = cache_key(source, compile);
  std::unique_lock lock(mutex);
  while (true) {
    const auto found = entries.find(key);
    if (found == entries.end()) break;
    if (found->second.constraint) {
      ++statistics.hits;
      recent.splice(recent.begin(), recent, found->second.use);
      return *found->second.constraint;
    }
    compiled.wait(lock);  // another thread compiles it; it may also fail and remove the entry
  }
  ++statistics.misses;
  recent.push_front(key);
  entries.emplace(key, Entry{std::nullopt, recent.begin()});
  lock.unlock();
  std::optional<Constraint> result;
  try {
    result = build();
  } catch (...) {
    lock.lock();
    const auto entry = entries.find(key);
    recent.erase(entry->second.use);
    entries.erase(entry);
    compiled.notify_all();
    throw;
  }
  lock.lock();
  entries.find(key)->second.constraint = *result;
  evict_beyond_limit();
  compiled.notify_all();
  return *result;
}

void Compiler::Impl::evict_beyond_limit() {
  auto victim = recent.end();
  while (entries.size() > options.max_entries && victim != recent.begin()) {
    --victim;
    const auto entry = entries.find(*victim);
    if (!entry->second.constraint) continue;  // still compiling: not evicted
    victim = recent.erase(victim);
    entries.erase(entry);
    ++statistics.evictions;
  }
}

Compiler::Compiler(Tokenizer tokenizer, CompilerOptions options)
    : impl_(std::make_shared<Impl>(std::move(tokenizer), options)) {}

const Tokenizer& Compiler::tokenizer() const {
  return impl_->tokenizer;
}

Constraint Compiler::compile(const Grammar& grammar) {
  return compile(grammar, impl_->options.compile);
}

Constraint Compiler::compile(const Grammar& grammar, const CompileOptions& compile) {
  return impl_->get(grammar.impl().source, compile,
                    [&] { return Constraint::compile(grammar, impl_->tokenizer, compile); });
}

Constraint Compiler::compile_source(std::string_view format, std::string_view text,
                                    const SourceOptions& options, std::string_view name) {
  const ConstraintSource source = ConstraintSource::make(format, text, options, name);
  const CompileOptions& compile = impl_->options.compile;
  return impl_->get(source, compile, [&] {
    return Constraint::compile(Grammar::wrap(Grammar::Impl::build(source)), impl_->tokenizer,
                               compile);
  });
}

Constraint Compiler::compile_lark(std::string_view grammar, const GrammarOptions& options,
                                  std::string_view name) {
  return compile_source("lark", grammar, {options, {}}, name);
}

Constraint Compiler::compile_json_schema(std::string_view schema, const JsonOptions& options,
                                         std::string_view name) {
  return compile_source("json_schema", schema, {{}, options}, name);
}

Constraint Compiler::compile_regex(std::string_view pattern) {
  return compile_source("regex", pattern, {}, {});
}

Constraint Compiler::compile_any_json(const JsonOptions& options) {
  return compile_source("any_json", "", {{}, options}, {});
}

CompilerCacheStatistics Compiler::cache_statistics() const {
  const std::lock_guard lock(impl_->mutex);
  CompilerCacheStatistics statistics = impl_->statistics;
  statistics.entries = 0;
  for (const auto& [key, entry] : impl_->entries) statistics.entries += entry.constraint ? 1 : 0;
  return statistics;
}

void Compiler::clear_cache() {
  const std::lock_guard lock(impl_->mutex);
  for (auto entry = impl_->entries.begin(); entry != impl_->entries.end();) {
    if (entry->second.constraint) {
      impl_->recent.erase(entry->second.use);
      entry = impl_->entries.erase(entry);
    } else {
      ++entry;  // a compile under way keeps its place for its waiters
    }
  }
}

}  // namespace glrmask
