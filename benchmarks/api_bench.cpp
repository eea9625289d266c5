// The library facade's cost over the engine it wraps, batches, and loading a saved constraint,
// on SynCode's JSON and Java grammars with Llama-3 (teacher-forced real texts).
//   BM_EngineFill/<g>      WfaEngine::fill_mask on every step's session, one pass per iteration
//                          (the baseline; items = steps, so the rate is per mask)
//   BM_MatcherFill/<g>     Matcher::fill_next_token_bitmask on the same steps (the facade)
//   BM_MatcherAccept/<g>   a matcher made and taken through the text by accept_token (items =
//                          tokens; benchmarks/python_bench.py times the same in Python)
//   BM_EngineView/<g>, BM_MatcherView/<g>   mask_view / next_token_mask in a decoding loop: one
//                          session (matcher) teacher-forced through the text again and again,
//                          only the mask call timed (a view's matcher keeps its engine until its
//                          next call, so one matcher per step would hold one engine each)
//   BM_BatchFill/<n>       fill_next_token_bitmasks over n matchers at different steps of the JSON
//                          text: one [n, words] bitmask per iteration (items = rows)
//   BM_BatchFillSerial/<n> the same rows filled one after another on the calling thread (what
//                          the parallel batch must beat)
//   BM_ConstraintLoad/<g>  Constraint::load of a saved constraint (grammar rebuilt from its
//                          source, automata mapped), and BM_ArtifactMap/<g> the automata alone
// The facade's target is to add at most 5% to the engine's get_mask (docs/api.md records runs).
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/src/constraint_impl.h"
#include "api/src/matcher_impl.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/file_io.h"
#include "lib/core/process_memory.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/wfa/wfa_engine.h"

namespace {

using namespace glrmask;
namespace fs = std::filesystem;

struct Workload {
  std::optional<Constraint> constraint;
  std::vector<std::int32_t> tokens;  // the text's
  std::vector<Matcher> steps;        // the matcher before each token, and at the end
  fs::path saved;                    // the constraint saved to a temporary file
};

const Tokenizer& llama3() {
  static const Tokenizer tokenizer = Tokenizer::load("llama3");
  return tokenizer;
}

// The grammar and text of `language` ("json" or "java"), compiled and teacher-forced once.
Workload* workload(const std::string& language) {
  static std::map<std::string, std::unique_ptr<Workload>> cache;
  auto& entry = cache[language];
  if (entry) return entry.get();
  if (!have_data_dir()) return nullptr;
  const fs::path data = data_dir();
  const fs::path grammar = data / "grammars" / "syncode" / (language + "_grammar.lark");
  const std::string text =
      language == "java"
          ? read_text_file(data / "programs" / "java" / "nocomments" /
                           "matrix__InverseOfMatrix.java")
          : std::string(R"({"name": "glrmask", "tags": ["exact", "fast"], "version": 2,)"
                        R"( "nested": {"a": [1, 2.5, -3e2], "b": null, "c": true}})");
  entry = std::make_unique<Workload>();
  entry->constraint = Constraint::from_lark_file(grammar, llama3());
  Matcher matcher(*entry->constraint);
  entry->tokens = llama3().encode(text);
  for (const std::int32_t token : entry->tokens) {
    entry->steps.push_back(matcher.clone());
    matcher.commit_token(token);
  }
  entry->steps.push_back(matcher.clone());
  entry->saved = fs::temp_directory_path() / ("glrmask_api_bench_" + language + ".glrmask");
  entry->constraint->save(entry->saved);
  return entry.get();
}

void engine_fill(benchmark::State& state, const std::string& language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  const Constraint::Impl& impl = w->constraint->impl();
  mask::WfaEngine engine(impl.compiled, impl.vocabulary());
  DenseMask mask(static_cast<std::uint32_t>(impl.vocabulary().size()));
  for (auto _ : state) {
    for (const Matcher& step : w->steps) {
      engine.fill_mask(step.impl().session, mask.words());
      benchmark::DoNotOptimize(mask.words().data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * w->steps.size()));
}

void matcher_fill(benchmark::State& state, const std::string& language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  std::vector<std::int32_t> row(llama3().bitmask_words());
  for (auto _ : state) {
    for (Matcher& step : w->steps) {
      step.fill_next_token_bitmask(row);
      benchmark::DoNotOptimize(row.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * w->steps.size()));
}

void BM_EngineView(benchmark::State& state, std::string language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  const Constraint::Impl& impl = w->constraint->impl();
  mask::WfaEngine engine(impl.compiled, impl.vocabulary());
  DenseMask mask(static_cast<std::uint32_t>(impl.vocabulary().size()));
  glr::Session session(impl.recognizer, &impl.vocabulary());
  std::size_t step = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(engine.mask_view(session, mask.words()).data());
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (step == w->tokens.size()) {
      session = glr::Session(impl.recognizer, &impl.vocabulary());
      step = 0;
    } else {
      session.commit(static_cast<TokenId>(w->tokens[step++]));
    }
  }
}

void BM_MatcherView(benchmark::State& state, std::string language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  Matcher matcher(*w->constraint);
  std::size_t step = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(matcher.next_token_mask().data());
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (step == w->tokens.size()) {
      matcher.reset();
      step = 0;
    } else {
      matcher.commit_token(w->tokens[step++]);
    }
  }
}

void BM_EngineFill(benchmark::State& state, std::string language) {
  engine_fill(state, language);
}
void BM_MatcherFill(benchmark::State& state, std::string language) {
  matcher_fill(state, language);
}

// A matcher made and teacher-forced through the text with accept_token, per iteration (what
// benchmarks/python_bench.py times in Python; items = tokens).
void BM_MatcherAccept(benchmark::State& state, std::string language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  for (auto _ : state) {
    Matcher matcher(*w->constraint);
    for (const std::int32_t token : w->tokens)
      benchmark::DoNotOptimize(matcher.accept_token(token));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * w->tokens.size()));
}

