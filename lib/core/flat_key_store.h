// A flat hash map (flat_table.h) from variable-length keys (byte strings, lists of ids) to small
// values, whose keys are copied back to back into one buffer: a lookup touches one slot and one
// key, where a std::unordered_map of std::string or std::vector keys would also chase a node and
// a heap block per entry. A slot is the top 32 bits of the key's hash (a tag checked before the
// key, and all the table needs to re-place the entry when it grows), the key's place in the
// buffer, and the value. Keys are never removed; the buffer holds at most 2^32 elements.
//
// The caller hashes the key (so a hash computed once serves a find and the insert after it); the
// hash must be well mixed in its high bits (flat_table.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/core/flat_table.h"

namespace glrmask {

template <class Elem, class Value, std::size_t MaxLoadPercent = 75>
class FlatKeyStore {
  static_assert(std::is_trivially_copyable_v<Elem>);

 public:
  explicit FlatKeyStore(std::size_t initial_capacity = 16) : table_(initial_capacity) {}

  // The value stored under `key` (whose hash is `hash`), or nullptr.
  const Value* find(std::span<const Elem> key, std::uint64_t hash) const {
    const Slot* slot = table_.find(hash, same_key(key, hash));
    return slot == nullptr ? nullptr : &slot->value;
  }

  // The value under `key`; stores a copy of the key with `value` first when it is new
  // (second == true).
  std::pair<Value, bool> find_or_insert(std::span<const Elem> key, std::uint64_t hash,
                                        Value value) {
    check_room(key);
    const auto [slot, claimed] = table_.find_or_claim(hash, same_key(key, hash));
    if (claimed) *slot = {tag_of(hash), append(key), static_cast<std::uint32_t>(key.size()), value};
    return {slot->value, claimed};
  }

  // Stores `value` under `key`, replacing what was there.
  void insert_or_assign(std::span<const Elem> key, std::uint64_t hash, Value value) {
    check_room(key);
    const auto [slot, claimed] = table_.find_or_claim(hash, same_key(key, hash));
    if (claimed) {
      *slot = {tag_of(hash), append(key), static_cast<std::uint32_t>(key.size()), value};
    } else {
      slot->value = value;
    }
  }

  // Makes room for `count` keys of `total_elements` elements in all.
  void reserve(std::size_t count, std::size_t total_elements) {
    table_.reserve(count);
    elements_.reserve(total_elements);
  }

  std::size_t size() const { return table_.size(); }
  std::size_t memory_bytes() const {
    return table_.memory_bytes() + elements_.capacity() * sizeof(Elem);
  }
  // Empties the store and gives its memory back.
  void release() {
    table_.release();
    std::vector<Elem>().swap(elements_);
  }

  // Calls visit(key, value) for every entry, in no meaningful order.
  template <class Visit>
  void for_each(Visit&& visit) const {
    table_.for_each([&](const Slot& slot) { visit(key_of(slot), slot.value); });
  }

 private:
  struct Slot {
    std::uint32_t tag;
    std::uint32_t offset;  // the key is elements_[offset, offset + length)
    std::uint32_t length;  // kVacant: no entry
    Value value;
  };
  static constexpr std::uint32_t kVacant = ~std::uint32_t{0};

  static std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }
  std::span<const Elem> key_of(const Slot& slot) const {
    return {elements_.data() + slot.offset, slot.length};
  }
  auto same_key(std::span<const Elem> key, std::uint64_t hash) const {
    return [this, key, tag = tag_of(hash)](const Slot& slot) {
      if (slot.tag != tag || slot.length != key.size()) return false;
      const Elem* stored = elements_.data() + slot.offset;
      return std::equal(key.begin(), key.end(), stored);
    };
  }
  void check_room(std::span<const Elem> key) const {
    if (elements_.size() + key.size() >= kVacant)
      throw Error("hash table: keys exceed 2^32 elements in all", ErrorCode::kLimit);
  }
  std::uint32_t append(std::span<const Elem> key) {
    const auto offset = static_cast<std::uint32_t>(elements_.size());
    elements_.insert(elements_.end(), key.begin(), key.end());
    return offset;
  }

  struct Traits {
    static constexpr std::size_t kMaxLoadPercent = MaxLoadPercent;
    static bool is_vacant(const Slot& slot) { return slot.length == kVacant; }
    static Slot vacant() { return Slot{0, 0, kVacant, Value{}}; }
    static std::uint64_t hash(const Slot& slot) { return std::uint64_t{slot.tag} << 32; }
  };

  FlatTable<Slot, Traits> table_;
  std::vector<Elem> elements_;
};

}  // namespace glrmask
