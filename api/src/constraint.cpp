#include <fmt/format.h>

#include <chrono>

#include "api/src/constraint_impl.h"
#include "api/src/limits_internal.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/process_memory.h"
#include "wfa/lazy_walk_engine.h"
#include "wfa/mask_artifact.h"
#include "wfa/oracle_engine.h"
#include "wfa/spanner_engine.h"
#include "wfa/staged_engine.h"
#include "wfa/wfa_engine.h"

namespace glrmask {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The pool of the chosen engine. A spanner engine owns its table (built in its constructor), so
// it is built once here and shared by one call at a time; wfa and oracle engines are cheap views
// of shared data, made as calls need them.
void make_engines(Constraint::Impl& impl) {
  const Vocabulary& vocabulary = impl.vocabulary();
  switch (impl.engine) {
    case Engine::kWfa: {
      std::shared_ptr<const wfa::CompiledMask> compiled = impl.compiled;
      impl.engines = std::make_unique<EnginePool>(
          [compiled, &vocabulary] {
            return std::make_unique<wfa::WfaEngine>(compiled, vocabulary);
          },
          0);
      return;
    }
    case Engine::kSpanner: {
      auto spanner = std::make_unique<wfa::SpannerEngine>(impl.grammar, vocabulary);
      impl.engines = std::make_unique<EnginePool>(nullptr, 1);
      impl.engines->give(std::move(spanner));
      return;
    }
    case Engine::kLazy:
    case Engine::kStaged: {
      // The tokenizer's tables are built on its first lazy or staged constraint and shared by
      // all of them. A lazy engine caches the walks it made, so engines are kept for reuse, and
      // the first one is made here so that a grammar it refuses is refused at compile time.
      const wfa::VocabularyTables& tables = impl.tokenizer.impl().vocabulary_tables();
      std::shared_ptr<const glr::CompiledGrammar> grammar = impl.grammar;
      EnginePool::Factory factory;
      if (impl.engine == Engine::kLazy) {
        factory = [grammar, &tables] {
          return std::make_unique<wfa::LazyWalkEngine>(grammar, tables.vocabulary, tables.trie,
                                                       &tables.plain);
        };
      } else {
        std::shared_ptr<wfa::BackgroundMaskBuild> build = impl.staged_build;
        factory = [grammar, &tables, build] {
          return std::make_unique<wfa::StagedEngine>(grammar, tables, build);
        };
      }
      auto first = factory();
      impl.engines = std::make_unique<EnginePool>(std::move(factory), 0);
      impl.engines->give(std::move(first));
      return;
    }
    case Engine::kOracle:
    case Engine::kAuto:
      break;
  }
  impl.engines = std::make_unique<EnginePool>(
      [&vocabulary] { return std::make_unique<wfa::OracleEngine>(vocabulary); }, 0);
}

// Tries the engines in order, from the requested one (kAuto: wfa) down to the oracle; a refusal
// of kind kUnsupported moves on under kAuto and is thrown otherwise.
void choose_engine(Constraint::Impl& impl, const CompileOptions& compile,
                   const wfa::ParserDwaOptions* dwa_options) {
  const Clock::time_point start = Clock::now();
  const bool automatic = compile.engine == Engine::kAuto;
  const Engine first = automatic ? Engine::kWfa : compile.engine;
  for (Engine engine = first;;) {
    try {
      impl.engine = engine;
      if (engine == Engine::kWfa || engine == Engine::kStaged) {
        wfa::ParserDwaOptions options;
        options.threads = compile.build_threads;
        apply_compile_limits(compile.limits, options);
        if (dwa_options != nullptr) options = *dwa_options;
        if (engine == Engine::kWfa) {
          impl.compiled = wfa::CompiledMask::compile(impl.grammar, impl.vocabulary(), options);
        } else {
          impl.staged_build = std::make_shared<wfa::BackgroundMaskBuild>(
              impl.grammar, impl.tokenizer.impl().vocabulary_tables(), options);
        }
      }
      make_engines(impl);
      break;
    } catch (const Error& e) {
      if (!automatic || e.code() != ErrorCode::kUnsupported || engine == Engine::kOracle) throw;
      impl.compiled.reset();
      engine = engine == Engine::kWfa ? Engine::kSpanner : Engine::kOracle;
    }
  }
  impl.statistics.engine_seconds = impl.engine == Engine::kOracle ? 0 : seconds_since(start);
  if (impl.compiled) impl.statistics.automaton_states = impl.compiled->parser_dwa().num_states();
}

}  // namespace