// n matchers at different steps of the JSON text and one [n, words] bitmask; each iteration
// fills every row, through fill_next_token_bitmasks (parallel) or one row after another.
void batch_fill(benchmark::State& state, bool parallel) {
  Workload* w = workload("json");
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<Matcher> matchers;
  for (std::size_t i = 0; i < n; ++i) matchers.push_back(w->steps[i % w->steps.size()].clone());
  std::vector<Matcher*> pointers;
  for (Matcher& m : matchers) pointers.push_back(&m);
  const std::size_t words = llama3().bitmask_words();
  std::vector<std::int32_t> bitmask(n * words);
  for (auto _ : state) {
    if (parallel) {
      fill_next_token_bitmasks(pointers, bitmask, words);
    } else {
      for (std::size_t i = 0; i < n; ++i)
        matchers[i].fill_next_token_bitmask(std::span(bitmask).subspan(i * words, words));
    }
    benchmark::DoNotOptimize(bitmask.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(n));
}

void BM_BatchFill(benchmark::State& state) {
  batch_fill(state, true);
}
void BM_BatchFillSerial(benchmark::State& state) {
  batch_fill(state, false);
}

void BM_ConstraintLoad(benchmark::State& state, std::string language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  for (auto _ : state) benchmark::DoNotOptimize(Constraint::load(w->saved, llama3()).engine());
  // What one more loaded constraint costs the process: its private pages (the rebuilt grammar,
  // the indexes) and the artifact's pages it maps, which every process loading the same file
  // shares through the page cache. A matcher's first mask touches what a decoding step reads.
  const std::size_t private_before = private_memory_bytes();
  const std::size_t mapped_before = file_backed_memory_bytes();
  const Constraint held = Constraint::load(w->saved, llama3());
  Matcher matcher(held);
  benchmark::DoNotOptimize(matcher.next_token_mask().data());
  constexpr double kMiB = 1024.0 * 1024.0;
  state.counters["private_MiB"] =
      static_cast<double>(private_memory_bytes() - private_before) / kMiB;
  state.counters["mapped_MiB"] =
      static_cast<double>(file_backed_memory_bytes() - mapped_before) / kMiB;
  state.counters["file_MiB"] = static_cast<double>(fs::file_size(w->saved)) / kMiB;
}

void BM_ArtifactMap(benchmark::State& state, std::string language) {
  Workload* w = workload(language);
  if (w == nullptr) return state.SkipWithError("no data folder (set GLRMASK_DATA)");
  const Constraint::Impl& impl = w->constraint->impl();
  for (auto _ : state) {
    const mask::ArtifactFile file = mask::ArtifactFile::open(w->saved);
    benchmark::DoNotOptimize(file.compiled_mask(impl.grammar, impl.vocabulary()).get());
  }
}

BENCHMARK_CAPTURE(BM_EngineFill, json, std::string("json"));
BENCHMARK_CAPTURE(BM_MatcherFill, json, std::string("json"));
BENCHMARK_CAPTURE(BM_MatcherAccept, json, std::string("json"));
BENCHMARK_CAPTURE(BM_EngineView, json, std::string("json"))->UseManualTime();
BENCHMARK_CAPTURE(BM_MatcherView, json, std::string("json"))->UseManualTime();
BENCHMARK_CAPTURE(BM_EngineFill, java, std::string("java"));
BENCHMARK_CAPTURE(BM_MatcherFill, java, std::string("java"));
BENCHMARK_CAPTURE(BM_EngineView, java, std::string("java"))->UseManualTime();
BENCHMARK_CAPTURE(BM_MatcherView, java, std::string("java"))->UseManualTime();
BENCHMARK(BM_BatchFill)->RangeMultiplier(2)->Range(1, 256)->UseRealTime();
BENCHMARK(BM_BatchFillSerial)->RangeMultiplier(2)->Range(1, 256)->UseRealTime();
BENCHMARK_CAPTURE(BM_ConstraintLoad, json, std::string("json"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactMap, json, std::string("json"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ConstraintLoad, java, std::string("java"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactMap, java, std::string("java"))->Unit(benchmark::kMillisecond);

}  // namespace
