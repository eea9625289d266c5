// TokenSetPool hot paths: ∪ and ∩ on ids (memo miss and memo hit), the content hash behind
// interning, and dense export — with and without the dense cache — on vocabulary-sized sets.
//
// Arguments: {universe size, density in permille}. Random sets at 1% density are stored by
// CRoaring as sorted arrays, at 50% as bitsets, at 99% as runs, so the three densities also
// cover the three encodings.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "lib/token_set/token_set.h"

namespace glrmask {
namespace {

constexpr int kSets = 32;

struct Fixture {
  TokenSetPool pool;
  std::vector<TokenSetId> sets;
  std::vector<std::pair<TokenSetId, TokenSetId>> pairs;  // every unordered pair of distinct sets

  Fixture(std::uint32_t universe, int permille) : pool(universe) {
    std::mt19937 rng(universe + static_cast<std::uint32_t>(permille));
    std::bernoulli_distribution in(permille / 1000.0);
    for (int i = 0; i < kSets; ++i) {
      RoaringBitmap set;
      for (TokenId t = 0; t < universe; ++t) {
        if (in(rng)) set.add(t);
      }
      sets.push_back(pool.intern(std::move(set)));
    }
    for (int i = 0; i < kSets; ++i) {
      for (int j = i + 1; j < kSets; ++j) pairs.emplace_back(sets[i], sets[j]);
    }
  }
};

Fixture make_fixture(const benchmark::State& state) {
  return Fixture(static_cast<std::uint32_t>(state.range(0)), static_cast<int>(state.range(1)));
}

enum class Op { kUnite, kIntersect };

TokenSetId apply(TokenSetPool& pool, Op op, std::pair<TokenSetId, TokenSetId> p) {
  return op == Op::kUnite ? pool.unite(p.first, p.second) : pool.intersect(p.first, p.second);
}

// Memo miss: the CRoaring operation, the content hash of the result and the intern lookup. The
// memo is cleared (untimed) each time every pair has been asked once; from the second round on,
// the result sets are already interned, as in a long compilation.
template <Op kOp>
void BM_MemoMiss(benchmark::State& state) {
  Fixture f = make_fixture(state);
  std::size_t next = 0;
  for (auto _ : state) {
    if (next == f.pairs.size()) {
      state.PauseTiming();
      f.pool.clear_memo();
      next = 0;
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(apply(f.pool, kOp, f.pairs[next++]));
  }
  state.SetItemsProcessed(state.iterations());
}

template <Op kOp>
void BM_MemoHit(benchmark::State& state) {
  Fixture f = make_fixture(state);
  for (const auto& p : f.pairs) apply(f.pool, kOp, p);
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(apply(f.pool, kOp, f.pairs[next]));
    next = next + 1 == f.pairs.size() ? 0 : next + 1;
  }
  state.SetItemsProcessed(state.iterations());
}

// The bare CRoaring union, for comparison with the memo miss above.
void BM_RoaringOr(benchmark::State& state) {
  Fixture f = make_fixture(state);
  std::size_t next = 0;
  for (auto _ : state) {
    const auto& [a, b] = f.pairs[next];
    RoaringBitmap result = f.pool.get(a) | f.pool.get(b);
    benchmark::DoNotOptimize(result);
    next = next + 1 == f.pairs.size() ? 0 : next + 1;
  }
}

void BM_ContentHash(benchmark::State& state) {
  Fixture f = make_fixture(state);
  int next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(content_hash(f.pool.get(f.sets[next])));
    next = (next + 1) % kSets;
  }
}

void BM_ToDense(benchmark::State& state) {
  Fixture f = make_fixture(state);
  DenseMask mask(f.pool.universe_size());
  int next = 0;
  for (auto _ : state) {
    f.pool.to_dense(f.sets[next], mask.words());
    benchmark::DoNotOptimize(mask.data());
    benchmark::ClobberMemory();
    next = (next + 1) % kSets;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(mask.word_count() * 4));
}

// OR into a mask that already holds bits: converts from CRoaring each time.
void BM_OrIntoDense(benchmark::State& state) {
  Fixture f = make_fixture(state);
  DenseMask mask(f.pool.universe_size());
  int next = 0;
  for (auto _ : state) {
    f.pool.or_into_dense(f.sets[next], mask.words());
    benchmark::DoNotOptimize(mask.data());
    benchmark::ClobberMemory();
    next = (next + 1) % kSets;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(mask.word_count() * 4));
}

// The runtime's path: the same OR from the dense cache (a word-wise OR of two arrays).
void BM_OrIntoDenseCached(benchmark::State& state) {
  Fixture f = make_fixture(state);
  for (TokenSetId s : f.sets) f.pool.dense_words(s);
  DenseMask mask(f.pool.universe_size());
  int next = 0;
  for (auto _ : state) {
    f.pool.or_into_dense(f.sets[next], mask.words());
    benchmark::DoNotOptimize(mask.data());
    benchmark::ClobberMemory();
    next = (next + 1) % kSets;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(mask.word_count() * 4));
}

void vocabularies_and_densities(benchmark::internal::Benchmark* b) {
  b->ArgNames({"universe", "permille"});
  for (std::int64_t universe : {128256, 262145}) {
    for (std::int64_t permille : {10, 500, 990}) b->Args({universe, permille});
  }
}

BENCHMARK(BM_MemoMiss<Op::kUnite>)->Apply(vocabularies_and_densities);
BENCHMARK(BM_MemoMiss<Op::kIntersect>)->Apply(vocabularies_and_densities);
BENCHMARK(BM_MemoHit<Op::kUnite>)->Apply(vocabularies_and_densities);
BENCHMARK(BM_MemoHit<Op::kIntersect>)->Apply(vocabularies_and_densities);
BENCHMARK(BM_RoaringOr)->Apply(vocabularies_and_densities);
BENCHMARK(BM_ContentHash)->Apply(vocabularies_and_densities);
BENCHMARK(BM_ToDense)->Apply(vocabularies_and_densities);
BENCHMARK(BM_OrIntoDense)->Apply(vocabularies_and_densities);
BENCHMARK(BM_OrIntoDenseCached)->Apply(vocabularies_and_densities);

}  // namespace
}  // namespace glrmask