const char* engine_name(Engine engine) noexcept {
  switch (engine) {
    case Engine::kAuto:
      return "auto";
    case Engine::kWfa:
      return "wfa";
    case Engine::kSpanner:
      return "spanner";
    case Engine::kOracle:
      return "oracle";
    case Engine::kLazy:
      return "lazy";
    case Engine::kStaged:
      return "staged";
  }
  return "?";
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

std::shared_ptr<const Constraint::Impl> build_constraint(ConstraintSource source,
                                                         const Tokenizer& tokenizer,
                                                         const CompileOptions& compile,
                                                         const wfa::ParserDwaOptions* dwa_options) {
  auto impl = std::make_shared<Constraint::Impl>(tokenizer);
  impl->source = std::move(source);
  impl->limits = compile.limits;
  const Clock::time_point start = Clock::now();
  impl->grammar = impl->source.compile(lexer_limits(compile.limits),
                                       compile.limits.max_compile_memory_mib << 20);
  impl->recognizer = std::make_shared<const glr::IncrementalRecognizer>(
      impl->grammar, parser_limits(compile.limits));
  impl->statistics.grammar_seconds = seconds_since(start);
  impl->statistics.lr_states = impl->grammar->table().num_states();
  choose_engine(*impl, compile, dwa_options);
  impl->statistics.peak_memory_bytes = peak_memory_bytes();
  return impl;
}

namespace {

// The source the from_* constructors compile; each kind reads only its own options.
ConstraintSource make_source(ConstraintSource::Kind kind, std::string name, std::string text,
                             const GrammarOptions& grammar = {}, const JsonOptions& json = {}) {
  return ConstraintSource{kind, std::move(name), std::move(text), grammar, json};
}

}  // namespace

Constraint Constraint::from_lark(std::string_view grammar, const Tokenizer& tokenizer,
                                 const GrammarOptions& options, const CompileOptions& compile,
                                 std::string_view name) {
  return Constraint(build_constraint(
      make_source(ConstraintSource::Kind::kLark, std::string(name), std::string(grammar), options),
      tokenizer, compile));
}

Constraint Constraint::from_lark_file(const std::filesystem::path& path, const Tokenizer& tokenizer,
                                      const GrammarOptions& options,
                                      const CompileOptions& compile) {
  return from_lark(read_text_file(path), tokenizer, options, compile, path.string());
}

Constraint Constraint::from_json_schema(std::string_view schema, const Tokenizer& tokenizer,
                                        const JsonOptions& options, const CompileOptions& compile,
                                        std::string_view name) {
  return Constraint(
      build_constraint(make_source(ConstraintSource::Kind::kJsonSchema, std::string(name),
                                   std::string(schema), {}, options),
                       tokenizer, compile));
}

Constraint Constraint::any_json(const Tokenizer& tokenizer, const JsonOptions& options,
                                const CompileOptions& compile) {
  return Constraint(
      build_constraint(make_source(ConstraintSource::Kind::kAnyJson, "<json>", "", {}, options),
                       tokenizer, compile));
}

Constraint Constraint::from_regex(std::string_view pattern, const Tokenizer& tokenizer,
                                  const CompileOptions& compile) {
  return Constraint(
      build_constraint(make_source(ConstraintSource::Kind::kRegex, "<regex>", std::string(pattern)),
                       tokenizer, compile));
}

void Constraint::save(const std::filesystem::path& path) const {
  if (impl_->external_engine)
    throw Error(fmt::format("{}: a constraint over the caller's engine cannot be saved",
                            impl_->source.name),
                ErrorCode::kUnsupported);
  StoredConstraint stored{impl_->source, impl_->engine};
  std::shared_ptr<const wfa::CompiledMask> compiled = impl_->compiled;
  if (impl_->engine == Engine::kStaged) {
    // What the constraint serves with once built: the wfa's automata, or the lazy engine alone.
    try {
      compiled = impl_->staged_build->wait();
      stored.engine = Engine::kWfa;
    } catch (const Error&) {
      stored.engine = Engine::kLazy;
    }
  }
  wfa::write_artifact(*impl_->grammar, compiled.get(), impl_->vocabulary(), stored.serialize(),
                      path);
}

Constraint Constraint::load(const std::filesystem::path& path, const Tokenizer& tokenizer,
                            const Limits& limits) {
  const Clock::time_point start = Clock::now();
  const wfa::ArtifactFile file = wfa::ArtifactFile::open(path);
  // The file's checksum is computed meanwhile, on a second thread for a large file (else on the
  // first ArtifactFile::verify_checksum): the stored source is parsed, and the grammar model built
  // from it, before it returns, so an error from either waits for it, and a corrupt file is
  // reported as such.
  StoredConstraint stored = [&] {
    try {
      return StoredConstraint::parse(file.source(), path.string());
    } catch (const Error&) {
      file.verify_checksum();
      throw;
    }
  }();
  const Engine engine = stored.engine;
  if ((engine == Engine::kWfa) != file.has_compiled_mask())
    throw Error(fmt::format("{}: the artifact's automata do not match its engine ({})",
                            path.string(), engine_name(engine)),
                ErrorCode::kArtifact, ErrorLocation::in_file(path.string()));
  auto impl = std::make_shared<Constraint::Impl>(tokenizer);
  impl->source = std::move(stored.source);
  impl->limits = limits;
  // The grammar model is rebuilt from the stored source (its fingerprint is checked below); its
  // lexer DFA, LR tables and fork analysis are read from the artifact, not built again.
  glr::ParseOptions parse = impl->source.parse_options();
  parse.lexer_limits = lexer_limits(limits);
  parse.max_lookahead_bytes = limits.max_compile_memory_mib << 20;
  Grammar model = [&] {
    try {
      return impl->source.build();
    } catch (const Error&) {
      file.verify_checksum();
      throw;
    }
  }();
  impl->grammar = file.compiled_grammar(std::move(model), parse);
  impl->recognizer =
      std::make_shared<const glr::IncrementalRecognizer>(impl->grammar, parser_limits(limits));
  impl->statistics.grammar_seconds = seconds_since(start);
  impl->statistics.lr_states = impl->grammar->table().num_states();
  const Clock::time_point engine_start = Clock::now();
  impl->engine = engine;
  if (engine == Engine::kWfa) {
    // compiled_mask() checks the fingerprints first (a vocabulary's costs a pass over it).
    impl->compiled = file.compiled_mask(impl->grammar, impl->vocabulary());
    impl->statistics.automaton_states = impl->compiled->parser_dwa().num_states();
  } else {
    file.check_fingerprints(*impl->grammar, impl->vocabulary());
  }
  if (engine == Engine::kStaged) {
    wfa::ParserDwaOptions options;
    apply_compile_limits(limits, options);
    impl->staged_build = std::make_shared<wfa::BackgroundMaskBuild>(
        impl->grammar, impl->tokenizer.impl().vocabulary_tables(), options);
  }
  make_engines(*impl);
  impl->statistics.engine_seconds = seconds_since(engine_start);
  impl->statistics.peak_memory_bytes = peak_memory_bytes();
  return Constraint(std::move(impl));
}

const Tokenizer& Constraint::tokenizer() const {
  return impl_->tokenizer;
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
