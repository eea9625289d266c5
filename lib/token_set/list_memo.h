// The memo behind TokenSetPool::unite_all: a sorted list of set ids → the id of their union.
//
// The Parser DWA builder unites the outcomes of a configuration's successors in one go; the same
// lists recur across configurations, and a union of many large sets costs far more than finding
// the list again. Lists are stored flat, one after another, and found by open addressing over
// their 64-bit hash; a slot keeps the hash, so most probes that miss never touch the list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/token_set/token_set_id.h"

namespace glrmask {

class TokenSetListMemo {
 public:
  // A hash of the list's ids in order.
  static std::uint64_t hash(std::span<const TokenSetId> list);

  // The stored result for `list` (whose hash is `hash`), or nullptr.
  const std::uint32_t* find(std::span<const TokenSetId> list, std::uint64_t hash) const;
  // Records the result for a list that find() did not know.
  void insert(std::span<const TokenSetId> list, std::uint64_t hash, std::uint32_t result);

  std::size_t size() const { return size_; }
  std::size_t memory_bytes() const {
    return slots_.capacity() * sizeof(Slot) + ids_.capacity() * sizeof(std::uint32_t);
  }
  void clear() {
    slots_ = {};
    ids_ = {};
    size_ = 0;
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t begin = 0;  // the list is ids_[begin, begin + size)
    std::uint32_t size = 0;   // 0 = vacant (lists have at least one id)
    std::uint32_t result = 0;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  bool same(const Slot& slot, std::span<const TokenSetId> list, std::uint64_t hash) const;
  void place(const Slot& slot);
  void grow();

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> ids_;
  std::size_t size_ = 0;
};

}  // namespace glrmask
