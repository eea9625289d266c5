// DenseMaskCache against a model of its contract: after any sequence of inserts (half of them as
// claim() and a write into the claimed slot), find() returns the mask of exactly the keys among
// the last `slots` inserted (round robin), and nothing for keys evicted or never inserted. Many
// keys share hash buckets so that the index's deletions (backward shift) run over long probe
// chains.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <random>
#include <span>
#include <vector>

#include "wfa/dense_mask_cache.h"

namespace glrmask::wfa {
namespace {

std::vector<std::uint32_t> mask_for(std::size_t serial, std::size_t words) {
  std::vector<std::uint32_t> mask(words);
  for (std::size_t i = 0; i < words; ++i)
    mask[i] = static_cast<std::uint32_t>(serial * 2654435761u + i);
  return mask;
}

TEST_CASE("dense mask cache keeps exactly the last `slots` results") {
  for (const std::size_t slots : {1u, 7u, 64u}) {
    constexpr std::size_t kWords = 5;
    DenseMaskCache cache(slots, kWords);
    std::mt19937 rng(static_cast<unsigned>(slots));
    struct Inserted {
      std::vector<TokenSetId> key;
      std::size_t serial;
    };
    std::deque<Inserted> live;  // the model: the last `slots` distinct inserts
    std::vector<std::vector<TokenSetId>> evicted;
    for (std::size_t serial = 0; serial < 4000; ++serial) {
      // Keys over few ids: recurring keys, the case the cache is for.
      std::vector<TokenSetId> key;
      const std::size_t length = 1 + rng() % DenseMaskCache::kMaxWeights;
      for (std::uint32_t id = 2; key.size() < length && id < 40; ++id)
        if (rng() % 3 == 0) key.push_back(TokenSetId{id});
      if (key.empty()) key.push_back(TokenSetId{2});
      const std::uint32_t* found = cache.find(key);
      bool in_model = false;
      for (const Inserted& entry : live) {
        if (entry.key != key) continue;
        in_model = true;
        REQUIRE(found != nullptr);
        const std::vector<std::uint32_t> expected = mask_for(entry.serial, kWords);
        REQUIRE(std::equal(expected.begin(), expected.end(), found));
      }
      if (in_model) continue;
      REQUIRE(found == nullptr);  // evicted or never inserted
      const std::vector<std::uint32_t> mask = mask_for(serial, kWords);
      if (serial % 2 == 0) {
        cache.insert(key, mask);
      } else {  // claim a slot and write the union into it, as mask_view does
        const std::span<std::uint32_t> slot = cache.claim(key);
        REQUIRE(slot.size() == kWords);
        std::copy(mask.begin(), mask.end(), slot.begin());
      }
      live.push_back({key, serial});
      if (live.size() > slots) {
        evicted.push_back(live.front().key);
        live.pop_front();
      }
    }
    REQUIRE(evicted.size() > 100);
    for (const Inserted& entry : live) REQUIRE(cache.find(entry.key) != nullptr);
  }
}

TEST_CASE("dense mask cache refuses unions of too many weights and a zero-slot cache") {
  DenseMaskCache cache(4, 2);
  std::vector<TokenSetId> long_key;
  for (std::uint32_t id = 2; long_key.size() <= DenseMaskCache::kMaxWeights; ++id)
    long_key.push_back(TokenSetId{id});
  const std::vector<std::uint32_t> mask = {1, 2};
  cache.insert(long_key, mask);
  CHECK(cache.find(long_key) == nullptr);
  CHECK(cache.claim(long_key).empty());
  CHECK(cache.find(long_key) == nullptr);
  DenseMaskCache off(0, 2);
  const std::vector<TokenSetId> key = {TokenSetId{3}};
  off.insert(key, mask);
  CHECK(off.find(key) == nullptr);
  CHECK(off.claim(key).empty());
}

}  // namespace
}  // namespace glrmask::wfa
