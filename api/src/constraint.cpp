#include <fmt/format.h>

#include <chrono>

#include "api/src/constraint_impl.h"
#include "api/src/engine_registry.h"
#include "api/src/grammar_impl.h"
#include "api/src/limits_internal.h"
#include "api/src/token_terminals.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/process_memory.h"
#include "mask/artifact/mask_artifact.h"

namespace glrmask {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The construction options of the Parser DWA: the compile options' threads and budgets, or the
// studies' own.
mask::ParserDwaOptions dwa_options_of(const CompileOptions& compile,
                                      const mask::ParserDwaOptions* dwa_options) {
  if (dwa_options != nullptr) return *dwa_options;
  mask::ParserDwaOptions options;
  options.threads = compile.build_threads;
  apply_compile_limits(compile.limits, options);
  return options;
}

// Builds the requested engine, or under kAuto the engines of the registry's order until one does
// not refuse the grammar (ErrorCode::kUnsupported); a refusal of a requested engine is thrown.
void choose_engine(Constraint::Impl& impl, const CompileOptions& compile,
                   const mask::ParserDwaOptions* dwa_options) {
  const Clock::time_point start = Clock::now();
  const mask::ParserDwaOptions options = dwa_options_of(compile, dwa_options);
  const bool automatic = compile.engine == Engine::kAuto;
  const std::span<const Engine> tried =
      automatic ? auto_engine_order() : std::span<const Engine>(&compile.engine, 1);
  for (std::size_t i = 0; i < tried.size(); ++i) {
    const EngineEntry& entry = engine_entry(tried[i]);
    try {
      impl.engine = entry.engine;
      if (entry.prepare != nullptr) entry.prepare(impl, options);
      entry.make_pool(impl);
      break;
    } catch (const Error& e) {
      if (!automatic || e.code() != ErrorCode::kUnsupported || i + 1 == tried.size()) throw;
      impl.compiled.reset();
      impl.staged_build.reset();
    }
  }
  impl.statistics.engine_seconds = impl.engine == Engine::kOracle ? 0 : seconds_since(start);
  if (impl.compiled) impl.statistics.automaton_states = impl.compiled->parser_dwa().num_states();
}

}  // namespace

const char* engine_name(Engine engine) noexcept {
  switch (engine) {
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary) \
  case Engine::k##cpp_name:                                    \
    return name;
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
  }
  return "?";
}

const char* engine_summary(Engine engine) noexcept {
  switch (engine) {
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary) \
  case Engine::k##cpp_name:                                    \
    return summary;
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
  }
  return "?";
}

std::optional<Engine> engine_from_name(std::string_view name) noexcept {
  for (const Engine engine : all_engines())
    if (name == engine_name(engine)) return engine;
  return std::nullopt;
}

std::span<const Engine> all_engines() noexcept {
  static constexpr Engine kAll[] = {
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary) Engine::k##cpp_name,
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
  };
  return kAll;
}

const Constraint::Impl::ByteClasses& Constraint::Impl::byte_classes() const {
  std::call_once(byte_classes_once_, [&] {
    const lexer::LexerDfa& dfa = grammar->dfa();
    byte_classes_.representatives = recognizer->byte_classes();
    const auto same_column = [&](unsigned a, unsigned b) {
      for (std::uint32_t state = 0; state < dfa.num_states(); ++state)
        if (dfa.next(state, static_cast<std::uint8_t>(a)) !=
            dfa.next(state, static_cast<std::uint8_t>(b)))
          return false;
      return true;
    };
    byte_classes_.sizes.assign(byte_classes_.representatives.size(), 0);
    std::size_t next = 0;  // representatives are ascending, each the smallest of its class
    for (unsigned byte = 0; byte < 256; ++byte) {
      std::size_t found = 0;
      if (next < byte_classes_.representatives.size() &&
          byte_classes_.representatives[next] == byte) {
        found = next++;
      } else {
        while (!same_column(byte_classes_.representatives[found], byte)) ++found;
      }
      byte_classes_.class_of[byte] = static_cast<std::uint8_t>(found);
      ++byte_classes_.sizes[found];
    }
  });
  return byte_classes_;
}

