// DenseSources: the flat export records must give exactly the words the pool's own dense export
// gives, for every CRoaring encoding (array, bitset, few runs, many runs), at vocabulary edges,
// and for sets outside the table (no records, nothing written by an OR).
#include "lib/token_set/dense_sources.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/token_set/token_set.h"

namespace glrmask {
namespace {

// One set per encoding, placed in the last 2^16 block too so that the export is cut mid-block.
std::vector<RoaringBitmap> sets_of_every_encoding(std::uint32_t universe, std::mt19937& rng) {
  std::vector<RoaringBitmap> sets;
  std::uniform_int_distribution<std::uint32_t> id(0, universe - 1);
  RoaringBitmap sparse;  // array containers
  for (int i = 0; i < 3000; ++i) sparse.add(id(rng));
  sets.push_back(sparse);
  RoaringBitmap half;  // bitset containers
  std::bernoulli_distribution coin(0.5);
  for (std::uint32_t t = 0; t < universe; ++t)
    if (coin(rng)) half.add(t);
  sets.push_back(half);
  RoaringBitmap few_runs;  // run containers the export walks run by run
  for (int i = 0; i < 10; ++i) {
    const std::uint32_t first = id(rng);
    few_runs.addRange(first, std::min<std::uint64_t>(universe, first + 1 + rng() % 5000));
  }
  few_runs.runOptimize();
  sets.push_back(few_runs);
  RoaringBitmap many_runs;  // run containers the export paints into a bitset first
  for (std::uint32_t first = 0; first + 40 < universe; first += 97)
    many_runs.addRange(first, first + 40);
  many_runs.add(universe - 1);
  many_runs.runOptimize();
  sets.push_back(many_runs);
  return sets;
}

TEST_CASE("dense sources export every encoding exactly as the pool does") {
  std::mt19937 rng(11);
  for (const std::uint32_t universe : {32000u, 100000u, 128256u, 262145u}) {
    TokenSetPool pool(universe);
    std::vector<TokenSetId> ids;
    for (RoaringBitmap& set : sets_of_every_encoding(universe, rng))
      ids.push_back(pool.intern(set));
    const TokenSetId outside = pool.singleton(universe / 2);  // interned, not in the table
    const DenseSources sources(pool, ids);

    bool kinds[3] = {false, false, false};
    for (const TokenSetId s : ids) {
      REQUIRE(sources.contains(s));
      for (const DenseSegment& segment : sources.segments(s))
        kinds[static_cast<int>(segment.kind)] = true;
    }
    CHECK((kinds[0] && kinds[1] && kinds[2]));  // the test covers what it claims to
    CHECK_FALSE(sources.contains(outside));
    CHECK(sources.segments(outside).empty());
    CHECK(sources.segments(TokenSetId{}).empty());

    const std::size_t words = pool.dense_word_count();
    for (const TokenSetId s : ids) {
      std::vector<std::uint32_t> expected(words), actual(words, 0xA5A5A5A5u);
      pool.to_dense(s, expected);
      sources.prefetch_records(s);
      sources.prefetch_data(s);
      write_dense_segments(sources.segments(s), actual);
      REQUIRE(actual == expected);
      // OR onto the union of the others.
      std::vector<std::uint32_t> base(words, 0);
      for (const TokenSetId other : ids)
        if (other != s) pool.or_into_dense(other, base);
      expected = base;
      pool.or_into_dense(s, expected);
      actual = base;
      or_dense_segments(sources.segments(s), actual);
      REQUIRE(actual == expected);
    }
  }
}

TEST_CASE("dense sources of an empty family hold nothing") {
  TokenSetPool pool(1000);
  const TokenSetId s = pool.range(3, 700);
  const DenseSources none(pool, {});
  CHECK_FALSE(none.contains(s));
  const std::vector<TokenSetId> only_empty = {TokenSetId{}};
  const DenseSources empty_only(pool, only_empty);
  CHECK(empty_only.segments(TokenSetId{}).empty());
  CHECK_FALSE(empty_only.contains(s));
}

}  // namespace
}  // namespace glrmask
