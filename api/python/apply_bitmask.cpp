#include "api/python/apply_bitmask.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>

#include "glrmask/error.hpp"

namespace glrmask::python {
namespace {

// The bit patterns of -infinity in each type.
constexpr std::uint16_t kHalfNegativeInfinity = 0xfc00;
constexpr std::uint16_t kBFloat16NegativeInfinity = 0xff80;

template <class T>
void mask_row(T* row, std::size_t columns, const std::int32_t* words, std::size_t word_count,
              std::size_t allowed_limit, T negative_infinity) {
  // Columns [0, allowed_limit) follow their bits; the rest are -infinity.
  const std::size_t limit = std::min({columns, allowed_limit, word_count * 32});
  const std::size_t full_words = limit / 32;
  for (std::size_t w = 0; w < full_words; ++w) {
    const auto bits = static_cast<std::uint32_t>(words[w]);
    if (bits == 0xffffffffu) continue;
    T* out = row + w * 32;
    if (bits == 0) {
      std::fill(out, out + 32, negative_infinity);
      continue;
    }
    std::uint32_t cleared = ~bits;
    while (cleared != 0) {
      out[std::countr_zero(cleared)] = negative_infinity;
      cleared &= cleared - 1;
    }
  }
  for (std::size_t column = full_words * 32; column < limit; ++column)
    if (((static_cast<std::uint32_t>(words[column / 32]) >> (column % 32)) & 1u) == 0)
      row[column] = negative_infinity;
  std::fill(row + limit, row + columns, negative_infinity);
}

template <class T>
void apply_rows(T* data, const LogitsView& logits, const BitmaskView& bitmask,
                std::span<const std::int64_t> indices, std::size_t vocab_size,
                T negative_infinity) {
  const std::size_t allowed =
      vocab_size == 0 ? std::numeric_limits<std::size_t>::max() : vocab_size;
  const auto one = [&](std::size_t r) {
    mask_row(data + static_cast<std::ptrdiff_t>(r) * logits.row_stride, logits.columns,
             bitmask.data + r * bitmask.words, bitmask.words, allowed, negative_infinity);
  };
  if (indices.empty()) {
    if (bitmask.rows < logits.rows)
      throw Error(
          fmt::format("the bitmask has {} rows for {} rows of logits", bitmask.rows, logits.rows),
          ErrorCode::kInvalidArgument);
    for (std::size_t r = 0; r < logits.rows; ++r) one(r);
    return;
  }
  for (const std::int64_t index : indices) {
    if (index < 0 || static_cast<std::size_t>(index) >= logits.rows ||
        static_cast<std::size_t>(index) >= bitmask.rows)
      throw Error(fmt::format("index {} is out of range ({} rows of logits, {} of the bitmask)",
                              index, logits.rows, bitmask.rows),
                  ErrorCode::kInvalidArgument);
    one(static_cast<std::size_t>(index));
  }
}

}  // namespace

void apply_token_bitmask(const LogitsView& logits, const BitmaskView& bitmask,
                         std::span<const std::int64_t> indices, std::size_t vocab_size) {
  switch (logits.type) {
    case LogitType::kFloat32:
      apply_rows(static_cast<float*>(logits.data), logits, bitmask, indices, vocab_size,
                 -std::numeric_limits<float>::infinity());
      return;
    case LogitType::kFloat16:
      apply_rows(static_cast<std::uint16_t*>(logits.data), logits, bitmask, indices, vocab_size,
                 kHalfNegativeInfinity);
      return;
    case LogitType::kBFloat16:
      apply_rows(static_cast<std::uint16_t*>(logits.data), logits, bitmask, indices, vocab_size,
                 kBFloat16NegativeInfinity);
      return;
  }
}

}  // namespace glrmask::python
