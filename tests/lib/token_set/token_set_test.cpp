// TokenSetPool against a naive model (std::vector<bool>, one flag per token): the algebra and its
// laws on randomized sets, interning, the memo, dense export at vocabulary edges, and the errors.
#include "lib/token_set/token_set.h"

#include <roaring/roaring.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "lib/core/error.h"

namespace glrmask {
namespace {

using Model = std::vector<bool>;  // model[t] == token t is in the set

// Vocabulary sizes of real tokenizers (Llama-2, Llama-3, Gemma-3): none is a multiple of 2^16,
// and 262145 is not even a multiple of 32.
constexpr std::uint32_t kUniverses[] = {32000, 128256, 262145};

enum class Shape { kSparse, kHalf, kDense, kRuns, kMixed };
constexpr Shape kShapes[] = {Shape::kSparse, Shape::kHalf, Shape::kDense, Shape::kRuns,
                             Shape::kMixed};

void fill_random(Model& model, std::uint32_t begin, std::uint32_t end, double density,
                 std::mt19937& rng) {
  std::bernoulli_distribution in(density);
  for (std::uint32_t t = begin; t < end; ++t) model[t] = in(rng);
}

void fill_runs(Model& model, std::uint32_t begin, std::uint32_t end, std::mt19937& rng) {
  std::uniform_int_distribution<std::uint32_t> start(begin, end - 1);
  std::uniform_int_distribution<std::uint32_t> length(1, 3000);
  for (int run = 0; run < 12; ++run) {
    const std::uint32_t first = start(rng);
    const std::uint32_t last = std::min(end, first + length(rng));
    for (std::uint32_t t = first; t < last; ++t) model[t] = true;
  }
}

// Shapes chosen so that CRoaring uses each of its encodings: array (sparse), bitset (half),
// run (dense, runs), and all three side by side in one set (mixed, per 2^16 block).
Model random_model(std::uint32_t universe, Shape shape, std::mt19937& rng) {
  Model model(universe, false);
  switch (shape) {
    case Shape::kSparse:
      fill_random(model, 0, universe, 0.01, rng);
      break;
    case Shape::kHalf:
      fill_random(model, 0, universe, 0.5, rng);
      break;
    case Shape::kDense:
      fill_random(model, 0, universe, 0.99, rng);
      break;
    case Shape::kRuns:
      fill_runs(model, 0, universe, rng);
      break;
    case Shape::kMixed:
      for (std::uint32_t block = 0; block < universe; block += 65536) {
        const auto end =
            static_cast<std::uint32_t>(std::min<std::uint64_t>(universe, block + 65536ULL));
        // A single-block universe always gets a nonempty block.
        switch ((block / 65536 + rng()) % (universe > 65536 ? 4 : 3)) {
          case 0:
            fill_random(model, block, end, 0.002, rng);
            break;
          case 1:
            fill_random(model, block, end, 0.3, rng);
            break;
          case 2:
            fill_runs(model, block, end, rng);
            break;
          default:
            break;  // an absent container
        }
      }
      model[universe - 1] = true;  // never empty, whatever the draw
      break;
  }
  return model;
}

std::vector<TokenId> ids_of(const Model& model) {
  std::vector<TokenId> ids;
  for (std::uint32_t t = 0; t < model.size(); ++t) {
    if (model[t]) ids.push_back(t);
  }
  return ids;
}

Model model_of(const TokenSetPool& pool, TokenSetId s) {
  Model model(pool.universe_size(), false);
  for (TokenId t : pool.to_vector(s)) model[t] = true;
  return model;
}

Model model_op(const Model& a, const Model& b, char op) {
  Model out(a.size());
  for (std::size_t t = 0; t < a.size(); ++t) {
    out[t] = op == '|' ? (a[t] || b[t]) : op == '&' ? (a[t] && b[t]) : (a[t] && !b[t]);
  }
  return out;
}

std::vector<TokenId> sorted_union(std::vector<TokenId> a, const std::vector<TokenId>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

bool dense_bit(const std::vector<std::uint32_t>& words, std::size_t token) {
  return (words[token / 32] >> (token % 32)) & 1u;
}

// Kinds of containers a bitmap uses, to check that a test exercises the encodings it claims to.
roaring_statistics_t statistics(const RoaringBitmap& set) {
  roaring_statistics_t stats;
  roaring_bitmap_statistics(&set.roaring, &stats);
  return stats;
}

TEST_CASE("identities are answered without the memo") {
  TokenSetPool pool(1000);
  const TokenSetId e = pool.empty();
  const TokenSetId f = pool.full();
  const TokenSetId a = pool.intern(std::vector<TokenId>{1, 5, 999});

  CHECK(pool.cardinality(e) == 0);
  CHECK(pool.cardinality(f) == 1000);
  CHECK(pool.unite(a, a) == a);
  CHECK(pool.unite(a, e) == a);
  CHECK(pool.unite(e, a) == a);
  CHECK(pool.unite(a, f) == f);
  CHECK(pool.unite(f, a) == f);
  CHECK(pool.intersect(a, a) == a);
  CHECK(pool.intersect(a, f) == a);
  CHECK(pool.intersect(f, a) == a);
  CHECK(pool.intersect(a, e) == e);
  CHECK(pool.intersect(e, a) == e);
  CHECK(pool.subtract(a, a) == e);
  CHECK(pool.subtract(a, e) == a);
  CHECK(pool.subtract(a, f) == e);
  CHECK(pool.subtract(e, a) == e);
  CHECK(pool.memo_entries() == 0);

  // Not an identity: goes through the memo, and agrees with the model.
  const TokenSetId rest = pool.complement(a);
  CHECK(pool.memo_entries() == 1);
  CHECK(pool.cardinality(rest) == 997);
  CHECK_FALSE(pool.contains(rest, 5));
  CHECK(pool.contains(rest, 6));
  CHECK(pool.unite(rest, a) == f);
  CHECK(pool.intersect(rest, a) == e);
}

TEST_CASE("algebra agrees with a naive model and obeys the set laws") {
  for (std::uint32_t universe : kUniverses) {
    DYNAMIC_SECTION("universe " << universe) {
      std::mt19937 rng(universe);
      TokenSetPool pool(universe);
      std::vector<Model> models;
      std::vector<TokenSetId> ids;
      for (int round = 0; round < 2; ++round) {
        for (Shape shape : kShapes) {
          models.push_back(random_model(universe, shape, rng));
          ids.push_back(pool.intern(ids_of(models.back())));
        }
      }
      models.push_back(Model(universe, false));
      ids.push_back(pool.empty());
      models.push_back(Model(universe, true));
      ids.push_back(pool.full());

      for (std::size_t i = 0; i < ids.size(); ++i) {
        REQUIRE(model_of(pool, ids[i]) == models[i]);
        for (std::size_t j = 0; j < ids.size(); ++j) {
          const TokenSetId a = ids[i];
          const TokenSetId b = ids[j];
          INFO("sets " << i << " and " << j);
          const TokenSetId u = pool.unite(a, b);
          const TokenSetId n = pool.intersect(a, b);
          const TokenSetId d = pool.subtract(a, b);
          REQUIRE(model_of(pool, u) == model_op(models[i], models[j], '|'));
          REQUIRE(model_of(pool, n) == model_op(models[i], models[j], '&'));
          REQUIRE(model_of(pool, d) == model_op(models[i], models[j], '-'));
          // Interning makes content equality id equality, so the laws are checked on ids.
          CHECK(pool.unite(b, a) == u);
          CHECK(pool.intersect(b, a) == n);
          CHECK(pool.unite(a, pool.intersect(a, b)) == a);  // absorption
          CHECK(pool.intersect(a, pool.unite(a, b)) == a);
          CHECK(pool.unite(d, n) == a);
          CHECK(pool.intersect(d, b) == pool.empty());
          CHECK(pool.is_subset(n, a));
          CHECK(pool.is_subset(a, u));
          CHECK(pool.is_subset(a, b) == (d == pool.empty()));
          CHECK(pool.intersects(a, b) == (n != pool.empty()));
          CHECK(pool.cardinality(u) + pool.cardinality(n) ==
                pool.cardinality(a) + pool.cardinality(b));
          // De Morgan through the complement.
          CHECK(pool.complement(u) == pool.intersect(pool.complement(a), pool.complement(b)));
        }
      }

      std::uniform_int_distribution<std::size_t> pick(0, ids.size() - 1);
      for (int trial = 0; trial < 200; ++trial) {
        const TokenSetId a = ids[pick(rng)];
        const TokenSetId b = ids[pick(rng)];
        const TokenSetId c = ids[pick(rng)];
        CHECK(pool.unite(pool.unite(a, b), c) == pool.unite(a, pool.unite(b, c)));
        CHECK(pool.intersect(pool.intersect(a, b), c) == pool.intersect(a, pool.intersect(b, c)));
        CHECK(pool.intersect(a, pool.unite(b, c)) ==
              pool.unite(pool.intersect(a, b), pool.intersect(a, c)));
        CHECK(pool.unite(a, pool.intersect(b, c)) ==
              pool.intersect(pool.unite(a, b), pool.unite(a, c)));
        CHECK(pool.subtract(a, pool.unite(b, c)) ==
              pool.intersect(pool.subtract(a, b), pool.subtract(a, c)));
      }
    }
  }
}

TEST_CASE("queries agree with the model") {
  std::mt19937 rng(7);
  TokenSetPool pool(128256);
  for (Shape shape : kShapes) {
    const Model model = random_model(pool.universe_size(), shape, rng);
    const TokenSetId s = pool.intern(ids_of(model));
    std::uint64_t count = 0;
    for (std::uint32_t t = 0; t < model.size(); ++t) {
      if (pool.contains(s, t) != model[t]) FAIL("contains(" << t << ") disagrees");
      count += model[t];
    }
    CHECK(pool.cardinality(s) == count);
    CHECK(pool.to_vector(s) == ids_of(model));
  }
}

TEST_CASE("equal contents get one id however they were built") {
  std::mt19937 rng(11);
  for (std::uint32_t universe : kUniverses) {
    TokenSetPool pool(universe);
    for (Shape shape : kShapes) {
      const Model model = random_model(universe, shape, rng);
      std::vector<TokenId> ids = ids_of(model);
      REQUIRE(ids.size() >= 3);
      const TokenSetId first = pool.intern(ids);
      const std::size_t sets_before = pool.distinct_sets();

      // Shuffled, with duplicates.
      std::vector<TokenId> shuffled = ids;
      shuffled.insert(shuffled.end(), ids.begin(), ids.begin() + ids.size() / 3);
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      CHECK(pool.intern(shuffled) == first);

      // One id at a time (no run containers), then once more after runOptimize.
      RoaringBitmap one_by_one;
      for (TokenId t : ids) one_by_one.add(t);
      CHECK(pool.intern(one_by_one) == first);
      one_by_one.runOptimize();
      CHECK(pool.intern(one_by_one) == first);

      // From maximal ranges (CRoaring makes run containers for them).
      RoaringBitmap from_ranges;
      for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i + 1;
        while (j < ids.size() && ids[j] == ids[j - 1] + 1) ++j;
        from_ranges.addRange(ids[i], std::uint64_t{ids[j - 1]} + 1);
        i = j;
      }
      CHECK(pool.intern(from_ranges) == first);

      // As the union of two overlapping halves, through the algebra.
      const std::vector<TokenId> low(ids.begin(), ids.begin() + ids.size() / 2 + 1);
      const std::vector<TokenId> high(ids.begin() + ids.size() / 2, ids.end());
      CHECK(pool.unite(pool.intern(low), pool.intern(high)) == first);

      // A copy-on-write copy shares its containers (CRoaring's "shared" container type).
      RoaringBitmap cow(ids.size(), ids.data());
      cow.setCopyOnWrite(true);
      const RoaringBitmap shared_copy(cow);
      CHECK(pool.intern(shared_copy) == first);

      CHECK(pool.distinct_sets() == sets_before + 2);  // the two halves
      CHECK(pool.get(first) == RoaringBitmap(ids.size(), ids.data()));
    }
  }
}

TEST_CASE("a stored set shares no container with the bitmap it was interned from") {
  RoaringBitmap original;
  for (TokenId t = 0; t < 200000; t += 3) original.add(t);
  original.setCopyOnWrite(true);
  TokenSetPool pool(200000);
  const TokenSetId id = pool.intern(RoaringBitmap(original));  // a copy sharing all containers
  const RoaringBitmap& stored = pool.get(id);
  CHECK_FALSE(stored.getCopyOnWrite());
  const roaring_array_t& containers = stored.roaring.high_low_container;
  REQUIRE(containers.size == 4);
  for (std::int32_t i = 0; i < containers.size; ++i) {
    CHECK(containers.typecodes[i] != SHARED_CONTAINER_TYPE_CODE);
  }
  original.add(1);  // the stored set does not see later changes to the original
  CHECK_FALSE(pool.contains(id, 1));
  CHECK(pool.cardinality(id) == 66667);
}

TEST_CASE("content hash does not depend on the container encoding") {
  // Same ids as a bitset container (added one by one) and as a run container (one range).
  RoaringBitmap bitset_encoded;
  for (TokenId t = 100; t < 10000; ++t) bitset_encoded.add(t);
  RoaringBitmap run_encoded;
  run_encoded.addRange(100, 10000);
  REQUIRE(statistics(bitset_encoded).n_bitset_containers == 1);
  REQUIRE(statistics(run_encoded).n_run_containers == 1);
  CHECK(content_hash(bitset_encoded) == content_hash(run_encoded));

  // Same ids as an array container and as a run container, with several runs inside one
  // 64-bit word and a run crossing word boundaries.
  RoaringBitmap array_encoded;
  for (TokenId t : {3u, 4u, 5u, 8u, 9u, 60u, 61u, 62u, 63u, 64u, 65u, 200u, 65535u}) {
    array_encoded.add(t);
  }
  RoaringBitmap runs = array_encoded;
  runs.runOptimize();
  REQUIRE(statistics(array_encoded).n_array_containers == 1);
  REQUIRE(statistics(runs).n_run_containers == 1);
  CHECK(content_hash(array_encoded) == content_hash(runs));

  // Different contents: one id more, one id moved, one id in the next container.
  RoaringBitmap one_more = array_encoded;
  one_more.add(6);
  RoaringBitmap moved = array_encoded;
  moved.remove(200);
  moved.add(201);
  RoaringBitmap next_container = array_encoded;
  next_container.remove(65535);
  next_container.add(65536);
  CHECK(content_hash(one_more) != content_hash(array_encoded));
  CHECK(content_hash(moved) != content_hash(array_encoded));
  CHECK(content_hash(next_container) != content_hash(array_encoded));
  CHECK(content_hash(RoaringBitmap()) != content_hash(RoaringBitmap::bitmapOf(1, 0u)));
  // The same bits at other word positions.
  const std::uint64_t at_zero = content_hash(RoaringBitmap::bitmapOf(2, 0u, 5u));
  CHECK(at_zero != content_hash(RoaringBitmap::bitmapOf(2, 64u, 69u)));
  CHECK(at_zero != content_hash(RoaringBitmap::bitmapOf(2, 65536u, 65541u)));
  CHECK(content_hash(RoaringBitmap::bitmapOf(2, 0u, 64u)) !=
        content_hash(RoaringBitmap::bitmapOf(2, 0u, 128u)));
}

TEST_CASE("distinct contents get distinct ids") {
  const std::uint32_t universe = 262145;
  TokenSetPool pool(universe);
  const std::vector<TokenId> edges = {0, 1, 31, 32, 63, 64, 65535, 65536, 131071, universe - 1};
  std::vector<TokenSetId> ids;
  for (TokenId t : edges) ids.push_back(pool.singleton(t));
  // Sets that differ from each other by one id.
  for (TokenId t : edges) ids.push_back(pool.subtract(pool.full(), pool.singleton(t)));
  for (TokenId t : edges) {
    if (t + 2 <= universe) ids.push_back(pool.range(t, t + 2));
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    for (std::size_t j = i + 1; j < ids.size(); ++j) {
      INFO("sets " << i << " and " << j);
      CHECK(ids[i] != ids[j]);
    }
  }
  // empty and full, then the 10 singletons, their 10 complements and 9 two-element ranges.
  CHECK(pool.distinct_sets() == 2 + 10 + 10 + 9);
  CHECK(pool.range(0, universe) == pool.full());

  // Many random sets: every new content adds exactly one set, and interning again adds none.
  std::mt19937 rng(3);
  std::vector<std::vector<TokenId>> contents;
  std::uniform_int_distribution<TokenId> token(0, universe - 1);
  for (int i = 0; i < 2000; ++i) {
    std::vector<TokenId> content(1 + i % 7);
    for (TokenId& t : content) t = token(rng);
    std::sort(content.begin(), content.end());
    content.erase(std::unique(content.begin(), content.end()), content.end());
    contents.push_back(content);
  }
  std::vector<std::vector<TokenId>> unique_contents = contents;
  std::sort(unique_contents.begin(), unique_contents.end());
  unique_contents.erase(std::unique(unique_contents.begin(), unique_contents.end()),
                        unique_contents.end());
  const std::size_t before = pool.distinct_sets();
  std::vector<TokenSetId> interned;
  for (const auto& content : contents) interned.push_back(pool.intern(content));
  std::size_t singletons_seen_before = 0;
  for (const auto& content : unique_contents) {
    if (content.size() == 1 && std::find(edges.begin(), edges.end(), content[0]) != edges.end()) {
      ++singletons_seen_before;
    }
  }
  CHECK(pool.distinct_sets() == before + unique_contents.size() - singletons_seen_before);
  for (std::size_t i = 0; i < contents.size(); ++i) {
    CHECK(pool.intern(contents[i]) == interned[i]);
    CHECK(pool.to_vector(interned[i]) == contents[i]);
  }
}

// With a hash that only looks at the cardinality, almost every lookup meets sets with the same
// hash and different contents: interning must still tell them apart by content.
TEST_CASE("interning survives hash collisions") {
  TokenSetPool pool(5000, [](const RoaringBitmap& set) { return set.cardinality(); });
  std::mt19937 rng(13);
  std::uniform_int_distribution<TokenId> token(0, 4999);
  std::vector<std::vector<TokenId>> contents;
  std::vector<TokenSetId> ids;
  for (int i = 0; i < 3000; ++i) {
    std::vector<TokenId> content = {token(rng), token(rng), token(rng)};
    std::sort(content.begin(), content.end());
    content.erase(std::unique(content.begin(), content.end()), content.end());
    contents.push_back(content);
    ids.push_back(pool.intern(content));
  }
  for (std::size_t i = 0; i < contents.size(); ++i) {
    REQUIRE(pool.to_vector(ids[i]) == contents[i]);
    REQUIRE(pool.intern(contents[i]) == ids[i]);
  }
  std::vector<std::vector<TokenId>> unique_contents = contents;
  std::sort(unique_contents.begin(), unique_contents.end());
  unique_contents.erase(std::unique(unique_contents.begin(), unique_contents.end()),
                        unique_contents.end());
  CHECK(pool.distinct_sets() == 2 + unique_contents.size());
  CHECK(pool.unite(ids[0], ids[1]) == pool.intern(sorted_union(contents[0], contents[1])));
}

TEST_CASE("memo returns the computed result and is consistent after clearing") {
  TokenSetPool pool(32000);
  const TokenSetId a = pool.range(0, 20000);
  const TokenSetId b = pool.range(10000, 32000);
  CHECK(pool.memo_entries() == 0);

  const TokenSetId u = pool.unite(a, b);
  CHECK(u == pool.full());
  CHECK(pool.memo_entries() == 1);
  CHECK(pool.unite(a, b) == u);
  CHECK(pool.unite(b, a) == u);  // commutative key: same entry
  CHECK(pool.memo_entries() == 1);

  const TokenSetId n = pool.intersect(b, a);
  CHECK(n == pool.range(10000, 20000));
  CHECK(pool.memo_entries() == 2);
  CHECK(pool.intersect(a, b) == n);
  CHECK(pool.memo_entries() == 2);

  const TokenSetId a_minus_b = pool.subtract(a, b);
  const TokenSetId b_minus_a = pool.subtract(b, a);
  CHECK(pool.memo_entries() == 4);  // not commutative: two entries
  CHECK(a_minus_b == pool.range(0, 10000));
  CHECK(b_minus_a == pool.range(20000, 32000));

  // An empty result is memoized too (it is a valid value in the table).
  const TokenSetId disjoint = pool.intersect(a_minus_b, b_minus_a);
  CHECK(disjoint == pool.empty());
  CHECK(pool.memo_entries() == 5);
  CHECK(pool.intersect(a_minus_b, b_minus_a) == pool.empty());

  const std::size_t sets = pool.distinct_sets();
  pool.clear_memo();
  CHECK(pool.memo_entries() == 0);
  CHECK(pool.unite(a, b) == u);
  CHECK(pool.intersect(a, b) == n);
  CHECK(pool.subtract(b, a) == b_minus_a);
  CHECK(pool.distinct_sets() == sets);

  // Enough entries to make the memo table grow several times; every answer must survive.
  std::vector<TokenSetId> singles;
  for (TokenId t = 0; t < 120; ++t) singles.push_back(pool.singleton(t * 7));
  std::vector<TokenSetId> pairs;
  for (TokenSetId x : singles) {
    for (TokenSetId y : singles) pairs.push_back(pool.unite(x, y));
  }
  std::size_t k = 0;
  for (TokenId x = 0; x < 120; ++x) {
    for (TokenId y = 0; y < 120; ++y, ++k) {
      const std::vector<TokenId> expected =
          x == y ? std::vector<TokenId>{x * 7}
                 : std::vector<TokenId>{std::min(x, y) * 7, std::max(x, y) * 7};
      REQUIRE(pool.to_vector(pairs[k]) == expected);
      REQUIRE(pool.unite(singles[y], singles[x]) == pairs[k]);
    }
  }
}

TEST_CASE("unite_all equals the chain of unite and interns only the result") {
  std::mt19937 rng(7);
  TokenSetPool pool(128256);
  std::vector<Model> models;
  std::vector<TokenSetId> ids;
  for (Shape shape : kShapes) {
    models.push_back(random_model(128256, shape, rng));
    ids.push_back(pool.intern(ids_of(models.back())));
  }
  for (TokenId t = 0; t < 40; ++t) {
    models.push_back(Model(128256, false));
    models.back()[t * 3001] = true;
    ids.push_back(pool.singleton(t * 3001));
  }
  std::uniform_int_distribution<std::size_t> pick(0, ids.size() - 1);
  std::uniform_int_distribution<std::size_t> count(0, 9);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<TokenSetId> list;
    Model expected(128256, false);
    for (std::size_t i = count(rng); i > 0; --i) {
      const std::size_t k = pick(rng);
      list.push_back(ids[k]);
      expected = model_op(expected, models[k], '|');
    }
    if (trial % 5 == 0) list.push_back(pool.empty());
    if (trial % 7 == 0 && !list.empty()) list.push_back(list.front());  // duplicates are fine
    std::shuffle(list.begin(), list.end(), rng);
    const std::size_t sets_before = pool.distinct_sets();
    std::vector<TokenSetId> copy = list;
    const TokenSetId all = pool.unite_all(copy);
    INFO("trial " << trial << ", " << list.size() << " sets");
    REQUIRE(model_of(pool, all) == expected);
    CHECK(pool.distinct_sets() <= sets_before + 1);  // no partial union was interned
    copy = list;
    std::reverse(copy.begin(), copy.end());
    CHECK(pool.unite_all(copy) == all);  // the memo, keyed by the sorted list
    TokenSetId chain = pool.empty();
    for (const TokenSetId s : list) chain = pool.unite(chain, s);
    CHECK(chain == all);
  }
  std::vector<TokenSetId> with_full{ids[0], pool.full(), ids[1]};
  CHECK(pool.unite_all(with_full) == pool.full());
  CHECK(pool.unite_all(std::span<TokenSetId>()) == pool.empty());
  pool.clear_memo();
  CHECK(pool.memo_entries() == 0);
  std::vector<TokenSetId> three{ids[5], ids[6], ids[7]};
  CHECK(model_of(pool, pool.unite_all(three)) ==
        model_op(model_op(models[5], models[6], '|'), models[7], '|'));
}

TEST_CASE("the list memo tells lists apart even when their hashes collide") {
  TokenSetListMemo memo;
  const std::vector<TokenSetId> a{TokenSetId{2}, TokenSetId{3}, TokenSetId{4}};
  const std::vector<TokenSetId> b{TokenSetId{2}, TokenSetId{3}, TokenSetId{5}};
  const std::vector<TokenSetId> c{TokenSetId{2}, TokenSetId{3}};
  constexpr std::uint64_t kSameHash = 42;
  CHECK(memo.find(a, kSameHash) == nullptr);
  memo.insert(a, kSameHash, 100);
  memo.insert(b, kSameHash, 200);
  CHECK(memo.find(c, kSameHash) == nullptr);
  memo.insert(c, kSameHash, 300);
  REQUIRE(memo.find(a, kSameHash) != nullptr);
  CHECK(*memo.find(a, kSameHash) == 100);
  CHECK(*memo.find(b, kSameHash) == 200);
  CHECK(*memo.find(c, kSameHash) == 300);
  // Growth keeps every entry, colliding or not.
  std::vector<std::vector<TokenSetId>> lists;
  for (std::uint32_t i = 0; i < 500; ++i)
    lists.push_back({TokenSetId{2 + i}, TokenSetId{1000 + i}, TokenSetId{5000 + i % 7}});
  for (std::uint32_t i = 0; i < lists.size(); ++i)
    memo.insert(lists[i], i % 3 == 0 ? kSameHash : TokenSetListMemo::hash(lists[i]), i);
  CHECK(memo.size() == 503);
  for (std::uint32_t i = 0; i < lists.size(); ++i) {
    const std::uint32_t* found =
        memo.find(lists[i], i % 3 == 0 ? kSameHash : TokenSetListMemo::hash(lists[i]));
    REQUIRE(found != nullptr);
    CHECK(*found == i);
  }
  CHECK(*memo.find(b, kSameHash) == 200);
}

TEST_CASE("stored sets keep their address") {
  TokenSetPool pool(50000);
  const TokenSetId a = pool.range(5, 500);
  const RoaringBitmap* before = &pool.get(a);
  for (TokenId t = 0; t < 5000; ++t) pool.singleton(t);
  CHECK(&pool.get(a) == before);
  CHECK(pool.get(a).cardinality() == 495);
}

TEST_CASE("dense export at vocabulary edges") {
  const std::uint32_t universes[] = {1,    2,     31,    32,    33,     63,     64,     65,
                                     4097, 65535, 65536, 65537, 100000, 128256, 131073, 262145};
  for (std::uint32_t universe : universes) {
    DYNAMIC_SECTION("universe " << universe) {
      TokenSetPool pool(universe);
      const std::size_t words = (universe + 31) / 32;
      REQUIRE(pool.dense_word_count() == words);

      std::vector<TokenId> edge_ids;
      for (TokenId t : {0u, 31u, 32u, 63u, 64u, 65535u, 65536u, universe - 1}) {
        if (t < universe) edge_ids.push_back(t);
      }
      const TokenSetId edges = pool.intern(edge_ids);
      const TokenSetId all_but_edges = pool.complement(edges);

      for (TokenSetId s : {pool.empty(), pool.full(), edges, all_but_edges}) {
        // Garbage in every word, and three words more than needed: all must be overwritten.
        std::vector<std::uint32_t> dense(words + 3, 0xA5A5A5A5u);
        pool.to_dense(s, dense);
        for (std::uint32_t t = 0; t < universe; ++t) {
          if (dense_bit(dense, t) != pool.contains(s, t)) FAIL("token " << t);
        }
        for (std::size_t t = universe; t < 32 * dense.size(); ++t) {
          if (dense_bit(dense, t)) FAIL("bit " << t << " beyond the universe is set");
        }
      }

      // The full set: every word full except the last, which holds universe % 32 bits.
      std::vector<std::uint32_t> dense(words);
      pool.to_dense(pool.full(), dense);
      for (std::size_t w = 0; w + 1 < words; ++w) REQUIRE(dense[w] == 0xFFFFFFFFu);
      const std::uint32_t tail_bits = universe % 32;
      CHECK(dense.back() == (tail_bits == 0 ? 0xFFFFFFFFu : (1u << tail_bits) - 1));

      // OR keeps what was there.
      std::vector<std::uint32_t> mask(words, 0);
      if (universe > 2) mask[0] = 0x4;  // token 2
      pool.or_into_dense(edges, mask);
      for (std::uint32_t t = 0; t < universe; ++t) {
        const bool expected = pool.contains(edges, t) || t == 2;
        if (dense_bit(mask, t) != expected) FAIL("token " << t);
      }
      pool.or_into_dense(all_but_edges, mask);
      CHECK(mask == dense);  // edges ∪ complement = full
    }
  }
}

TEST_CASE("dense export of every encoding matches the model") {
  std::mt19937 rng(5);
  // 100000 tokens: an odd number of words, and the last 2^16 block is big enough for a bitset
  // container, which the export must cut in the middle of one of its 64-bit words.
  for (std::uint32_t universe : {32000u, 100000u, 128256u, 262145u}) {
    TokenSetPool pool(universe);
    for (Shape shape : kShapes) {
      const Model model = random_model(universe, shape, rng);
      const TokenSetId s = pool.intern(ids_of(model));
      std::vector<std::uint32_t> dense(pool.dense_word_count(), 0xFFFFFFFFu);
      pool.to_dense(s, dense);
      for (std::uint32_t t = 0; t < universe; ++t) {
        if (dense_bit(dense, t) != model[t]) FAIL("to_dense, token " << t);
      }
      // OR into a mask holding another random set gives the union.
      const Model other = random_model(universe, Shape::kMixed, rng);
      std::vector<std::uint32_t> ored(pool.dense_word_count(), 0);
      for (std::uint32_t t = 0; t < universe; ++t) {
        if (other[t]) ored[t / 32] |= 1u << (t % 32);
      }
      pool.or_into_dense(s, ored);
      for (std::uint32_t t = 0; t < universe; ++t) {
        if (dense_bit(ored, t) != (model[t] || other[t])) FAIL("or_into_dense, token " << t);
      }
      const DenseMask as_mask = pool.to_dense_mask(s);
      CHECK(std::equal(dense.begin(), dense.end(), as_mask.words().begin()));
      CHECK(as_mask.count() == pool.cardinality(s));
    }
  }
}

TEST_CASE("dense cache returns the same words as the conversion") {
  std::mt19937 rng(9);
  TokenSetPool pool(128256);
  const TokenSetId s = pool.intern(ids_of(random_model(128256, Shape::kMixed, rng)));
  const TokenSetId t = pool.intern(ids_of(random_model(128256, Shape::kSparse, rng)));
  std::vector<std::uint32_t> converted(pool.dense_word_count());
  pool.to_dense(s, converted);

  CHECK(pool.cached_dense_words(s) == nullptr);
  CHECK(pool.dense_cache_bytes() == 0);
  const std::uint32_t* cached = pool.dense_words(s);
  REQUIRE(cached != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(cached) % DenseMask::kAlignment == 0);
  CHECK(pool.cached_dense_words(s) == cached);
  CHECK(pool.dense_words(s) == cached);  // made once
  CHECK(pool.cached_dense_words(t) == nullptr);
  CHECK(pool.dense_cache_bytes() == pool.dense_word_count() * 4);
  CHECK(std::equal(converted.begin(), converted.end(), cached));

  // Later sets and cache entries do not move it.
  for (TokenId i = 0; i < 300; ++i) pool.dense_words(pool.singleton(i));
  CHECK(pool.cached_dense_words(s) == cached);
  CHECK(std::equal(converted.begin(), converted.end(), cached));

  // The export functions take the cached path and give the same answers.
  std::vector<std::uint32_t> exported(pool.dense_word_count() + 2, 0xFFFFFFFFu);
  pool.to_dense(s, exported);
  CHECK(std::equal(converted.begin(), converted.end(), exported.begin()));
  CHECK(exported[pool.dense_word_count()] == 0);
  CHECK(exported[pool.dense_word_count() + 1] == 0);

  std::vector<std::uint32_t> via_cache(pool.dense_word_count(), 0);
  std::vector<std::uint32_t> via_roaring(pool.dense_word_count(), 0);
  pool.or_into_dense(t, via_cache);
  pool.or_into_dense(s, via_cache);  // cached
  or_dense(pool.get(t), via_roaring);
  or_dense(pool.get(s), via_roaring);
  CHECK(via_cache == via_roaring);
  for (TokenId tok = 0; tok < pool.universe_size(); ++tok) {
    if (dense_bit(via_cache, tok) != (pool.contains(s, tok) || pool.contains(t, tok))) {
      FAIL("token " << tok);
    }
  }
}

TEST_CASE("out-of-range token ids and foreign set ids are errors naming them") {
  const std::uint32_t universe = 32000;
  TokenSetPool pool(universe);
  using Catch::Contains;
  REQUIRE_THROWS_AS(pool.singleton(universe), Error);
  REQUIRE_THROWS_WITH(pool.singleton(32007),
                      Contains("token id 32007") && Contains("vocabulary of 32000 tokens"));
  REQUIRE_THROWS_WITH(
      pool.intern(std::vector<TokenId>{4, 0, 40000, 7}),
      Contains("token id 40000") && Contains("position 2") && Contains("32000 tokens"));
  REQUIRE_THROWS_WITH(pool.intern(RoaringBitmap::bitmapOf(2, 3u, 32000u)),
                      Contains("token id 32000") && Contains("32000 tokens"));
  REQUIRE_THROWS_WITH(pool.range(10, 32001),
                      Contains("token id 32000") && Contains("32000 tokens"));
  REQUIRE_THROWS_WITH(pool.contains(pool.full(), 99999),
                      Contains("token id 99999") && Contains("32000 tokens"));
  CHECK_NOTHROW(pool.singleton(universe - 1));
  CHECK(pool.intern(std::vector<TokenId>{}) == pool.empty());

  const TokenSetId foreign{static_cast<std::uint32_t>(pool.distinct_sets() + 41)};
  const std::string foreign_text = "token set id " + std::to_string(foreign.value());
  REQUIRE_THROWS_WITH(pool.unite(pool.full(), foreign), Contains(foreign_text));
  REQUIRE_THROWS_WITH(pool.cardinality(foreign), Contains(foreign_text));
  REQUIRE_THROWS_WITH(pool.get(foreign), Contains(foreign_text));
  REQUIRE_THROWS_WITH(pool.dense_words(foreign), Contains(foreign_text));

  std::vector<std::uint32_t> short_span(pool.dense_word_count() - 1);
  REQUIRE_THROWS_WITH(pool.to_dense(pool.full(), short_span),
                      Contains("999 words") && Contains("1000 words needed"));
  REQUIRE_THROWS_AS(pool.or_into_dense(pool.full(), short_span), Error);
  REQUIRE_THROWS_WITH(write_dense(RoaringBitmap::bitmapOf(1, 64u), std::span(short_span).first(2)),
                      Contains("token id 64"));

  REQUIRE_THROWS_WITH(TokenSetPool(0), Contains("must be >= 1"));
  // Nothing of the failed calls was interned.
  CHECK(pool.distinct_sets() == 3);
}

}  // namespace
}  // namespace glrmask
