// DenseMaskCache against a model of its contract: after any sequence of finds and inserts (half
// of the inserts as claim() and a write into the claimed slot), find() returns the mask of exactly
// the keys a CLOCK over `slots` slots still holds, and nothing for keys evicted or never inserted.
// Many keys share hash buckets so that the index's deletions (backward shift) run over long probe
// chains.
#include "mask/cache/dense_mask_cache.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace glrmask::mask {
namespace {

std::vector<std::uint32_t> mask_for(std::size_t serial, std::size_t words) {
  std::vector<std::uint32_t> mask(words);
  for (std::size_t i = 0; i < words; ++i)
    mask[i] = static_cast<std::uint32_t>(serial * 2654435761u + i);
  return mask;
}

// The replacement policy, written the plain way: slots in a ring, a hand, a mark per slot.
class ClockModel {
 public:
  struct Slot {
    std::vector<TokenSetId> key;  // empty = vacant
    std::size_t serial = 0;
    bool referenced = false;
  };
  explicit ClockModel(std::size_t slots) : slots_(slots) {}

  const Slot* find(const std::vector<TokenSetId>& key) {
    for (Slot& slot : slots_) {
      if (slot.key != key) continue;
      slot.referenced = true;
      return &slot;
    }
    return nullptr;
  }
  // The key it evicted, or an empty key.
  std::vector<TokenSetId> insert(const std::vector<TokenSetId>& key, std::size_t serial) {
    while (slots_[hand_].referenced) {
      slots_[hand_].referenced = false;
      hand_ = (hand_ + 1) % slots_.size();
    }
    std::vector<TokenSetId> evicted = std::move(slots_[hand_].key);
    slots_[hand_] = {key, serial, false};
    hand_ = (hand_ + 1) % slots_.size();
    return evicted;
  }
  const std::vector<Slot>& slots() const { return slots_; }

