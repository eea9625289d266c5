// Loading a compiled artifact (`glrmask mask --artifact`): the SynCode JSON, Java and SQL grammars
// with the Llama-3 vocabulary.
//   BM_ArtifactLoad/<grammar>  read_mask_artifact: open, checks, checksum (all but the token
//                              set images), token set layouts, automata.
//                              Counters: the file's size and how much the resident set grows
//                              while one loaded artifact is alive (first iteration): in all, and
//                              its anonymous part (the rest is the mapped file's pages, shared
//                              with other processes and reclaimable).
//   BM_ArtifactCheckAll/<grammar>  read_mask_artifact, then every token set read once: the load
//                              plus the first-use checks (checksum, well-formedness) of every
//                              set, which a load defers to each set's first use.
//   BM_Checksum/<MiB>          checksum64 over a buffer in memory: what a set's first-use check
//                              costs per byte.
//   GrammarCompile/<grammar>, GrammarImageRead/<grammar>  the part of a load that gives the
//                              parser its tables: CompiledGrammar::compile against reading the
//                              same tables back from the artifact's grammar image
//                              (read_compiled_grammar), both from a loaded GrammarModel, which
//                              both copy alike. Java, Python (--postlex python) and Go (the Lark
//                              policy, EOS skippable). For instruction counts run one iteration
//                              under callgrind, e.g. valgrind --tool=callgrind
//                              --toggle-collect='glrmask::glr::read_compiled_grammar*'
//                              artifact_bench --benchmark_filter=GrammarImageRead/java
//                              --benchmark_min_time=0
// Each grammar is compiled once (seconds for Java and SQL) and its artifact kept in the temporary
// folder under the format version, so reruns skip the compile; a stale file is rebuilt.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/compiled_grammar_image.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/artifact/mask_artifact.h"

namespace {

using namespace glrmask;

constexpr double kMiB = 1024.0 * 1024.0;

const Vocabulary& llama3() {
  static const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  return vocabulary;
}

// The resident set and its anonymous part (heap, not file pages), from /proc/self/status.
struct Resident {
  std::size_t total = 0;
  std::size_t anonymous = 0;
};
Resident resident() {
  std::ifstream status("/proc/self/status");
  Resident r;
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) r.total = std::stoull(line.substr(6)) * 1024;
    if (line.rfind("RssAnon:", 0) == 0) r.anonymous = std::stoull(line.substr(8)) * 1024;
  }
  return r;
}

struct Artifact {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  std::filesystem::path path;
};

// The artifact of a SynCode grammar, compiled on first use; nullopt without the real data.
std::optional<Artifact> artifact(const std::string& language) {
  if (!have_data_dir()) return std::nullopt;
  Artifact a;
  a.grammar = glr::CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" /
                                              (language + "_grammar.lark"));
  a.path = std::filesystem::temp_directory_path() /
           ("glrmask_artifact_bench_" + language + "_v" +
            std::to_string(mask::kMaskArtifactVersion) + ".glrmask");
  try {
    if (std::filesystem::exists(a.path)) {
      mask::read_mask_artifact(a.path, a.grammar, llama3());
      return a;
    }
  } catch (const Error&) {
    // Another grammar revision or construction: compile it again below.
  }
  mask::write_mask_artifact(*mask::CompiledMask::compile(a.grammar, llama3()), llama3(), a.path);
  return a;
}

void BM_ArtifactLoad(benchmark::State& state, const std::string& language) {
  const std::optional<Artifact> a = artifact(language);
  if (!a) {
    state.SkipWithError("real-data folder absent");
    return;
  }
  bool first = true;
  for (auto _ : state) {
    if (first) malloc_trim(0);  // so the staleness check's freed memory is not reused unseen
    const Resident before = resident();
    auto loaded = mask::read_mask_artifact(a->path, a->grammar, llama3());
    benchmark::DoNotOptimize(loaded.get());
    if (first) {
      const Resident after = resident();
      state.counters["rss_growth_MiB"] = static_cast<double>(after.total - before.total) / kMiB;
      state.counters["anon_growth_MiB"] =
          static_cast<double>(after.anonymous - before.anonymous) / kMiB;
      first = false;
    }
  }
  state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(a->path)) / kMiB;
}
BENCHMARK_CAPTURE(BM_ArtifactLoad, json, std::string("json"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactLoad, java, std::string("java"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactLoad, sql, std::string("sql"))->Unit(benchmark::kMillisecond);

void BM_ArtifactCheckAll(benchmark::State& state, const std::string& language) {
  const std::optional<Artifact> a = artifact(language);
  if (!a) {
    state.SkipWithError("real-data folder absent");
    return;
  }
  for (auto _ : state) {
    auto loaded = mask::read_mask_artifact(a->path, a->grammar, llama3());
    const TokenSetPool& pool = loaded->pool();
    for (std::uint32_t id = 0; id < pool.distinct_sets(); ++id) pool.verify(TokenSetId{id});
    benchmark::DoNotOptimize(loaded.get());
  }
}
BENCHMARK_CAPTURE(BM_ArtifactCheckAll, java, std::string("java"))->Unit(benchmark::kMillisecond);

void BM_Checksum(benchmark::State& state) {
  std::string bytes(static_cast<std::size_t>(state.range(0)) << 20, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + (i >> 9));
  for (auto _ : state) benchmark::DoNotOptimize(checksum64(bytes));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_Checksum)->Arg(100)->Unit(benchmark::kMillisecond);

struct GrammarCase {
  GrammarModel model;
  glr::ParseOptions options;
};

GrammarCase load_case(const std::string& language) {
  glr::ParseOptions options;
  if (language == "python") options.postlex = glr::PostLexer::kPythonIndenter;
  if (language == "go") {
    options.policy = glr::ConflictPolicy::kLark;
    options.skippable = {"EOS"};
  }
  LarkOptions lark;
  lark.declared_terminals = options.postlex != glr::PostLexer::kNone;
  return {load_lark_file(data_dir() / "grammars" / "syncode" / (language + "_grammar.lark"), lark),
          options};
}

void BM_CompileGrammar(benchmark::State& state, const std::string& language) {
  const GrammarCase c = load_case(language);
  for (auto _ : state) {
    GrammarModel model = c.model;
    benchmark::DoNotOptimize(glr::CompiledGrammar::compile(std::move(model), c.options));
  }
}

void BM_ReadGrammarImage(benchmark::State& state, const std::string& language) {
  const GrammarCase c = load_case(language);
  BinaryWriter out;
  glr::write_compiled_grammar(*glr::CompiledGrammar::compile(c.model, c.options), out);
  const std::string image = out.take();
  for (auto _ : state) {
    BinaryReader in(image, "image");
    GrammarModel model = c.model;
    benchmark::DoNotOptimize(glr::read_compiled_grammar(in, std::move(model), c.options));
  }
  state.counters["image_bytes"] = static_cast<double>(image.size());
}

BENCHMARK_CAPTURE(BM_CompileGrammar, java, std::string("java"))
    ->Name("GrammarCompile/java")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, java, std::string("java"))
    ->Name("GrammarImageRead/java")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammar, python, std::string("python"))
    ->Name("GrammarCompile/python")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, python, std::string("python"))
    ->Name("GrammarImageRead/python")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammar, go, std::string("go"))
    ->Name("GrammarCompile/go")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, go, std::string("go"))
    ->Name("GrammarImageRead/go")
    ->Unit(benchmark::kMillisecond);

}  // namespace
