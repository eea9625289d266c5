// Logits masked in place by a token bitmask, for the arrays inference engines hold: rows of
// float32, float16 or bfloat16 with any row stride (a numpy array or a CPU torch tensor, read
// through its data pointer), every row or the rows `indices` names. A logit is set to -infinity
// where its token's bit is clear, and also past the bitmask's width or the vocabulary size given
// (a model's padded vocabulary: no id there may be sampled).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace glrmask::python {

enum class LogitType : std::uint8_t { kFloat32, kFloat16, kBFloat16 };

struct LogitsView {
  void* data = nullptr;
  LogitType type = LogitType::kFloat32;
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::ptrdiff_t row_stride = 0;  // in elements
};

struct BitmaskView {
  const std::int32_t* data = nullptr;
  std::size_t rows = 0;
  std::size_t words = 0;  // per row; rows are contiguous
};

// Masks logits row r with bitmask row r, for every r in `indices` (all rows when empty), the
// columns at or past `vocab_size` (0: no limit beyond the bitmask's 32 * words) included.
// Throws glrmask::Error (kInvalidArgument) naming the row when an index is out of range for
// either array.
void apply_token_bitmask(const LogitsView& logits, const BitmaskView& bitmask,
                         std::span<const std::int64_t> indices, std::size_t vocab_size);

}  // namespace glrmask::python
