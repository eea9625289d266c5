// The Parser DWA's weights as short rows of bits over the mask classes (token_classes.h), so that
// get_mask can tell which dense mask a union of weights will be without building it.
//
// Why: the dense-mask cache keyed a result by its weight ids, but different sets of weights often
// unite to the same tokens (on SynCode's Java programs with Llama-3, 927 distinct weight sets gave
// only 298 distinct masks). Every class is a set of tokens that no weight separates, so a weight is
// exactly a union of classes, and two unions of weights are equal iff the unions of their rows are.
// A row has one bit per class (1,300-1,800 classes for SynCode's grammars with Llama-3: 21-28
// words against the 2,004 words of a dense mask), so uniting rows and hashing the result costs
// about what one probe of the cache does.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "lib/core/binary_io.h"
#include "lib/token_set/token_set.h"
#include "lib/token_set/token_set_id.h"
#include "mask/compiled/token_classes.h"

namespace glrmask::mask {

class WeightClassRows {
 public:
  WeightClassRows() = default;
  // The rows of `weights` (any order, duplicates and the empty set allowed) of `pool` over the
  // classes of `partition`, which must be a partition no weight separates (mask_classes()).
  WeightClassRows(const TokenSetPool& pool, std::span<const TokenSetId> weights,
                  const TokenPartition& partition);

  std::uint32_t num_classes() const { return num_classes_; }
  std::size_t row_words() const { return row_words_; }
  std::size_t num_rows() const { return words_.size() / (row_words_ == 0 ? 1 : row_words_); }
  // The row of `weight`, or nullptr when it has none (the empty set, or not one of the weights).
  const std::uint64_t* row(TokenSetId weight) const {
    if (weight.value() >= row_of_.size()) return nullptr;
    const std::int32_t index = row_of_[weight.value()];
    return index < 0 ? nullptr : words_.data() + std::size_t(index) * row_words_;
  }

  // For compiled artifacts; `stored_id` renumbers the sets as the artifact does. read() checks
  // that every row names an existing set once, holds a class and no bit past the last class.
  void write(BinaryWriter& out, const std::function<std::uint32_t(TokenSetId)>& stored_id) const;
  static WeightClassRows read(BinaryReader& in, std::size_t token_sets);

 private:
  std::uint32_t num_classes_ = 0;
  std::size_t row_words_ = 0;
  std::vector<std::int32_t> row_of_;  // by set id: the row's index, -1 for none
  std::vector<std::uint64_t> words_;  // the rows back to back, row_words_ each
};

}  // namespace glrmask::mask
