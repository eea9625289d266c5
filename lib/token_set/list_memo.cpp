#include "lib/token_set/list_memo.h"

#include <algorithm>

#include "lib/core/hash_mix.h"

namespace glrmask {

std::uint64_t TokenSetListMemo::hash(std::span<const TokenSetId> list) {
  std::uint64_t h = list.size();
  for (const TokenSetId id : list) h = splitmix64_mix(h ^ id.value());
  return h;
}

bool TokenSetListMemo::same(const Slot& slot, std::span<const TokenSetId> list,
                            std::uint64_t hash) const {
  if (slot.hash != hash || slot.size != list.size()) return false;
  const std::uint32_t* stored = ids_.data() + slot.begin;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (stored[i] != list[i].value()) return false;
  return true;
}

const std::uint32_t* TokenSetListMemo::find(std::span<const TokenSetId> list,
                                            std::uint64_t hash) const {
  if (slots_.empty()) return nullptr;
  for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
    const Slot& slot = slots_[i];
    if (slot.size == 0) return nullptr;
    if (same(slot, list, hash)) return &slot.result;
  }
}

void TokenSetListMemo::insert(std::span<const TokenSetId> list, std::uint64_t hash,
                              std::uint32_t result) {
  if (list.empty()) return;  // size 0 marks a vacant slot
  if (4 * (size_ + 1) > 3 * slots_.size()) grow();
  Slot slot{hash, static_cast<std::uint32_t>(ids_.size()), static_cast<std::uint32_t>(list.size()),
            result};
  for (const TokenSetId id : list) ids_.push_back(id.value());
  place(slot);
  ++size_;
}

void TokenSetListMemo::place(const Slot& slot) {
  std::size_t i = slot.hash & mask();
  while (slots_[i].size != 0) i = (i + 1) & mask();
  slots_[i] = slot;
}

void TokenSetListMemo::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<std::size_t>(64, old.size() * 2), Slot{});
  for (const Slot& slot : old)
    if (slot.size != 0) place(slot);
}

}  // namespace glrmask
