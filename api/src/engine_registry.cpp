#include "api/src/engine_registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "api/src/limits_internal.h"
#include "lib/core/check.h"
#include "lib/core/error.h"
#include "mask/lazy/background_mask_build.h"
#include "mask/lazy/lazy_walk_engine.h"
#include "mask/lazy/staged_engine.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "mask/wfa/wfa_engine.h"

namespace glrmask {
namespace {

// ---- wfa: the compiled Parser DWA, shared; engines are cheap views made as calls need them.

void prepare_wfa(Constraint::Impl& impl, const mask::ParserDwaOptions& options) {
  impl.compiled = mask::CompiledMask::compile(impl.grammar, impl.vocabulary(), options);
}

void load_wfa(Constraint::Impl& impl, const mask::ArtifactFile& file, const Limits&) {
  // compiled_mask() checks the fingerprints first (a vocabulary's costs a pass over it).
  impl.compiled = file.compiled_mask(impl.grammar, impl.vocabulary());
}

void pool_wfa(Constraint::Impl& impl) {
  std::shared_ptr<const mask::CompiledMask> compiled = impl.compiled;
  const Vocabulary& vocabulary = impl.vocabulary();
  impl.engines = std::make_unique<EnginePool>(
      [compiled, &vocabulary] { return std::make_unique<mask::WfaEngine>(compiled, vocabulary); },
      0);
}

std::unique_ptr<mask::MaskEngine> make_wfa(const EngineInputs& inputs) {
  if (inputs.compiled)
    return std::make_unique<mask::WfaEngine>(inputs.compiled, *inputs.vocabulary);
  return std::make_unique<mask::WfaEngine>(
      mask::CompiledMask::compile(inputs.grammar, *inputs.vocabulary, inputs.dwa_options),
      *inputs.vocabulary);
}

// ---- spanner: its table is built by its constructor, so one engine, lent to one call at a time.

void pool_spanner(Constraint::Impl& impl) {
  auto spanner = std::make_unique<mask::SpannerEngine>(impl.grammar, impl.vocabulary());
  impl.engines = std::make_unique<EnginePool>(nullptr, 1);
  impl.engines->give(std::move(spanner));
}

std::unique_ptr<mask::MaskEngine> make_spanner(const EngineInputs& inputs) {
  return std::make_unique<mask::SpannerEngine>(inputs.grammar, *inputs.vocabulary);
}

// ---- oracle: nothing precompiled.

void pool_oracle(Constraint::Impl& impl) {
  const Vocabulary& vocabulary = impl.vocabulary();
  impl.engines = std::make_unique<EnginePool>(
      [&vocabulary] { return std::make_unique<mask::OracleEngine>(vocabulary); }, 0);
}

std::unique_ptr<mask::MaskEngine> make_oracle(const EngineInputs& inputs) {
  return std::make_unique<mask::OracleEngine>(*inputs.vocabulary);
}

// ---- lazy and staged: the tokenizer's tables are built on its first lazy or staged constraint
// and shared by all of them. A lazy engine caches the walks it made, so engines are kept for
// reuse, and the first one is made at once so that a grammar it refuses is refused at compile
// time.

void keep_first(Constraint::Impl& impl, EnginePool::Factory factory) {
  auto first = factory();
  impl.engines = std::make_unique<EnginePool>(std::move(factory), 0);
  impl.engines->give(std::move(first));
}

void pool_lazy(Constraint::Impl& impl) {
  const mask::VocabularyTables& tables = impl.tokenizer.impl().vocabulary_tables();
  std::shared_ptr<const glr::CompiledGrammar> grammar = impl.grammar;
  keep_first(impl, [grammar, &tables] {
    return std::make_unique<mask::LazyWalkEngine>(grammar, tables.vocabulary, tables.trie,
                                                  &tables.plain);
  });
}

// A standalone lazy or staged engine over tables it owns when the caller gives none.
template <class Engine>
class OwningTables final : public mask::MaskEngine {
 public:
  template <class Make>
  OwningTables(const Vocabulary& vocabulary, Make make)
      : tables_(std::make_unique<mask::VocabularyTables>(vocabulary)), engine_(make(*tables_)) {}
  std::string_view name() const override { return engine_->name(); }
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override {
    engine_->fill_mask(parse, words);
  }
  std::span<const std::uint32_t> mask_view(const glr::ParseView& parse,
                                           std::span<std::uint32_t> scratch) override {
    return engine_->mask_view(parse, scratch);
  }
  std::span<const mask::EngineCounter> last_step_counters() const override {
    return engine_->last_step_counters();
  }

