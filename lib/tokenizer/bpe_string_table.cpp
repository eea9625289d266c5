#include "lib/tokenizer/bpe_string_table.h"

#include <functional>
#include <utility>

#include "lib/core/error.h"

namespace glrmask {

std::uint64_t TokenStringTable::hash_of(std::string_view key) {
  // std::hash gives 64 well-mixed bits on 64-bit targets; the low bits pick the slot, the high
  // ones are the tag.
  return std::hash<std::string_view>{}(key);
}

void TokenStringTable::reserve(std::size_t count, std::size_t total_bytes) {
  bytes_.reserve(total_bytes);
  grow(count);
}

void TokenStringTable::grow(std::size_t count) {
  std::size_t capacity = 16;
  while (capacity < 2 * count) capacity *= 2;  // at most half full
  if (capacity <= slots_.size()) return;
  std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
  mask_ = capacity - 1;
  for (const Slot& slot : old) {
    if (slot.id == kAbsent) continue;
    const std::uint64_t hash = hash_of(std::string_view(bytes_).substr(slot.offset, slot.length));
    std::size_t i = hash & mask_;
    while (slots_[i].id != kAbsent) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

void TokenStringTable::insert_or_assign(std::string_view key, TokenId id) {
  if (2 * (size_ + 1) > slots_.size()) grow(size_ + 1);
  const std::uint64_t hash = hash_of(key);
  const auto tag = static_cast<std::uint32_t>(hash >> 32);
  for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
    Slot& slot = slots_[i];
    if (slot.id == kAbsent) {
      if (bytes_.size() + key.size() > UINT32_MAX) throw Error("token strings exceed 4 GiB");
      slot = {tag, static_cast<std::uint32_t>(bytes_.size()),
              static_cast<std::uint32_t>(key.size()), id};
      bytes_.append(key);
      ++size_;
      return;
    }
    if (slot.hash == tag && std::string_view(bytes_).substr(slot.offset, slot.length) == key) {
      slot.id = id;
      return;
    }
  }
}

TokenId TokenStringTable::find(std::string_view key) const {
  if (slots_.empty()) return kAbsent;
  const std::uint64_t hash = hash_of(key);
  const auto tag = static_cast<std::uint32_t>(hash >> 32);
  for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.id == kAbsent) return kAbsent;
    if (slot.hash == tag && slot.length == key.size() &&
        std::string_view(bytes_).substr(slot.offset, slot.length) == key)
      return slot.id;
  }
}

}  // namespace glrmask
