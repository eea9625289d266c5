// Loading a compiled artifact (`glrmask mask --artifact`): the SynCode JSON, Java and SQL grammars
// with the Llama-3 vocabulary.
//   BM_ArtifactLoad/<grammar>  read_mask_artifact: open, checks, checksum, token sets, automata.
//                              Counters: the file's size and how much the resident set grows
//                              while one loaded artifact is alive (first iteration; mapped file
//                              pages count once touched).
//   BM_Checksum/<MiB>          checksum64 over a buffer in memory: the part of a load that is
//                              proportional to the file.
// Each grammar is compiled once (seconds for Java and SQL) and its artifact kept in the temporary
// folder under the format version, so reruns skip the compile; a stale file is rebuilt.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "glr/compiled_grammar.h"
#include "lib/binary_io.h"
#include "lib/error.h"
#include "lib/settings.h"
#include "lib/vocabulary.h"
#include "wfa/mask_artifact.h"

namespace {

using namespace glrmask;

const Vocabulary& llama3() {
  static const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  return vocabulary;
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t total = 0;
  std::size_t resident = 0;
  statm >> total >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
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
            std::to_string(wfa::kMaskArtifactVersion) + ".glrmask");
  try {
    if (std::filesystem::exists(a.path)) {
      wfa::read_mask_artifact(a.path, a.grammar, llama3());
      return a;
    }
  } catch (const Error&) {
    // Another grammar revision or construction: compile it again below.
  }
  wfa::write_mask_artifact(*wfa::CompiledMask::compile(a.grammar, llama3()), llama3(), a.path);
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
    const std::size_t before = resident_bytes();
    auto loaded = wfa::read_mask_artifact(a->path, a->grammar, llama3());
    benchmark::DoNotOptimize(loaded.get());
    if (first) {
      state.counters["rss_growth_MiB"] =
          static_cast<double>(resident_bytes() - before) / (1024.0 * 1024.0);
      first = false;
    }
  }
  state.counters["file_MiB"] =
      static_cast<double>(std::filesystem::file_size(a->path)) / (1024.0 * 1024.0);
}
BENCHMARK_CAPTURE(BM_ArtifactLoad, json, std::string("json"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactLoad, java, std::string("java"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ArtifactLoad, sql, std::string("sql"))->Unit(benchmark::kMillisecond);

void BM_Checksum(benchmark::State& state) {
  std::string bytes(static_cast<std::size_t>(state.range(0)) << 20, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + (i >> 9));
  for (auto _ : state) benchmark::DoNotOptimize(checksum64(bytes));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes.size()));
}
BENCHMARK(BM_Checksum)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
