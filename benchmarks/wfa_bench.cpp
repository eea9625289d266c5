// The wfa engine's hot paths on the SynCode grammars with the Llama-3 vocabulary.
//   BM_WfaGetMask/<grammar>   one fill_mask (dense mask included) per step of a teacher-forced
//                             real program (json, java, sql, go), the steps taken round robin
//                             (after the first round the dense-mask cache answers most steps)
//   BM_WfaGetMaskView/<g>     the same through mask_view: a cached step hands out the cached mask
//   BM_WfaGetMaskUncached/<g> the same with the cache off: every step unites its weights
//   BM_WfaGetMaskViewPadded/<g>/<ids>, BM_WfaGetMaskUncachedPadded/<g>/<ids>
//                             the same with Llama-2's tokenization and its vocabulary padded with
//                             Gemma-3's tokens to <ids> (Vocabulary::padded; 32000 is Llama-2
//                             itself): the same steps, only the vocabulary size changes
//   BM_WfaGetMaskRightRecursion/<items>/<summaries>
//                             fill_mask on a right-recursive list `l: ITEM "," l | ITEM` of
//                             <items> items (Llama-3), round robin over 64 steps after them;
//                             summaries 1: the engine's stack summaries (the default), 0: the
//                             walk reads the whole stack (docs/limits.md, finding 3)
//   BM_WfaArtifactLoad/json   reading a compiled artifact back (checks and token sets included)
//   BM_WfaCompile/json        grammar x vocabulary -> Terminal DWA and Parser DWA
// The grammar compile of Java/SQL (seconds) is measured by `glrmask compile` and the
// experiments, not here.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/wfa/wfa_engine.h"

