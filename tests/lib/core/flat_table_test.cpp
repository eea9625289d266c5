// The hash-table family of lib/core (flat_table.h and its users): insert, find, growth, clear,
// erase, the generation wrap-around and its stamp in a key's tail padding, collisions under a
// deliberately bad hash, and variable-length keys. Each check is against a std:: container filled
// alongside.
#include <catch2/catch.hpp>
#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/flat_generation_set.h"
#include "lib/core/flat_id_index.h"
#include "lib/core/flat_key_store.h"
#include "lib/core/flat_map.h"
#include "lib/core/hash_mix.h"

namespace glrmask {
namespace {

// Every key hashes alike: every entry sits in one probe run, so every probe meets the others.
struct CollidingInfo {
  static constexpr std::uint64_t empty() { return ~std::uint64_t{0}; }
  static std::uint64_t hash(std::uint64_t) { return 0x8000000000000000ull; }
};

// A few distinct hashes whose entries share one stretch of slots: runs overlap and wrap around.
struct ClusteringInfo {
  static constexpr std::uint64_t empty() { return ~std::uint64_t{0}; }
  static std::uint64_t hash(std::uint64_t key) { return ~std::uint64_t{0} - (key % 3); }
};

template <class Map>
void check_map_against_reference(Map& map, std::uint64_t count, std::uint64_t stride) {
  std::map<std::uint64_t, std::uint32_t> reference;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t key = i * stride;
    const auto [value, inserted] = map.find_or_insert(key, static_cast<std::uint32_t>(i));
    CHECK(inserted);
    CHECK(value == i);
    reference.emplace(key, static_cast<std::uint32_t>(i));
  }
  // A second insert of a key finds the first value.
  for (std::uint64_t i = 0; i < count; i += 7) {
    const auto [value, inserted] = map.find_or_insert(i * stride, 12345);
    CHECK_FALSE(inserted);
    CHECK(value == i);
  }
  REQUIRE(map.size() == reference.size());
  for (const auto& [key, value] : reference) {
    const std::uint32_t* found = map.find(key);
    REQUIRE(found != nullptr);
    CHECK(*found == value);
    // Keys next to stored ones (the strides keep them apart) are not found.
    CHECK(map.find(key + 1) == nullptr);
  }
}

TEST_CASE("FlatMap finds what it stored across growth") {
  FlatMap<std::uint64_t, std::uint32_t> map(2);
  check_map_against_reference(map, 5000, 3);
  CHECK(map.memory_bytes() >= 5000 * 100 / 75 * sizeof(std::uint64_t));
}

TEST_CASE("FlatMap tells keys apart when every hash collides") {
  FlatMap<std::uint64_t, std::uint32_t, CollidingInfo> map(4);
  check_map_against_reference(map, 300, 2);
}

TEST_CASE("FlatMap probe runs that wrap around the end of the table") {
  FlatMap<std::uint64_t, std::uint32_t, ClusteringInfo> map(8);
  check_map_against_reference(map, 200, 5);
}

TEST_CASE("FlatMap insert_or_assign replaces, clear keeps capacity, release frees") {
  FlatMap<std::uint64_t, std::uint32_t> map;
  map.insert_or_assign(10, 1);
  map.insert_or_assign(10, 2);
  map.insert_or_assign(11, 3);
  CHECK(map.size() == 2);
  CHECK(*map.find(10) == 2);
  map.reserve(1000);
  const std::size_t bytes = map.memory_bytes();
  CHECK(bytes >= 1000 * sizeof(std::uint64_t));
  CHECK(*map.find(11) == 3);  // reserve re-placed the entries
  map.clear();
  CHECK(map.size() == 0);
  CHECK(map.find(10) == nullptr);
  CHECK(map.find(11) == nullptr);
  CHECK(map.memory_bytes() == bytes);
  map.insert_or_assign(10, 4);
  CHECK(*map.find(10) == 4);
  map.release();
  CHECK(map.size() == 0);
  CHECK(map.memory_bytes() < bytes);
  CHECK(map.find(10) == nullptr);
  map.insert_or_assign(12, 5);
  CHECK(*map.find(12) == 5);
}

TEST_CASE("FlatSet inserts once and finds what it holds") {
  FlatSet<std::uint64_t, CollidingInfo> colliding;
  FlatSet<std::uint64_t> mixed;
  for (std::uint64_t key = 0; key < 400; key += 2) {
    CHECK(colliding.insert(key));
    CHECK(mixed.insert(key * 0x10001));
  }
  for (std::uint64_t key = 0; key < 400; ++key) {
    CHECK(colliding.contains(key) == (key % 2 == 0));
    CHECK(mixed.contains(key * 0x10001) == (key % 2 == 0));
    if (key % 2 == 0) CHECK_FALSE(colliding.insert(key));
  }
  CHECK(colliding.size() == 200);
  CHECK(mixed.size() == 200);
  mixed.clear();
  CHECK(mixed.empty());
  CHECK_FALSE(mixed.contains(0));
}

struct U64Info {
  static std::uint64_t hash(std::uint64_t key) { return fmix64(key); }
};
struct CollidingSetInfo {
  static std::uint64_t hash(std::uint64_t) { return 42; }
};

TEST_CASE("GenerationSet is emptied by clear, walk after walk") {
  GenerationSet<std::uint64_t, U64Info> set(4);
  for (std::uint64_t walk = 0; walk < 50; ++walk) {
    set.clear();
    for (std::uint64_t key = walk; key < walk + 100; ++key) CHECK(set.insert(key));
    CHECK_FALSE(set.insert(walk));
    CHECK(set.size() == 100);
    CHECK_FALSE(set.contains(walk + 100));
    if (walk > 0) CHECK_FALSE(set.contains(walk - 1));  // the previous walk's first key
  }
  // Grown once to the largest walk, then reused.
  CHECK(set.capacity() == 256);
}

// A pointer-sized word and a 32-bit id (the layout of the walk's visited pairs): 4 bytes of tail
// padding, which the set's generation stamp shares (default member initializers make it
// non-trivial, the condition for that).
struct WordAndId {
  std::uint64_t word = 0;
  std::uint32_t id = 0;
  friend bool operator==(const WordAndId&, const WordAndId&) = default;
  friend auto operator<=>(const WordAndId&, const WordAndId&) = default;
};
struct WordAndIdInfo {
  static std::uint64_t hash(const WordAndId& key) { return fmix64(key.word * 31 + key.id); }
};

TEST_CASE("GenerationSet keeps the generation in the key's tail padding") {
  using Set = GenerationSet<WordAndId, WordAndIdInfo>;
  STATIC_REQUIRE(Set::slot_bytes() == 16);
  Set set(4);
  std::set<WordAndId> expected;
  for (std::uint64_t walk = 0; walk < 20; ++walk) {
    set.clear();
    expected.clear();
    // Keys that differ only in the id, and ids up to ~0u, so a stamp overwritten by a key's
    // copy would show as a missing or a doubled entry.
    for (std::uint32_t i = 0; i < 40 + 10 * walk; ++i) {
      const WordAndId key{0x1000 + 8 * (i % 7 + walk), i % 3 == 0 ? ~0u - i : i};
      CHECK(set.insert(key) == expected.insert(key).second);
    }
    CHECK(set.size() == expected.size());
    for (const WordAndId& key : expected) CHECK_FALSE(set.insert(key));
    CHECK_FALSE(set.contains({0x1000 + 8 * (walk + 7), 1}));
  }
}

TEST_CASE("GenerationSet survives the wrap-around of its generation") {
  GenerationSet<std::uint64_t, CollidingSetInfo> set(16);
  REQUIRE(set.generation() == 1);
  CHECK(set.insert(5));  // stamped 1
  set.clear();
  CHECK_FALSE(set.contains(5));
  // 2^32 - 3 clears later: the next clear wraps around, and generation 1 comes back.
  set.jump_generation_for_testing(0xFFFFFFFFu);
  CHECK_FALSE(set.contains(5));
  CHECK(set.insert(6));
  set.clear();
  CHECK(set.generation() == 1);
  CHECK(set.size() == 0);
  // Stale stamps of generation 1 must not make 5 present again.
  CHECK_FALSE(set.contains(5));
  CHECK_FALSE(set.contains(6));
  CHECK(set.insert(5));
  CHECK(set.contains(5));
  CHECK(set.size() == 1);
}

TEST_CASE("FlatIdIndex finds ids by keys in the caller's storage, and erases") {
  std::vector<std::string> keys;
  for (int i = 0; i < 600; ++i) keys.push_back("key" + std::to_string(i));
  // A bad hash: 4 distinct values for 600 keys, so tags rarely settle a probe and runs are long.
  const auto bad_hash = [](std::string_view key) {
    return (std::uint64_t{key.back() % 4u} << 62) | 0x1234;
  };
  FlatIdIndex<> index(2);
  for (std::uint32_t id = 0; id < keys.size(); ++id) {
    const auto is_key = [&](std::uint32_t other) { return keys[other] == keys[id]; };
    const auto [found, inserted] = index.find_or_insert(bad_hash(keys[id]), id, is_key);
    CHECK(inserted);
    CHECK(found == id);
  }
  const auto find = [&](std::string_view key) {
    return index.find(bad_hash(key), [&](std::uint32_t id) { return keys[id] == key; });
  };
  for (std::uint32_t id = 0; id < keys.size(); ++id) CHECK(find(keys[id]) == id);
  CHECK(find("absent7") == FlatIdIndex<>::kNoId);
  // Erase every third: the others stay reachable over the holes (no tombstones).
  std::set<std::uint32_t> erased;
  for (std::uint32_t id = 0; id < keys.size(); id += 3) {
    index.erase(bad_hash(keys[id]), id);
    erased.insert(id);
  }
  CHECK(index.size() == keys.size() - erased.size());
  for (std::uint32_t id = 0; id < keys.size(); ++id)
    CHECK(find(keys[id]) == (erased.contains(id) ? FlatIdIndex<>::kNoId : id));
  // Erased ids can come back.
  for (const std::uint32_t id : erased) index.insert_new(bad_hash(keys[id]), id);
  for (std::uint32_t id = 0; id < keys.size(); ++id) CHECK(find(keys[id]) == id);
  index.clear();
  CHECK(find(keys[0]) == FlatIdIndex<>::kNoId);
}

TEST_CASE("FlatIdIndex erase keeps a fixed-capacity index whole under churn") {
  // As the dense-mask cache uses it: reserved once, entries erased and re-added forever.
  std::vector<std::uint64_t> hash_of(64);
  FlatIdIndex<50> index(128);
  const std::size_t capacity = index.capacity();
  std::uint64_t next = 1;
  for (std::uint32_t id = 0; id < 64; ++id) {
    hash_of[id] = fmix64(next++) | (std::uint64_t{id % 2} << 63);
    index.insert_new(hash_of[id], id);
  }
  for (int round = 0; round < 2000; ++round) {
    const auto id = static_cast<std::uint32_t>(fmix64(static_cast<std::uint64_t>(round)) % 64);
    index.erase(hash_of[id], id);
    hash_of[id] = fmix64(next++);
    index.insert_new(hash_of[id], id);
  }
  CHECK(index.capacity() == capacity);
  CHECK(index.size() == 64);
  for (std::uint32_t id = 0; id < 64; ++id)
    CHECK(index.find(hash_of[id], [&](std::uint32_t other) { return other == id; }) == id);
}

TEST_CASE("FlatKeyStore stores variable-length keys back to back") {
  FlatKeyStore<char, std::uint32_t> store(2);
  std::map<std::string, std::uint32_t> reference;
  const auto hash = [](std::string_view key) { return std::hash<std::string_view>{}(key); };
  const auto span_of = [](std::string_view key) { return std::span<const char>(key); };
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const std::string key = std::string(i % 13, 'a') + std::to_string(i);
    const auto [value, inserted] = store.find_or_insert(span_of(key), hash(key), i);
    CHECK(inserted);
    CHECK(value == i);
    reference.emplace(key, i);
  }
  // The empty key is a key like any other; a prefix of a key is another key; assigning replaces.
  CHECK(store.find(span_of(""), hash("")) == nullptr);
  store.insert_or_assign(span_of(""), hash(""), 7);
  reference.emplace("", 7);
  REQUIRE(store.find(span_of("aaa3"), hash("aaa3")) != nullptr);  // i == 3
  CHECK(*store.find(span_of("aaa3"), hash("aaa3")) == 3);
  CHECK(store.find(span_of("aaa"), hash("aaa")) == nullptr);  // a prefix of it
  store.insert_or_assign(span_of("aaa3"), hash("aaa3"), 8);
  reference["aaa3"] = 8;
  REQUIRE(store.size() == reference.size());
  for (const auto& [key, value] : reference) {
    const std::uint32_t* found = store.find(span_of(key), hash(key));
    REQUIRE(found != nullptr);
    CHECK(*found == value);
  }
  std::map<std::string, std::uint32_t> visited;
  store.for_each([&](std::span<const char> key, std::uint32_t value) {
    visited.emplace(std::string(key.begin(), key.end()), value);
  });
  CHECK(visited == reference);
  store.release();
  CHECK(store.size() == 0);
  CHECK(store.find(span_of("aaa3"), hash("aaa3")) == nullptr);
}

TEST_CASE("FlatKeyStore tells keys apart when their hashes collide") {
  FlatKeyStore<std::uint32_t, std::uint32_t> store;
  const std::vector<std::uint32_t> a{1, 2, 3}, b{1, 2, 4}, c{1, 2}, d{};
  constexpr std::uint64_t kSame = 99;
  store.insert_or_assign(a, kSame, 10);
  store.insert_or_assign(b, kSame, 20);
  store.insert_or_assign(c, kSame, 30);
  CHECK(store.find(d, kSame) == nullptr);
  store.insert_or_assign(d, kSame, 40);
  CHECK(*store.find(a, kSame) == 10);
  CHECK(*store.find(b, kSame) == 20);
  CHECK(*store.find(c, kSame) == 30);
  CHECK(*store.find(d, kSame) == 40);
  CHECK(store.size() == 4);
}

}  // namespace
}  // namespace glrmask
