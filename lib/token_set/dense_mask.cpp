#include "lib/token_set/dense_mask.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "lib/core/error.h"

namespace glrmask {

void or_dense_words(std::span<std::uint32_t> into, std::span<const std::uint32_t> from) {
  or_dense_words(into.data(), from.data(), from.size());
}

void or_dense_words(std::uint32_t* into, const void* from, std::size_t count) {
  // This is the runtime's inner loop (OR-ing cached masks). GCC's -O2 does not vectorize a loop
  // that needs a remainder, so use the GCC/Clang vector extension: 8 words per step, two SSE2
  // or one AVX2 operation. memcpy loads and stores accept any alignment and any source type.
  using Block = std::uint32_t __attribute__((vector_size(32)));
  const auto* in = static_cast<const unsigned char*>(from);
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    Block a, b;
    std::memcpy(&a, into + i, sizeof a);
    std::memcpy(&b, in + i * 4, sizeof b);
    a |= b;
    std::memcpy(into + i, &a, sizeof a);
  }
  for (; i < count; ++i) {
    std::uint32_t word;
    std::memcpy(&word, in + i * 4, sizeof word);
    into[i] |= word;
  }
}

void DenseMask::clear() {
  std::fill(words_.begin(), words_.end(), 0u);
}

std::uint64_t DenseMask::count() const {
  std::uint64_t total = 0;
  for (std::uint32_t word : words_) total += static_cast<std::uint64_t>(std::popcount(word));
  return total;
}

std::vector<TokenId> DenseMask::to_vector() const {
  std::vector<TokenId> tokens;
  for (std::size_t w = 0; w < words_.size(); ++w) {
    for (std::uint32_t bits = words_[w]; bits != 0; bits &= bits - 1) {
      tokens.push_back(
          static_cast<TokenId>(w * 32 + static_cast<std::size_t>(std::countr_zero(bits))));
    }
  }
  return tokens;
}

DenseMask& DenseMask::operator|=(const DenseMask& other) {
  check_same_universe(other, "|=");
  or_dense_words(words_, other.words_);
  return *this;
}

DenseMask& DenseMask::operator&=(const DenseMask& other) {
  check_same_universe(other, "&=");
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= other.words_[i];
  return *this;
}

void DenseMask::throw_out_of_range(TokenId token) const {
  throw Error(
      fmt::format("token id {} is out of range for a mask over {} tokens", token, universe_size_),
      ErrorCode::kInvalidArgument, ErrorLocation::of_token(static_cast<std::int64_t>(token)));
}

void DenseMask::check_same_universe(const DenseMask& other, const char* operation) const {
  if (other.universe_size_ != universe_size_) {
    throw Error(fmt::format("DenseMask {}: universe sizes differ ({} vs {} tokens)", operation,
                            universe_size_, other.universe_size_),
                ErrorCode::kInvalidArgument);
  }
}

}  // namespace glrmask
