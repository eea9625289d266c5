// The memo behind TokenSetPool's ∪, ∩ and −: a map (left id, right id) → result id.
//
// Compiling a grammar asks for the same few million pairs over and over, so the table is flat
// (open addressing, linear probing, 12-byte entries, no node allocation) rather than a node-based
// std::unordered_map. The pool never stores the pair (0, 0) — every operation on the empty set is
// answered without the memo — so that pair marks a vacant slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace glrmask {

class TokenSetMemo {
 public:
  // The stored result for (left, right), or nullptr.
  const std::uint32_t* find(std::uint32_t left, std::uint32_t right) const {
    if (entries_.empty()) return nullptr;
    for (std::size_t slot = home(left, right);; slot = (slot + 1) & mask()) {
      const Entry& e = entries_[slot];
      if (e.left == left && e.right == right) return &e.result;
      if (e.left == 0 && e.right == 0) return nullptr;
    }
  }

  // Records the result for a pair that find() did not know.
  void insert(std::uint32_t left, std::uint32_t right, std::uint32_t result) {
    if (4 * (size_ + 1) > 3 * entries_.size()) grow();
    place({left, right, result});
    ++size_;
  }

  std::size_t size() const { return size_; }
  std::size_t memory_bytes() const { return entries_.capacity() * sizeof(Entry); }
  void clear() {
    entries_ = {};
    size_ = 0;
  }

 private:
  struct Entry {
    std::uint32_t left = 0;
    std::uint32_t right = 0;
    std::uint32_t result = 0;
  };

  std::size_t mask() const { return entries_.size() - 1; }
  std::size_t home(std::uint32_t left, std::uint32_t right) const {
    // Ids are small dense integers, so the pair needs real mixing before masking.
    std::uint64_t h = (std::uint64_t{left} << 32 | right) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & mask();
  }
  void place(const Entry& entry) {
    std::size_t slot = home(entry.left, entry.right);
    while (entries_[slot].left != 0 || entries_[slot].right != 0) slot = (slot + 1) & mask();
    entries_[slot] = entry;
  }
  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 1024 : 2 * old.size(), Entry{});
    for (const Entry& e : old) {
      if (e.left != 0 || e.right != 0) place(e);
    }
  }

  std::vector<Entry> entries_;  // size is zero or a power of two
  std::size_t size_ = 0;
};

}  // namespace glrmask
