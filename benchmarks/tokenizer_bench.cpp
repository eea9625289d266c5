// Loading the real tokenizers, and encode throughput over the real corpus (the program files and
// the MaskBench schema files of data_dir()). Tokenizers or data that are absent are skipped.
//
//   BM_VocabularyLoad/<tokenizer>  Vocabulary::load (tokenizer.json + tokenizer_config.json)
//   BM_EncoderLoad/<tokenizer>     Encoder::load (adds the merge table)
//   BM_EncodeCold/<tokenizer>      a fresh encoder per pass: every word misses the word cache
//   BM_EncodeWarm/<tokenizer>      the same encoder for every pass
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTokenizers[] = {"llama2", "llama3", "qwen3", "gemma3", "gptoss"};

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    for (const char* folder : {"programs", "jsonschema/maskbench-dev"}) {
      std::error_code ec;
      if (!fs::is_directory(data_dir() / folder, ec)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(data_dir() / folder)) {
        if (!entry.is_regular_file()) continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        out.push_back(text.str());
      }
    }
    return out;
  }();
  return texts;
}

std::size_t corpus_bytes() {
  std::size_t bytes = 0;
  for (const auto& text : corpus()) bytes += text.size();
  return bytes;
}

bool available(benchmark::State& state, const char* tokenizer, bool needs_corpus = false) {
  try {
    resolve_tokenizer(tokenizer);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return false;
  }
  if (needs_corpus && corpus().empty()) {
    state.SkipWithError("no real data folder (set GLRMASK_DATA)");
    return false;
  }
  return true;
}

void BM_VocabularyLoad(benchmark::State& state, const char* tokenizer) {
  if (!available(state, tokenizer)) return;
  const fs::path path = resolve_tokenizer(tokenizer);
  for (auto _ : state) benchmark::DoNotOptimize(Vocabulary::load(path).size());
}

void BM_EncoderLoad(benchmark::State& state, const char* tokenizer) {
  if (!available(state, tokenizer)) return;
  const fs::path path = resolve_tokenizer(tokenizer);
  for (auto _ : state) {
    Encoder encoder = Encoder::load(path);
    benchmark::DoNotOptimize(&encoder);
  }
}

void encode_corpus(const Encoder& encoder, std::vector<TokenId>& ids) {
  for (const auto& text : corpus()) {
    ids.clear();
    encoder.encode_append(text, ids);
    benchmark::DoNotOptimize(ids.data());
  }
}

void BM_EncodeCold(benchmark::State& state, const char* tokenizer) {
  if (!available(state, tokenizer, true)) return;
  const TokenizerSpec spec = TokenizerSpec::load(resolve_tokenizer(tokenizer));
  std::vector<TokenId> ids;
  for (auto _ : state) {
    state.PauseTiming();
    auto encoder = std::make_unique<Encoder>(spec);
    state.ResumeTiming();
    encode_corpus(*encoder, ids);
    state.PauseTiming();
    encoder.reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * corpus_bytes()));
}

void BM_EncodeWarm(benchmark::State& state, const char* tokenizer) {
  if (!available(state, tokenizer, true)) return;
  const Encoder encoder = Encoder::load(resolve_tokenizer(tokenizer));
  std::vector<TokenId> ids;
  encode_corpus(encoder, ids);
  for (auto _ : state) encode_corpus(encoder, ids);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * corpus_bytes()));
}

const bool registered = [] {
  for (const char* name : kTokenizers) {
    benchmark::RegisterBenchmark((std::string("BM_VocabularyLoad/") + name).c_str(),
                                 BM_VocabularyLoad, name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_EncoderLoad/") + name).c_str(), BM_EncoderLoad,
                                 name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_EncodeCold/") + name).c_str(), BM_EncodeCold,
                                 name)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_EncodeWarm/") + name).c_str(), BM_EncodeWarm,
                                 name)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace glrmask
