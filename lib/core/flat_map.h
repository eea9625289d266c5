// A hash map (FlatMap) and set (FlatSet) of small fixed-size keys, flat (flat_table.h). The map:
// the compile steps' memo tables (label-trie children keyed (node, label), end forks keyed
// (state, inhibitor set), the Parser DWA builder's memos, interned virtual stacks), the token-set
// pool's operation memo and the BPE merge ranks. The set: the GSS's index of the edges of nodes
// with many edges.
//
// As in LLVM's DenseMap, a key type names one value that is never stored (the empty marker, which
// marks a vacant slot) and its hash, through FlatKeyInfo<Key>:
//   static constexpr Key empty();
//   static std::uint64_t hash(const Key&);   // well mixed in its high bits (see flat_table.h)
// FlatKeyInfo<std::uint64_t> is given: packed pairs of 32-bit ids, ~0 never stored. A key type of
// its own declares a specialization (or passes another info type). No erase and no iteration order:
// a memo or an index only grows and is cleared whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "lib/core/check.h"
#include "lib/core/flat_table.h"

namespace glrmask {

template <class Key>
struct FlatKeyInfo;

template <>
struct FlatKeyInfo<std::uint64_t> {
  static constexpr std::uint64_t empty() { return ~std::uint64_t{0}; }
  // Fibonacci hashing: keys are packed small integers, whose low bits alone cluster badly; the
  // product's high bits, which pick the slot, depend on every bit of the key.
  static std::uint64_t hash(std::uint64_t key) { return key * 0x9E3779B97F4A7C15ull; }
};

template <class Key, class Value, class KeyInfo = FlatKeyInfo<Key>, std::size_t MaxLoadPercent = 75>
class FlatMap {
 public:
  struct Slot {
    Key key;
    Value value;
  };

  explicit FlatMap(std::size_t initial_capacity = 16) : table_(initial_capacity) {}

  // The value stored under `key`, or nullptr.
  const Value* find(const Key& key) const {
    const Slot* slot = table_.find(KeyInfo::hash(key), [&](const Slot& s) { return s.key == key; });
    return slot == nullptr ? nullptr : &slot->value;
  }
  Value* find(const Key& key) { return const_cast<Value*>(std::as_const(*this).find(key)); }

  // The value under `key`; inserts `value` first when the key is new (second == true).
  std::pair<Value, bool> find_or_insert(const Key& key, Value value) {
    GLRMASK_DCHECK(!(key == KeyInfo::empty()), "the empty key cannot be stored");
    const auto [slot, claimed] =
        table_.find_or_claim(KeyInfo::hash(key), [&](const Slot& s) { return s.key == key; });
    if (claimed) *slot = {key, value};
    return {slot->value, claimed};
  }

  // Stores `value` under `key`, replacing what was there.
  void insert_or_assign(const Key& key, Value value) {
    GLRMASK_DCHECK(!(key == KeyInfo::empty()), "the empty key cannot be stored");
    Slot* slot =
        table_.find_or_claim(KeyInfo::hash(key), [&](const Slot& s) { return s.key == key; }).first;
    *slot = {key, value};
  }

  // Asks the memory system for the slot where a lookup of `key` starts (see flat_table.h).
  void prefetch(const Key& key) const { table_.prefetch(KeyInfo::hash(key)); }

  std::size_t size() const { return table_.size(); }
  std::size_t memory_bytes() const { return table_.memory_bytes(); }
  void reserve(std::size_t count) { table_.reserve(count); }
  // Empties the map and keeps its capacity.
  void clear() { table_.clear(); }
  // Empties the map and gives its memory back.
  void release() { table_.release(); }

 private:
  struct Traits {
    static constexpr std::size_t kMaxLoadPercent = MaxLoadPercent;
    static bool is_vacant(const Slot& slot) { return slot.key == KeyInfo::empty(); }
    static Slot vacant() { return Slot{KeyInfo::empty(), Value{}}; }
    static std::uint64_t hash(const Slot& slot) { return KeyInfo::hash(slot.key); }
  };

  FlatTable<Slot, Traits> table_;
};

template <class Key, class KeyInfo = FlatKeyInfo<Key>, std::size_t MaxLoadPercent = 75>
class FlatSet {
 public:
  explicit FlatSet(std::size_t initial_capacity = 16) : table_(initial_capacity) {}

  // Inserts `key`; false when it was already there.
  bool insert(const Key& key) {
    GLRMASK_DCHECK(!(key == KeyInfo::empty()), "the empty key cannot be stored");
    const auto [slot, claimed] =
        table_.find_or_claim(KeyInfo::hash(key), [&](const Key& k) { return k == key; });
    if (claimed) *slot = key;
    return claimed;
  }
  bool contains(const Key& key) const {
    return table_.find(KeyInfo::hash(key), [&](const Key& k) { return k == key; }) != nullptr;
  }

  std::size_t size() const { return table_.size(); }
  bool empty() const { return table_.empty(); }
  void reserve(std::size_t count) { table_.reserve(count); }
  void clear() { table_.clear(); }

 private:
  struct Traits {
    static constexpr std::size_t kMaxLoadPercent = MaxLoadPercent;
    static bool is_vacant(const Key& key) { return key == KeyInfo::empty(); }
    static Key vacant() { return KeyInfo::empty(); }
    static std::uint64_t hash(const Key& key) { return KeyInfo::hash(key); }
  };

  FlatTable<Key, Traits> table_;
};

}  // namespace glrmask
