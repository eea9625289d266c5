// The memo behind TokenSetPool::unite_all: a sorted list of set ids → the id of their union.
//
// The Parser DWA builder unites the outcomes of a configuration's successors in one go; the same
// lists recur across configurations, and a union of many large sets costs far more than finding
// the list again. A FlatKeyStore of the project's hash-table family (lib/core/flat_key_store.h):
// lists are stored flat, one after another, and found by open addressing over their 64-bit hash;
// a slot keeps 32 bits of the hash, so most probes that miss never touch the list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "lib/core/flat_key_store.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask {

class TokenSetListMemo {
 public:
  // A hash of the list's ids in order.
  static std::uint64_t hash(std::span<const TokenSetId> list);

  // The stored result for `list` (whose hash is `hash`), or nullptr.
  const std::uint32_t* find(std::span<const TokenSetId> list, std::uint64_t hash) const {
    return lists_.find(list, hash);
  }
  // Records the result for a list that find() did not know.
  void insert(std::span<const TokenSetId> list, std::uint64_t hash, std::uint32_t result) {
    lists_.insert_or_assign(list, hash, result);
  }

  std::size_t size() const { return lists_.size(); }
  std::size_t memory_bytes() const { return lists_.memory_bytes(); }
  // Empties the memo and gives its memory back.
  void clear() { lists_.release(); }

 private:
  FlatKeyStore<TokenSetId, std::uint32_t> lists_;
};

}  // namespace glrmask