 private:
  std::vector<Slot> slots_;
  std::size_t hand_ = 0;
};

TEST_CASE("dense mask cache keeps exactly what a CLOCK over its slots keeps") {
  for (const std::size_t slots : {1u, 7u, 64u}) {
    constexpr std::size_t kWords = 5;
    DenseMaskCache cache(slots, kWords);
    ClockModel model(slots);
    std::mt19937 rng(static_cast<unsigned>(slots));
    // Recurring keys, the case the cache is for, some far more often than others; every length
    // up to the limit.
    std::vector<std::vector<TokenSetId>> population(4 * slots + 16);
    for (std::vector<TokenSetId>& key : population) {
      const std::size_t length = 1 + rng() % DenseMaskCache::kMaxWeights;
      for (std::uint32_t id = 2; key.size() < length; ++id)
        if (rng() % 3 == 0) key.push_back(TokenSetId{id});
    }
    std::geometric_distribution<std::size_t> geometric(2.0 /
                                                       static_cast<double>(population.size()));
    const auto skewed = [&](std::mt19937& r) { return geometric(r) % population.size(); };
    std::size_t evictions = 0;
    std::size_t hits = 0;
    for (std::size_t serial = 0; serial < 4000; ++serial) {
      const std::vector<TokenSetId>& key = population[skewed(rng)];
      const std::uint32_t* found = cache.find(key);
      if (const ClockModel::Slot* held = model.find(key)) {
        ++hits;
        REQUIRE(found != nullptr);
        const std::vector<std::uint32_t> expected = mask_for(held->serial, kWords);
        REQUIRE(std::equal(expected.begin(), expected.end(), found));
        continue;
      }
      REQUIRE(found == nullptr);  // evicted or never inserted
      const std::vector<std::uint32_t> mask = mask_for(serial, kWords);
      if (serial % 2 == 0) {
        cache.insert(key, mask);
      } else {  // claim a slot and write the union into it, as mask_view does
        const std::span<std::uint32_t> slot = cache.claim(key);
        REQUIRE(slot.size() == kWords);
        std::copy(mask.begin(), mask.end(), slot.begin());
      }
      if (!model.insert(key, serial).empty()) ++evictions;
    }
    REQUIRE(evictions > 100);
    REQUIRE(hits > 100);
    CHECK(cache.hits() == hits);
    // Checked last: find() marks the slots it hits.
    for (const ClockModel::Slot& slot : model.slots())
      if (!slot.key.empty()) REQUIRE(cache.find(slot.key) != nullptr);
  }
}

TEST_CASE("dense mask cache keeps a union found every step while one-off unions pass through") {
  // Round robin would evict it every `slots` inserts; CLOCK spares a slot found since the hand
  // last passed it.
  constexpr std::size_t kSlots = 4;
  DenseMaskCache cache(kSlots, 1);
  const std::vector<TokenSetId> recurring = {TokenSetId{2}, TokenSetId{3}};
  cache.insert(recurring, std::vector<std::uint32_t>{7});
  for (std::uint32_t id = 10; id < 10 + 25 * kSlots; ++id) {
    const std::uint32_t* found = cache.find(recurring);
    REQUIRE(found != nullptr);
    REQUIRE(*found == 7);
    const std::vector<TokenSetId> one_off = {TokenSetId{id}};
    REQUIRE(cache.find(one_off) == nullptr);
    cache.insert(one_off, std::vector<std::uint32_t>{id});
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
}  // namespace glrmask::mask

namespace glrmask::mask {
namespace {

TEST_CASE("dense mask cache finds a union by its class row, then by the other weights too") {
  constexpr std::size_t kSlots = 4;
  DenseMaskCache cache(kSlots, 1, 1);
  const std::vector<TokenSetId> owner = {TokenSetId{2}, TokenSetId{3}};
  const std::vector<TokenSetId> other = {TokenSetId{5}};
  const std::vector<std::uint64_t> row = {0b1011};
  const std::span<std::uint32_t> slot = cache.claim(owner, row);
  REQUIRE(slot.size() == 1);
  slot[0] = 7;
  CHECK(cache.find(other) == nullptr);
  const std::uint32_t* by_row = cache.find_row(row, other);
  REQUIRE(by_row != nullptr);
  CHECK(*by_row == 7);
  const std::uint32_t* by_alias = cache.find(other);  // filed by find_row
  REQUIRE(by_alias != nullptr);
  CHECK(*by_alias == 7);
  CHECK(cache.find_row(std::vector<std::uint64_t>{0b1001}, other) == nullptr);

  // A union of more weights than kMaxWeights is kept under its row alone.
  std::vector<TokenSetId> many;
  for (std::uint32_t id = 100; many.size() <= DenseMaskCache::kMaxWeights; ++id)
    many.push_back(TokenSetId{id});
  const std::vector<std::uint64_t> many_row = {0b0100};
  const std::span<std::uint32_t> many_slot = cache.claim(many, many_row);
  REQUIRE(many_slot.size() == 1);
  many_slot[0] = 9;
  CHECK(cache.find(many) == nullptr);
  REQUIRE(cache.find_row(many_row, many) != nullptr);
  CHECK(*cache.find_row(many_row, many) == 9);

  // Once the slot is claimed again, neither its row nor its alias finds the old mask.
  for (std::uint32_t id = 10; id < 10 + 3 * kSlots; ++id) {
    const std::vector<TokenSetId> one_off = {TokenSetId{id}};
    const std::vector<std::uint64_t> one_off_row = {std::uint64_t{1} << (id % 64)};
    REQUIRE(cache.find_row(one_off_row, one_off) == nullptr);
    cache.claim(one_off, one_off_row)[0] = id;
  }
  CHECK(cache.find(owner) == nullptr);
  CHECK(cache.find(other) == nullptr);
  CHECK(cache.find_row(row, other) == nullptr);
  CHECK(cache.find_row(many_row, many) == nullptr);
}

}  // namespace
}  // namespace glrmask::mask