std::shared_ptr<const Constraint::Impl> build_constraint(
    const Grammar& grammar, const Tokenizer& tokenizer, const CompileOptions& compile,
    const mask::ParserDwaOptions* dwa_options) {
  const Clock::time_point start = Clock::now();
  const GrammarModel& model = *grammar.impl().model;
  std::optional<TokenBinding> tokens = bind_token_terminals(model, tokenizer);
  auto impl = std::make_shared<Constraint::Impl>(tokens ? tokens->tokenizer : tokenizer);
  impl->source = grammar.impl().source;
  impl->grammar_handle = grammar;
  impl->limits = compile.limits;
  impl->grammar = impl->source.compile(tokens ? tokens->model : model, lexer_limits(compile.limits),
                                       compile.limits.max_compile_memory_mib << 20);
  impl->recognizer = std::make_shared<const glr::IncrementalRecognizer>(
      impl->grammar, parser_limits(compile.limits));
  impl->statistics.grammar_seconds = seconds_since(start);
  impl->statistics.lr_states = impl->grammar->table().num_states();
  choose_engine(*impl, compile, dwa_options);
  impl->statistics.peak_memory_bytes = peak_memory_bytes();
  return impl;
}

std::shared_ptr<const Constraint::Impl> build_constraint(
    ConstraintSource source, const Tokenizer& tokenizer, const CompileOptions& compile,
    const mask::ParserDwaOptions* dwa_options) {
  return build_constraint(Grammar::wrap(Grammar::Impl::build(std::move(source))), tokenizer,
                          compile, dwa_options);
}

Constraint Constraint::compile(const Grammar& grammar, const Tokenizer& tokenizer,
                               const CompileOptions& compile) {
  return Constraint(build_constraint(grammar, tokenizer, compile));
}

Constraint Constraint::from_lark(std::string_view grammar, const Tokenizer& tokenizer,
                                 const GrammarOptions& options, const CompileOptions& compile,
                                 std::string_view name) {
  return Constraint::compile(Grammar::from_lark(grammar, options, name), tokenizer, compile);
}

Constraint Constraint::from_lark_file(const std::filesystem::path& path, const Tokenizer& tokenizer,
                                      const GrammarOptions& options,
                                      const CompileOptions& compile) {
  return Constraint::compile(Grammar::from_lark_file(path, options), tokenizer, compile);
}

Constraint Constraint::from_json_schema(std::string_view schema, const Tokenizer& tokenizer,
                                        const JsonOptions& options, const CompileOptions& compile,
                                        std::string_view name) {
  return Constraint::compile(Grammar::from_json_schema(schema, options, name), tokenizer, compile);
}

Constraint Constraint::any_json(const Tokenizer& tokenizer, const JsonOptions& options,
                                const CompileOptions& compile) {
  return Constraint::compile(Grammar::any_json(options), tokenizer, compile);
}

Constraint Constraint::from_regex(std::string_view pattern, const Tokenizer& tokenizer,
                                  const CompileOptions& compile) {
  return Constraint::compile(Grammar::from_regex(pattern), tokenizer, compile);
}

Constraint Constraint::from_structural_tag(std::string_view tag, const Tokenizer& tokenizer,
                                           const JsonOptions& options,
                                           const CompileOptions& compile, std::string_view name) {
  SourceOptions source;
  source.json = options;
  return Constraint::compile(Grammar::from_source("structural_tag", tag, source, name), tokenizer,
                             compile);
}

