#include "lib/tokenizer/bpe_merge_table.h"

#include <utility>

namespace glrmask {

void MergeTable::reserve(std::size_t count) {
  // At most half full, so probe sequences stay short.
  int bits = 4;
  while ((std::size_t{1} << bits) < 2 * count) ++bits;
  if ((std::size_t{1} << bits) <= slots_.size()) return;
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(std::size_t{1} << bits));
  mask_ = slots_.size() - 1;
  shift_ = 64 - bits;
  size_ = 0;
  for (const Slot& slot : old)
    if (slot.key != kEmpty)
      insert(static_cast<TokenId>(slot.key >> 32), static_cast<TokenId>(slot.key), slot.merge);
}

void MergeTable::insert(TokenId left, TokenId right, Merge merge) {
  if (2 * (size_ + 1) > slots_.size()) reserve(2 * (size_ + 1));
  const std::uint64_t key = pack(left, right);
  for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
    Slot& slot = slots_[i];
    if (slot.key == key) {
      slot.merge = merge;
      return;
    }
    if (slot.key == kEmpty) {
      slot = {key, merge};
      ++size_;
      return;
    }
  }
}

}  // namespace glrmask
