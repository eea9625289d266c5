// fill_mask of every registered mask engine (harness/mask_engines.h) on prepared sessions, with the
// dense mask export included, on SynCode JSON, Go and Java under the Llama-3 vocabulary.
//   BM_FillMask/<engine>/<grammar>  one mask per iteration, cycling over 32 sessions spread
//                                   evenly over the first corpus text (experiments/support)
//   BM_ApplyDenseMask               the dense mask applied to a Llama-3 logits vector
//                                   (masked logits set to -inf): the export's cost to a sampler
// Engines listed here but not registered (e.g. `wfa` before it lands) are reported as skipped;
// a new engine is added to the list in kRegistered.
// Items processed = masks, so the rate is masks per second (of wall time).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "experiments/support/corpus.h"
#include "glr/session.h"
#include "harness/mask_engines.h"
#include "lib/core/settings.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"

namespace {

using namespace glrmask;

constexpr std::size_t kPreparedSessions = 32;

struct Prepared {
  std::shared_ptr<const glr::CompiledGrammar> grammar;
  std::unique_ptr<Vocabulary> vocabulary;
  std::vector<glr::Session> sessions;
};

// The grammar and sessions after 0, n/32, 2n/32, ... tokens of the corpus's first text; built
// once per grammar. Throws glrmask::Error when the data or the tokenizer is missing.
const Prepared& prepared(const std::string& grammar_name) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& slot = cache[grammar_name];
  if (slot) return *slot;
  const experiments::Corpus corpus = experiments::load_named_corpus(grammar_name, 1);
  if (corpus.texts.empty())
    throw Error("corpus " + grammar_name + " has no text", ErrorCode::kInvalidArgument);
  auto p = std::make_unique<Prepared>();
  const auto tokenizer = resolve_tokenizer("llama3");
  p->vocabulary = std::make_unique<Vocabulary>(Vocabulary::load(tokenizer));
  p->grammar = glr::CompiledGrammar::load_lark(corpus.grammar_path, corpus.options);
  const std::vector<TokenId> tokens = Encoder::load(tokenizer).encode(corpus.texts[0].text);
  glr::Session session(p->grammar, p->vocabulary.get());
  std::size_t committed = 0;
  for (std::size_t i = 0; i < kPreparedSessions; ++i) {
    const std::size_t target = tokens.size() * i / kPreparedSessions;
    for (; committed < target; ++committed) session.commit(tokens[committed]);
    p->sessions.push_back(session.clone());
  }
  slot = std::move(p);
  return *slot;
}

void BM_FillMask(benchmark::State& state, const std::string& engine_name,
                 const std::string& grammar_name) {
  std::unique_ptr<mask::MaskEngine> engine;
  const Prepared* p = nullptr;
  try {
    p = &prepared(grammar_name);
    engine = make_mask_engine(engine_name, {p->grammar, p->vocabulary.get()}, "benchmark");
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  DenseMask mask(static_cast<std::uint32_t>(p->vocabulary->size()));
  std::size_t next = 0;
  for (auto _ : state) {
    engine->fill_mask(p->sessions[next], mask.words());
    benchmark::DoNotOptimize(mask.data());
    benchmark::ClobberMemory();
    next = (next + 1) % p->sessions.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// The engines to measure, by registry name. Registration runs during static initialization, when
// the registry's own table (another translation unit) may not be built yet, so the names are
// listed here; a name the registry does not know is reported as skipped.
const bool kRegistered = [] {
  for (const char* engine : {"oracle", "spanner", "wfa"})
    for (const char* grammar : {"json", "go", "java"})
      benchmark::RegisterBenchmark((std::string("BM_FillMask/") + engine + "/" + grammar).c_str(),
                                   BM_FillMask, std::string(engine), std::string(grammar))
          ->Unit(benchmark::kMicrosecond)
          // Wall time: the oracle spreads one mask over all cores, so the main thread's CPU time
          // would understate it.
          ->UseRealTime();
  return true;
}();

void BM_ApplyDenseMask(benchmark::State& state) {
  constexpr std::uint32_t kLlama3Vocabulary = 128256;
  DenseMask mask(kLlama3Vocabulary);
  // Every third token allowed: the branch pattern is irregular enough not to be free.
  for (TokenId token = 0; token < kLlama3Vocabulary; token += 3) mask.set(token);
  std::vector<float> logits(kLlama3Vocabulary, 1.0f);
  constexpr float kMasked = -std::numeric_limits<float>::infinity();
  for (auto _ : state) {
    const std::span<const std::uint32_t> words = mask.words();
    for (std::size_t word = 0; word < words.size(); ++word) {
      const std::uint32_t bits = words[word];
      float* chunk = logits.data() + word * 32;
      const std::size_t count = std::min<std::size_t>(32, kLlama3Vocabulary - word * 32);
      for (std::size_t bit = 0; bit < count; ++bit)
        if (((bits >> bit) & 1u) == 0) chunk[bit] = kMasked;
    }
    benchmark::DoNotOptimize(logits.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ApplyDenseMask)->Unit(benchmark::kMicrosecond);

}  // namespace