namespace {

// Constraint::load and deserialize: the stored source's grammar rebuilt, the compiled grammar and
// the engine's automata read from `file`.
Constraint load_artifact(const mask::ArtifactFile& file, const Tokenizer& tokenizer,
                         const Limits& limits) {
  const Clock::time_point start = Clock::now();
  const std::string path = file.name();
  // The file's checksum is computed meanwhile, on a second thread for a large file (else on the
  // first ArtifactFile::verify_checksum): the stored source is parsed, and the grammar model built
  // from it, before it returns, so an error from either waits for it, and a corrupt file is
  // reported as such.
  StoredConstraint stored = [&] {
    try {
      return StoredConstraint::parse(file.source(), path);
    } catch (const Error&) {
      file.verify_checksum();
      throw;
    }
  }();
  const Engine engine = stored.engine;
  const EngineEntry& entry = engine_entry(engine);
  if (entry.stores_automata != file.has_compiled_mask())
    throw Error(fmt::format("{}: the artifact's automata do not match its engine ({})", path,
                            engine_name(engine)),
                ErrorCode::kArtifact, ErrorLocation::in_file(path));
  auto impl = std::make_shared<Constraint::Impl>(tokenizer);
  impl->source = std::move(stored.source);
  impl->limits = limits;
  // The grammar model is rebuilt from the stored source (its fingerprint is checked below); its
  // lexer DFA, LR tables and fork analysis are read from the artifact, not built again.
  glr::ParseOptions parse = impl->source.parse_options();
  parse.lexer_limits = lexer_limits(limits);
  parse.max_lookahead_bytes = limits.max_compile_memory_mib << 20;
  GrammarModel model = [&] {
    try {
      return impl->source.build();
    } catch (const Error&) {
      file.verify_checksum();
      throw;
    }
  }();
  if (std::optional<TokenBinding> tokens = bind_token_terminals(model, tokenizer)) {
    model = std::move(tokens->model);
    impl->tokenizer = std::move(tokens->tokenizer);
  }
  impl->grammar = file.compiled_grammar(std::move(model), parse);
  // The handle shares the compiled grammar's model (no copy).
  impl->grammar_handle = Grammar::wrap(Grammar::Impl::over(
      impl->source, std::shared_ptr<const GrammarModel>(impl->grammar, &impl->grammar->grammar())));
  impl->recognizer =
      std::make_shared<const glr::IncrementalRecognizer>(impl->grammar, parser_limits(limits));
  impl->statistics.grammar_seconds = seconds_since(start);
  impl->statistics.lr_states = impl->grammar->table().num_states();
  const Clock::time_point engine_start = Clock::now();
  impl->engine = engine;
  entry.load(*impl, file, limits);
  if (impl->compiled) impl->statistics.automaton_states = impl->compiled->parser_dwa().num_states();
  entry.make_pool(*impl);
  impl->statistics.engine_seconds = seconds_since(engine_start);
  impl->statistics.peak_memory_bytes = peak_memory_bytes();
  return Constraint::wrap(std::move(impl));
}

// What save() and serialize() write: the stored source and engine, the grammar's tables and the
// engine's automata.
std::string stored_bytes(const Constraint::Impl& impl) {
  if (impl.external_engine)
    throw Error(
        fmt::format("{}: a constraint over the caller's engine cannot be saved", impl.source.name),
        ErrorCode::kUnsupported);
  const StoredEngine stored_engine = engine_entry(impl.engine).save(impl);
  const StoredConstraint stored{impl.source, stored_engine.engine};
  return mask::artifact_bytes(*impl.grammar, stored_engine.compiled.get(), impl.vocabulary(),
                              stored.serialize());
}

}  // namespace

void Constraint::save(const std::filesystem::path& path) const {
  mask::write_artifact_file(stored_bytes(*impl_), path);
}

std::string Constraint::serialize() const {
  return stored_bytes(*impl_);
}

Constraint Constraint::deserialize(std::string_view bytes, const Tokenizer& tokenizer,
                                   const Limits& limits) {
  return load_artifact(mask::ArtifactFile::from_bytes(bytes, "<serialized constraint>"), tokenizer,
                       limits);
}

Constraint Constraint::load(const std::filesystem::path& path, const Tokenizer& tokenizer,
                            const Limits& limits) {
  return load_artifact(mask::ArtifactFile::open(path), tokenizer, limits);
}

const Tokenizer& Constraint::tokenizer() const {
  return impl_->tokenizer;
}

const Grammar& Constraint::grammar() const {
  return *impl_->grammar_handle;
}

const std::vector<Warning>& Constraint::warnings() const {
  return impl_->grammar_handle->warnings();
}

Engine Constraint::engine() const {
  return impl_->engine;
}

const CompileStatistics& Constraint::statistics() const {
  return impl_->statistics;
}

const Limits& Constraint::limits() const {
  return impl_->limits;
}

std::string Constraint::description() const {
  if (impl_->external_engine) return impl_->source.name;
  return fmt::format("{}; engine {}", impl_->source.description(), engine_name(impl_->engine));
}

}  // namespace glrmask