namespace {

using namespace glrmask;

struct Workload {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  std::shared_ptr<const Vocabulary> vocabulary;
  std::shared_ptr<const mask::CompiledMask> compiled;
  std::vector<glr::Session> steps;  // the session before each token, and at the end
};

const Vocabulary& llama3() {
  static const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  return vocabulary;
}

// Llama-2's vocabulary padded with Gemma-3's tokens to `size` ids (kept for the whole run).
std::shared_ptr<const Vocabulary> padded_llama2(std::size_t size) {
  static std::map<std::size_t, std::shared_ptr<const Vocabulary>> padded;
  auto& entry = padded[size];
  if (!entry) {
    const Vocabulary llama2 = Vocabulary::load(resolve_tokenizer("llama2"));
    const Vocabulary gemma3 = Vocabulary::load(resolve_tokenizer("gemma3"));
    const std::vector<const Vocabulary*> donors = {&gemma3};
    entry = std::make_shared<const Vocabulary>(llama2.padded(donors, size));
  }
  return entry;
}

// Compiles the grammar and teacher-forces the program with Llama-3, or with Llama-2's encoder
// and its vocabulary padded to `padded_size` ids when that is given; nullopt when the data is
// missing.
std::optional<Workload> workload(const std::string& language,
                                 std::optional<std::size_t> padded_size = std::nullopt) {
  if (!have_data_dir()) return std::nullopt;
  const auto syncode = data_dir() / "grammars" / "syncode";
  const auto programs = data_dir() / "programs";
  std::filesystem::path grammar_path = syncode / (language + "_grammar.lark");
  std::string text;
  glr::ParseOptions options;
  if (language == "go") {
    // SynCode's convention: the dropped EOS needs guarded items (docs/wfa.md).
    options.policy = glr::ConflictPolicy::kLark;
    options.skippable = {"EOS"};
    text = read_text_file(programs / "go" / "math__pi__spigotpi.go");
  } else if (language == "java") {
    text = read_text_file(programs / "java" / "nocomments" / "matrix__InverseOfMatrix.java");
  } else if (language == "sql") {
    text = read_text_file(programs / "sql" / "queries.sql");
    text = text.substr(0, text.find('\n'));
  } else {
    text = R"({"id": 17, "name": "Ada Lovelace", "tags": ["math", "engine"], "ratio": -0.25e3,)"
           R"( "ok": true, "next": null, "nested": {"a": [], "b": {"c": [1, 2, 3]}}})";
  }
  Workload w;
  w.grammar = glr::CompiledGrammar::load_lark(grammar_path, options);
  w.vocabulary = padded_size
                     ? padded_llama2(*padded_size)
                     : std::shared_ptr<const Vocabulary>(&llama3(), [](const Vocabulary*) {});
  w.compiled = mask::CompiledMask::compile(w.grammar, *w.vocabulary);
  const Encoder encoder = Encoder::load(resolve_tokenizer(padded_size ? "llama2" : "llama3"));
  glr::Session session(w.grammar, w.vocabulary.get());
  for (const TokenId token : encoder.encode(text)) {
    w.steps.push_back(session.clone());
    session.commit(token);
  }
  w.steps.push_back(session.clone());
  return w;
}

void get_mask(benchmark::State& state, const std::string& language, std::size_t cache_slots,
              bool view = false, std::optional<std::size_t> padded_size = std::nullopt) {
  const std::optional<Workload> w = workload(language, padded_size);
  if (!w) {
    state.SkipWithError("real-data folder absent");
    return;
  }
  mask::WfaEngine engine(w->compiled, *w->vocabulary, cache_slots);
  DenseMask mask(static_cast<std::uint32_t>(w->vocabulary->size()));
  std::size_t step = 0;
  for (auto _ : state) {
    if (view) {
      benchmark::DoNotOptimize(engine.mask_view(w->steps[step], mask.words()).data());
    } else {
      engine.fill_mask(w->steps[step], mask.words());
      benchmark::DoNotOptimize(mask.words().data());
    }
    if (++step == w->steps.size()) step = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["steps"] = static_cast<double>(w->steps.size());
}

void BM_WfaGetMask(benchmark::State& state, const std::string& language) {
  get_mask(state, language, mask::WfaEngine::kDefaultDenseCacheSlots);
}
// mask_view: a step answered by the dense-mask cache hands out the cached mask, no copy.
void BM_WfaGetMaskView(benchmark::State& state, const std::string& language) {
  get_mask(state, language, mask::WfaEngine::kDefaultDenseCacheSlots, true);
}
// Every step unites its weights into the dense mask: the cost of a result not seen before.
void BM_WfaGetMaskUncached(benchmark::State& state, const std::string& language) {
  get_mask(state, language, 0);
}
// Llama-2's steps with its vocabulary padded to state.range(0) ids.
void BM_WfaGetMaskViewPadded(benchmark::State& state, const std::string& language) {
  get_mask(state, language, mask::WfaEngine::kDefaultDenseCacheSlots, true,
           static_cast<std::size_t>(state.range(0)));
}
void BM_WfaGetMaskUncachedPadded(benchmark::State& state, const std::string& language) {
  get_mask(state, language, 0, true, static_cast<std::size_t>(state.range(0)));
}
// Llama-2's own size, then padded to 2^16, 2^17 and 2^18 ids.
void padded_sizes(benchmark::internal::Benchmark* benchmark) {
  benchmark->Arg(32000)->Arg(65536)->Arg(131072)->Arg(262144)->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_WfaGetMask, json, std::string("json"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMask, java, std::string("java"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMask, sql, std::string("sql"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMask, go, std::string("go"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskView, json, std::string("json"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskView, java, std::string("java"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskView, sql, std::string("sql"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskView, go, std::string("go"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskUncached, json, std::string("json"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskUncached, java, std::string("java"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskUncached, sql, std::string("sql"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskUncached, go, std::string("go"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_WfaGetMaskViewPadded, java, std::string("java"))->Apply(padded_sizes);
BENCHMARK_CAPTURE(BM_WfaGetMaskViewPadded, go, std::string("go"))->Apply(padded_sizes);
BENCHMARK_CAPTURE(BM_WfaGetMaskUncachedPadded, java, std::string("java"))->Apply(padded_sizes);

void BM_WfaGetMaskRightRecursion(benchmark::State& state) {
  const auto items = static_cast<std::size_t>(state.range(0));
  const auto grammar = glr::CompiledGrammar::compile(
      load_lark_text("start: l\nl: ITEM \",\" l | ITEM\nITEM: /[a-z]/\n", "list.lark"));
  const auto compiled = mask::CompiledMask::compile(grammar, llama3());
  mask::WfaEngine engine(compiled, llama3());
  if (state.range(1) == 0) engine.set_summary_depth(mask::WfaEngine::kNoSummaries);
  glr::Session session(grammar, &llama3());
  std::string list;
  for (std::size_t i = 0; i < items; ++i) list += "a,";
  if (!session.try_commit_bytes(list)) {
    state.SkipWithError("the list was refused");
    return;
  }
  std::vector<glr::Session> steps;
  for (int i = 0; i < 64; ++i) {  // after an item (EOS reduces the whole list) and after a comma
    session.try_commit_bytes(i % 2 == 0 ? "b" : ",");
    steps.push_back(session.clone());
  }
  DenseMask mask(static_cast<std::uint32_t>(llama3().size()));
  std::size_t step = 0;
  for (auto _ : state) {
    engine.fill_mask(steps[step], mask.words());
    benchmark::DoNotOptimize(mask.words().data());
    if (++step == steps.size()) step = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_WfaGetMaskRightRecursion)
    ->ArgsProduct({{1000, 10000, 50000}, {1, 0}})
    ->Unit(benchmark::kMicrosecond);

void BM_WfaArtifactLoad(benchmark::State& state) {
  const std::optional<Workload> w = workload("json");
  if (!w) {
    state.SkipWithError("real-data folder absent");
    return;
  }
  const auto path = std::filesystem::temp_directory_path() / "glrmask_bench_json.glrmask";
  mask::write_mask_artifact(*w->compiled, *w->vocabulary, path);
  for (auto _ : state) {
    auto loaded = mask::read_mask_artifact(path, w->grammar, *w->vocabulary);
    benchmark::DoNotOptimize(loaded.get());
  }
  std::filesystem::remove(path);
}
BENCHMARK(BM_WfaArtifactLoad)->Unit(benchmark::kMillisecond);

void BM_WfaCompile(benchmark::State& state) {
  if (!have_data_dir()) {
    state.SkipWithError("real-data folder absent");
    return;
  }
  const auto grammar =
      glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / "json_grammar.lark");
  for (auto _ : state) {
    auto compiled = mask::CompiledMask::compile(grammar, llama3());
    benchmark::DoNotOptimize(compiled.get());
  }
}
BENCHMARK(BM_WfaCompile)->Unit(benchmark::kMillisecond);

}  // namespace
