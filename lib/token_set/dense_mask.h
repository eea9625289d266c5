// A token mask in the layout inference engines apply to logits: bit (i % 32) of 32-bit word i / 32
// is token i. Bits at or beyond the universe size (the vocabulary size) are always zero, so a mask
// can be handed to a sampler without trimming.
//
// The words are 64-byte aligned so OR-ing masks and copying them to a device stay on whole cache
// lines. Checked accessors (set/test/reset) throw glrmask::Error on an out-of-range token id; the
// hot path works on words() directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "lib/core/token_id.h"

namespace glrmask {

// Number of 32-bit words a mask over `universe_size` tokens needs.
constexpr std::size_t dense_word_count(std::uint32_t universe_size) {
  return (static_cast<std::size_t>(universe_size) + 31) / 32;
}

// ORs `from` into the first from.size() words of `into` (into.size() >= from.size()).
void or_dense_words(std::span<std::uint32_t> into, std::span<const std::uint32_t> from);
// The same for `count` words stored at `from` in native byte order, whatever their declared type
// (e.g. a bitset of 64-bit words on a little-endian machine) and alignment.
void or_dense_words(std::uint32_t* into, const void* from, std::size_t count);

namespace detail {
// std::allocator with a fixed over-alignment; std::vector then gives aligned storage for free.
template <class T, std::size_t kAlignment>
struct AlignedAllocator {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, kAlignment>;
  };
  AlignedAllocator() = default;
  template <class U>
  explicit AlignedAllocator(const AlignedAllocator<U, kAlignment>&) noexcept {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kAlignment}));
  }
  void deallocate(T* p, std::size_t) noexcept {
    ::operator delete (p, std::align_val_t{kAlignment});
  }
  friend bool operator==(const AlignedAllocator&, const AlignedAllocator&) { return true; }
};
}  // namespace detail

class DenseMask {
 public:
  static constexpr std::size_t kAlignment = 64;

  DenseMask() = default;  // over the empty universe
  explicit DenseMask(std::uint32_t universe_size)
      : universe_size_(universe_size), words_(dense_word_count(universe_size), 0) {}

  std::uint32_t universe_size() const { return universe_size_; }
  std::size_t word_count() const { return words_.size(); }
  std::span<std::uint32_t> words() { return words_; }
  std::span<const std::uint32_t> words() const { return words_; }
  std::uint32_t* data() { return words_.data(); }
  const std::uint32_t* data() const { return words_.data(); }

  bool test(TokenId token) const {
    check(token);
    return (words_[token / 32] >> (token % 32)) & 1u;
  }
  void set(TokenId token) {
    check(token);
    words_[token / 32] |= std::uint32_t{1} << (token % 32);
  }
  void reset(TokenId token) {
    check(token);
    words_[token / 32] &= ~(std::uint32_t{1} << (token % 32));
  }
  void clear();
  std::uint64_t count() const;  // number of tokens in the mask
  std::vector<TokenId> to_vector() const;

  // Both masks must have the same universe size (throws glrmask::Error otherwise).
  DenseMask& operator|=(const DenseMask& other);
  DenseMask& operator&=(const DenseMask& other);

  friend bool operator==(const DenseMask& a, const DenseMask& b) {
    return a.universe_size_ == b.universe_size_ && a.words_ == b.words_;
  }

 private:
  void check(TokenId token) const {
    if (token >= universe_size_) throw_out_of_range(token);
  }
  [[noreturn]] void throw_out_of_range(TokenId token) const;
  void check_same_universe(const DenseMask& other, const char* operation) const;

  std::uint32_t universe_size_ = 0;
  std::vector<std::uint32_t, detail::AlignedAllocator<std::uint32_t, kAlignment>> words_;
};

}  // namespace glrmask
