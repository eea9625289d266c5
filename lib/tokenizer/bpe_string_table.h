// Token strings -> ids, for building the merge table (three lookups per merge, half a million
// merges) and for whole-word lookups while encoding. An open-addressing table over one flat slot
// array whose keys live back to back in one buffer: a lookup touches one slot and one key, where a
// node-based std::unordered_map would also chase a node pointer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/token_id.h"

namespace glrmask {

class TokenStringTable {
 public:
  static constexpr TokenId kAbsent = ~TokenId{0};

  // Makes room for `count` keys of `total_bytes` bytes in all.
  void reserve(std::size_t count, std::size_t total_bytes);

  // Maps `key` to `id`, replacing an earlier id of the same key.
  void insert_or_assign(std::string_view key, TokenId id);

  // The id of `key`, or kAbsent.
  TokenId find(std::string_view key) const;

  std::size_t size() const { return size_; }

  // Calls `visit(key, id)` for every entry, in no particular order.
  template <typename Visit>
  void for_each(Visit visit) const {
    for (const Slot& slot : slots_)
      if (slot.id != kAbsent)
        visit(std::string_view(bytes_).substr(slot.offset, slot.length), slot.id);
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;  // high bits of the key's hash, checked before the key
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    TokenId id = kAbsent;  // kAbsent: empty slot
  };
  static std::uint64_t hash_of(std::string_view key);
  void grow(std::size_t count);

  std::string bytes_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace glrmask
