// Token strings -> ids, for building the merge table (three lookups per merge, half a million
// merges) and for whole-word lookups while encoding. A FlatKeyStore of the project's hash-table
// family (lib/core/flat_key_store.h): one flat slot array, keys back to back in one buffer, so a
// lookup touches one slot and one key, where a node-based std::unordered_map would also chase a
// node pointer. At most half full, so probe runs stay short on the encoder's hot path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "lib/core/flat_key_store.h"
#include "lib/core/token_id.h"

namespace glrmask {

class TokenStringTable {
 public:
  static constexpr TokenId kAbsent = ~TokenId{0};

  // Makes room for `count` keys of `total_bytes` bytes in all.
  void reserve(std::size_t count, std::size_t total_bytes) { keys_.reserve(count, total_bytes); }

  // Maps `key` to `id`, replacing an earlier id of the same key.
  void insert_or_assign(std::string_view key, TokenId id) {
    keys_.insert_or_assign(bytes_of(key), hash_of(key), id);
  }

  // The id of `key`, or kAbsent.
  TokenId find(std::string_view key) const {
    const TokenId* id = keys_.find(bytes_of(key), hash_of(key));
    return id == nullptr ? kAbsent : *id;
  }

  std::size_t size() const { return keys_.size(); }

  // Calls `visit(key, id)` for every entry, in no particular order.
  template <typename Visit>
  void for_each(Visit visit) const {
    keys_.for_each([&](std::span<const char> key, TokenId id) {
      visit(std::string_view(key.data(), key.size()), id);
    });
  }

 private:
  static std::span<const char> bytes_of(std::string_view key) { return {key.data(), key.size()}; }
  static std::uint64_t hash_of(std::string_view key);

  FlatKeyStore<char, TokenId, 50> keys_;
};

}  // namespace glrmask
