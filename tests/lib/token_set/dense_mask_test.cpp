// DenseMask: the logits layout (bit t % 32 of word t / 32), bounds, and the word operations.
#include "lib/token_set/dense_mask.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "lib/core/error.h"

namespace glrmask {
namespace {

TEST_CASE("word count rounds the universe up to 32-bit words") {
  CHECK(dense_word_count(0) == 0);
  CHECK(dense_word_count(1) == 1);
  CHECK(dense_word_count(32) == 1);
  CHECK(dense_word_count(33) == 2);
  CHECK(dense_word_count(128256) == 4008);
  CHECK(dense_word_count(262145) == 8193);
  CHECK(dense_word_count(UINT32_MAX) == 134217728);
}

TEST_CASE("set, test and reset follow the logits layout") {
  DenseMask mask(262145);
  CHECK(mask.word_count() == 8193);
  CHECK(mask.count() == 0);
  CHECK(reinterpret_cast<std::uintptr_t>(mask.data()) % DenseMask::kAlignment == 0);

  for (TokenId t : {0u, 31u, 32u, 65535u, 65536u, 262144u}) mask.set(t);
  CHECK(mask.words()[0] == 0x80000001u);  // tokens 0 and 31
  CHECK(mask.words()[1] == 0x00000001u);  // token 32
  CHECK(mask.words()[2047] == 0x80000000u);
  CHECK(mask.words()[2048] == 0x00000001u);
  CHECK(mask.words()[8192] == 0x00000001u);  // 262144 = 32 * 8192
  CHECK(mask.count() == 6);
  CHECK(mask.to_vector() == std::vector<TokenId>{0, 31, 32, 65535, 65536, 262144});
  CHECK(mask.test(31));
  CHECK_FALSE(mask.test(30));

  mask.reset(31);
  CHECK(mask.words()[0] == 0x00000001u);
  CHECK_FALSE(mask.test(31));
  mask.clear();
  CHECK(mask.count() == 0);
}

TEST_CASE("out-of-range tokens are errors naming the token and the universe") {
  DenseMask mask(100);
  using Catch::Contains;
  // 100..127 exist as bits of the last word but not as tokens.
  REQUIRE_THROWS_WITH(mask.set(100), Contains("token id 100") && Contains("100 tokens"));
  REQUIRE_THROWS_WITH(mask.test(127), Contains("token id 127"));
  REQUIRE_THROWS_AS(mask.reset(5000), Error);
  CHECK(mask.count() == 0);
  DenseMask empty;
  REQUIRE_THROWS_AS(empty.test(0), Error);
}

TEST_CASE("or and and agree with a std::set model") {
  std::mt19937 rng(1);
  const std::uint32_t universe = 32001;
  std::uniform_int_distribution<TokenId> token(0, universe - 1);
  DenseMask a(universe), b(universe);
  std::set<TokenId> model_a, model_b;
  for (int i = 0; i < 3000; ++i) {
    const TokenId x = token(rng), y = token(rng);
    a.set(x);
    model_a.insert(x);
    b.set(y);
    model_b.insert(y);
  }
  DenseMask both = a;
  both &= b;
  DenseMask either = a;
  either |= b;
  for (TokenId t = 0; t < universe; ++t) {
    const bool in_a = model_a.count(t) != 0, in_b = model_b.count(t) != 0;
    if (both.test(t) != (in_a && in_b) || either.test(t) != (in_a || in_b)) FAIL("token " << t);
  }
  CHECK(either.count() + both.count() == model_a.size() + model_b.size());
  CHECK(either != a);
  DenseMask copy = either;
  CHECK(copy == either);

  DenseMask other_universe(universe + 1);
  REQUIRE_THROWS_WITH(either |= other_universe, Catch::Contains("32001 vs 32002"));
  REQUIRE_THROWS_AS(either &= other_universe, Error);
  CHECK_FALSE(DenseMask(32) == DenseMask(31));  // same words, different universes
}

TEST_CASE("or_dense_words ORs a prefix and leaves the rest") {
  std::vector<std::uint32_t> into = {0x1, 0x2, 0x4, 0x8};
  const std::vector<std::uint32_t> from = {0x10, 0x20, 0x40};
  or_dense_words(into, from);
  CHECK(into == std::vector<std::uint32_t>{0x11, 0x22, 0x44, 0x8});
}

}  // namespace
}  // namespace glrmask