 private:
  std::unique_ptr<mask::VocabularyTables> tables_;
  std::unique_ptr<Engine> engine_;
};

template <class Engine, class Make>
std::unique_ptr<mask::MaskEngine> with_tables(const EngineInputs& inputs, Make make) {
  if (inputs.tables != nullptr) return make(*inputs.tables);
  return std::make_unique<OwningTables<Engine>>(*inputs.vocabulary, make);
}

std::unique_ptr<mask::MaskEngine> make_lazy(const EngineInputs& inputs) {
  return with_tables<mask::LazyWalkEngine>(inputs, [&](const mask::VocabularyTables& tables) {
    return std::make_unique<mask::LazyWalkEngine>(inputs.grammar, tables.vocabulary, tables.trie,
                                                  &tables.plain);
  });
}

void prepare_staged(Constraint::Impl& impl, const mask::ParserDwaOptions& options) {
  impl.staged_build = std::make_shared<mask::BackgroundMaskBuild>(
      impl.grammar, impl.tokenizer.impl().vocabulary_tables(), options);
}

void load_staged(Constraint::Impl& impl, const mask::ArtifactFile& file, const Limits& limits) {
  file.check_fingerprints(*impl.grammar, impl.vocabulary());
  mask::ParserDwaOptions options;
  apply_compile_limits(limits, options);
  prepare_staged(impl, options);
}

void pool_staged(Constraint::Impl& impl) {
  const mask::VocabularyTables& tables = impl.tokenizer.impl().vocabulary_tables();
  std::shared_ptr<const glr::CompiledGrammar> grammar = impl.grammar;
  std::shared_ptr<mask::BackgroundMaskBuild> build = impl.staged_build;
  keep_first(impl, [grammar, &tables, build] {
    return std::make_unique<mask::StagedEngine>(grammar, tables, build);
  });
}

std::unique_ptr<mask::MaskEngine> make_staged(const EngineInputs& inputs) {
  return with_tables<mask::StagedEngine>(inputs, [&](const mask::VocabularyTables& tables) {
    auto build =
        std::make_shared<mask::BackgroundMaskBuild>(inputs.grammar, tables, inputs.dwa_options);
    return std::make_unique<mask::StagedEngine>(inputs.grammar, tables, std::move(build));
  });
}

// What the staged engine serves with once built: the wfa's automata, or the lazy engine alone.
StoredEngine save_staged(const Constraint::Impl& impl) {
  try {
    return {Engine::kWfa, impl.staged_build->wait()};
  } catch (const Error&) {
    return {Engine::kLazy, nullptr};
  }
}

// ---- shared by the engines that precompile nothing an artifact stores.

void load_checked(Constraint::Impl& impl, const mask::ArtifactFile& file, const Limits&) {
  file.check_fingerprints(*impl.grammar, impl.vocabulary());
}

StoredEngine save_as_is(const Constraint::Impl& impl) {
  return {impl.engine, impl.compiled};
}

constexpr EngineEntry kEngines[] = {
    {Engine::kWfa, 1, kRefusesSkippableOnForks | kRefusesEndlessReductions, true, prepare_wfa,
     load_wfa, save_as_is, pool_wfa, make_wfa},
    {Engine::kSpanner, 2, 0, false, nullptr, load_checked, save_as_is, pool_spanner, make_spanner},
    {Engine::kOracle, 3, 0, false, nullptr, load_checked, save_as_is, pool_oracle, make_oracle},
    {Engine::kLazy, 0, kRefusesPostLexer, false, nullptr, load_checked, save_as_is, pool_lazy,
     make_lazy},
    {Engine::kStaged, 0, kRefusesPostLexer, false, prepare_staged, load_staged, save_staged,
     pool_staged, make_staged},
};

// Every engine of engines.def but kAuto has exactly one entry, in the same order.
constexpr bool entries_follow_the_list() {
  std::size_t i = 0;
#define GLRMASK_ENGINE(cpp_name, c_name, name, value, summary)                               \
  if (Engine::k##cpp_name != Engine::kAuto) {                                                \
    if (i >= std::size(kEngines) || kEngines[i].engine != Engine::k##cpp_name) return false; \
    ++i;                                                                                     \
  }
#include "glrmask/engines.def"
#undef GLRMASK_ENGINE
  return i == std::size(kEngines);
}
static_assert(entries_follow_the_list(), "every engine of engines.def needs an entry, in order");

}  // namespace

std::span<const EngineEntry> engine_registry() {
  return kEngines;
}

const EngineEntry& engine_entry(Engine engine) {
  for (const EngineEntry& entry : kEngines)
    if (entry.engine == engine) return entry;
  throw Error(fmt::format("engine {} has no entry in the registry", engine_name(engine)),
              ErrorCode::kInternal);
}

std::span<const Engine> auto_engine_order() {
  static const std::vector<Engine> order = [] {
    std::vector<const EngineEntry*> tried;
    for (const EngineEntry& entry : kEngines)
      if (entry.auto_order != 0) tried.push_back(&entry);
    std::sort(tried.begin(), tried.end(), [](const EngineEntry* a, const EngineEntry* b) {
      return a->auto_order < b->auto_order;
    });
    std::vector<Engine> engines;
    engines.reserve(tried.size());
    for (const EngineEntry* entry : tried) engines.push_back(entry->engine);
    return engines;
  }();
  return order;
}

std::string engine_names() {
  std::string names;
  for (const EngineEntry& entry : kEngines) {
    if (!names.empty()) names += ", ";
    names += engine_name(entry.engine);
  }
  return names;
}

}  // namespace glrmask
