// A flat hash index (flat_table.h) of 32-bit ids whose keys live in the caller's storage: an
// interner keeps its values in an array and finds the id of a value here by its hash; a cache
// finds the slot that holds a key. A slot is 8 bytes, the id and the top 32 bits of the hash it
// was placed under, which serve as a tag (most probes that miss never touch the caller's keys)
// and to re-place entries when the table grows or an entry is erased, so the caller's keys are
// read only to confirm a match.
//
// The caller's hash must be well mixed in its high bits (flat_table.h); a caller that splits its
// ids over several indexes (shards) picks the index with the hash's low bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lib/core/check.h"
#include "lib/core/flat_table.h"

namespace glrmask {

template <std::size_t MaxLoadPercent = 75>
class FlatIdIndex {
 public:
  static constexpr std::uint32_t kNoId = ~std::uint32_t{0};  // the one id that cannot be stored

  explicit FlatIdIndex(std::size_t initial_capacity = 16) : table_(initial_capacity) {}

  // The id placed under `hash` that `is_key(id)` accepts, or kNoId.
  template <class IsKey>
  std::uint32_t find(std::uint64_t hash, IsKey&& is_key) const {
    const std::uint32_t tag = tag_of(hash);
    const Slot* slot =
        table_.find(hash, [&](const Slot& s) { return s.tag == tag && is_key(s.id); });
    return slot == nullptr ? kNoId : slot->id;
  }

  // The id `is_key` accepts, or else `id` placed under `hash` (second == true).
  template <class IsKey>
  std::pair<std::uint32_t, bool> find_or_insert(std::uint64_t hash, std::uint32_t id,
                                                IsKey&& is_key) {
    GLRMASK_DCHECK(id != kNoId);
    const std::uint32_t tag = tag_of(hash);
    const auto [slot, claimed] =
        table_.find_or_claim(hash, [&](const Slot& s) { return s.tag == tag && is_key(s.id); });
    if (claimed) *slot = {tag, id};
    return {slot->id, claimed};
  }

  // Places `id` under `hash`; the caller knows no equal key is indexed.
  void insert_new(std::uint64_t hash, std::uint32_t id) {
    GLRMASK_DCHECK(id != kNoId);
    table_.insert_new({tag_of(hash), id});
  }

  // Removes `id`, which must have been placed under `hash`.
  void erase(std::uint64_t hash, std::uint32_t id) {
    const std::uint32_t tag = tag_of(hash);
    Slot* slot = table_.find(hash, [&](const Slot& s) { return s.tag == tag && s.id == id; });
    GLRMASK_DCHECK(slot != nullptr, "id {} is not in the index", id);
    table_.erase(slot);
  }

  std::size_t size() const { return table_.size(); }
  std::size_t capacity() const { return table_.capacity(); }
  std::size_t memory_bytes() const { return table_.memory_bytes(); }
  void reserve(std::size_t count) { table_.reserve(count); }
  void clear() { table_.clear(); }

 private:
  struct Slot {
    std::uint32_t tag;
    std::uint32_t id;  // kNoId: vacant
  };
  // The high half of the hash: home slots come from the high bits, so the tag alone re-places an
  // entry for any capacity up to 2^32 slots.
  static std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }
  struct Traits {
    static constexpr std::size_t kMaxLoadPercent = MaxLoadPercent;
    static bool is_vacant(const Slot& slot) { return slot.id == kNoId; }
    static Slot vacant() { return Slot{0, kNoId}; }
    static std::uint64_t hash(const Slot& slot) { return std::uint64_t{slot.tag} << 32; }
  };

  FlatTable<Slot, Traits> table_;
};

}  // namespace glrmask
