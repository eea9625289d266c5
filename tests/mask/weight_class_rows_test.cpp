// WeightClassRows (mask/compiled/weight_class_rows.h): a row has exactly the classes its weight
// holds, and two unions of weights are equal iff the unions of their rows are, the property the
// dense-mask cache relies on to find a union built from other weights. Random families over a
// universe that spans two 2^16-id containers, so rows cross container boundaries; artifacts' rows
// are checked in mask_artifact_test.cpp.
#include "mask/compiled/weight_class_rows.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/token_set/token_set.h"
#include "mask/compiled/token_classes.h"

using namespace glrmask;

namespace {

constexpr std::uint32_t kUniverse = 70000;

// Sets that share structure the way transition weights do: unions of a few random blocks of
// ids, so many sets overlap and some unions coincide.
std::vector<TokenSetId> random_weights(TokenSetPool& pool, std::mt19937& rng, std::size_t count) {
  const auto draw = [&](std::uint32_t below) { return static_cast<TokenId>(rng() % below); };
  std::vector<std::pair<TokenId, TokenId>> blocks;
  for (int i = 0; i < 30; ++i) {
    const TokenId first = draw(kUniverse);
    blocks.emplace_back(first, std::min<TokenId>(kUniverse, first + 1 + draw(9000)));
  }
  std::vector<TokenSetId> weights;
  for (std::size_t i = 0; i < count; ++i) {
    TokenSetId set = TokenSetPool::empty();
    for (const auto& [first, last] : blocks)
      if (rng() % 3 == 0) set = pool.unite(set, pool.range(first, last));
    set = pool.unite(set, pool.singleton(draw(kUniverse)));
    weights.push_back(set);
  }
  return weights;
}

std::vector<std::uint64_t> row_union(const mask::WeightClassRows& rows,
                                     const std::vector<TokenSetId>& weights) {
  std::vector<std::uint64_t> united(rows.row_words(), 0);
  for (const TokenSetId weight : weights) {
    const std::uint64_t* row = rows.row(weight);
    REQUIRE(row != nullptr);
    for (std::size_t i = 0; i < united.size(); ++i) united[i] |= row[i];
  }
  return united;
}

}  // namespace

TEST_CASE("weight class rows: a row holds exactly its weight's classes") {
  std::mt19937 rng(7);
  TokenSetPool pool(kUniverse);
  std::vector<TokenSetId> weights = random_weights(pool, rng, 40);
  weights.push_back(TokenSetPool::empty());  // has no row
  const mask::TokenPartition classes = mask::partition_tokens(pool, weights);
  const mask::WeightClassRows rows(pool, weights, classes);
  REQUIRE(rows.num_classes() == classes.num_classes());
  REQUIRE(classes.num_classes() > 64);  // rows of more than one word
  CHECK(rows.row(TokenSetPool::empty()) == nullptr);
  CHECK(rows.row(TokenSetId{999999}) == nullptr);
  for (const TokenSetId weight : weights) {
    if (weight.is_empty()) continue;
    const std::uint64_t* row = rows.row(weight);
    REQUIRE(row != nullptr);
    for (std::uint32_t cls = 0; cls < classes.num_classes(); ++cls) {
      const bool bit = (row[cls / 64] >> (cls % 64) & 1) != 0;
      // Every member of a class is in the weight or none is; the row says which.
      for (const TokenId member : classes.members(cls))
        REQUIRE(pool.get(weight).contains(member) == bit);
    }
  }
}

TEST_CASE("weight class rows: unions of weights are equal iff the unions of their rows are") {
  std::mt19937 rng(11);
  TokenSetPool pool(kUniverse);
  const std::vector<TokenSetId> weights = random_weights(pool, rng, 30);
  const mask::WeightClassRows rows(pool, weights, mask::partition_tokens(pool, weights));
  std::size_t equal_from_different_weights = 0;
  std::size_t different = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<TokenSetId> a, b;
    for (const TokenSetId weight : weights) {
      if (weight.is_empty()) continue;
      if (rng() % 4 == 0) a.push_back(weight);
      if (rng() % 4 == 0) b.push_back(weight);
    }
    if (a.empty() || b.empty()) continue;
    TokenSetId union_a = TokenSetPool::empty(), union_b = TokenSetPool::empty();
    for (const TokenSetId w : a) union_a = pool.unite(union_a, w);
    for (const TokenSetId w : b) union_b = pool.unite(union_b, w);
    const bool same_rows = row_union(rows, a) == row_union(rows, b);
    REQUIRE(same_rows == (union_a == union_b));
    if (union_a == union_b && a != b) ++equal_from_different_weights;
    if (union_a != union_b) ++different;
  }
  CHECK(equal_from_different_weights > 10);  // the case the cache's second lookup is for
  CHECK(different > 1000);
}

TEST_CASE("weight class rows: written and read back, and damaged rows are refused") {
  std::mt19937 rng(3);
  TokenSetPool pool(kUniverse);
  const std::vector<TokenSetId> weights = random_weights(pool, rng, 20);
  const mask::WeightClassRows rows(pool, weights, mask::partition_tokens(pool, weights));
  const auto identity = [](TokenSetId id) { return id.value(); };
  BinaryWriter out;
  rows.write(out, identity);
  const std::string bytes = out.take();
  {
    BinaryReader in(bytes, "rows");
    const mask::WeightClassRows read = mask::WeightClassRows::read(in, pool.distinct_sets());
    REQUIRE(read.num_classes() == rows.num_classes());
    for (const TokenSetId weight : weights) {
      if (weight.is_empty()) continue;
      REQUIRE(read.row(weight) != nullptr);
      REQUIRE(std::equal(read.row(weight), read.row(weight) + rows.row_words(), rows.row(weight)));
    }
  }
  // Layout: tag u32, classes u32, id count u64, ids, word count u64, words.
  const std::size_t ids = rows.num_rows();
  const std::size_t first_word = 4 + 4 + 8 + 4 * ids + 8;
  auto refused = [&](std::string damaged, const std::string& reason) {
    BinaryReader in(damaged, "rows");
    CHECK_THROWS_WITH(mask::WeightClassRows::read(in, pool.distinct_sets()),
                      Catch::Contains(reason));
  };
  std::string empty_row = bytes;
  std::fill(empty_row.begin() + static_cast<std::ptrdiff_t>(first_word),
            empty_row.begin() + static_cast<std::ptrdiff_t>(first_word + 8 * rows.row_words()),
            '\0');
  refused(empty_row, "is malformed");
  std::string past_last_class = bytes;
  past_last_class[first_word + 8 * rows.row_words() - 1] = '\x80';  // bit 63 of the last word
  if (rows.num_classes() % 64 != 0) refused(past_last_class, "is malformed");
  std::string foreign_id = bytes;
  const std::uint32_t beyond = static_cast<std::uint32_t>(pool.distinct_sets());
  std::memcpy(foreign_id.data() + 16 + 4 * (ids - 1), &beyond, 4);
  refused(foreign_id, "does not exist");
}
