#include "mask/compiled/weight_class_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <utility>

namespace glrmask::mask {

namespace {

constexpr std::uint32_t kWeightClassSectionTag = 0x53574357;  // "WCWS"

}  // namespace

WeightClassRows::WeightClassRows(const TokenSetPool& pool, std::span<const TokenSetId> weights,
                                 const TokenPartition& partition)
    : num_classes_(static_cast<std::uint32_t>(partition.num_classes())),
      row_words_((partition.num_classes() + 63) / 64) {
  // One representative per class: a weight holds a class iff it holds its representative, so
  // intersecting the weight with the representatives finds its classes without reading the rest
  // of the weight.
  RoaringBitmap representatives;
  for (std::uint32_t cls = 0; cls < num_classes_; ++cls)
    representatives.add(partition.members(cls).front());
  representatives.runOptimize();
  std::uint32_t highest = 0;
  for (const TokenSetId weight : weights) highest = std::max(highest, weight.value());
  row_of_.assign(weights.empty() ? 0 : std::size_t{highest} + 1, -1);
  for (const TokenSetId weight : weights) {
    if (weight.is_empty() || row_of_[weight.value()] >= 0) continue;
    row_of_[weight.value()] = static_cast<std::int32_t>(words_.size() / row_words_);
    words_.resize(words_.size() + row_words_, 0);
    std::uint64_t* row = words_.data() + words_.size() - row_words_;
    const RoaringBitmap held = pool.get(weight) & representatives;
    for (const std::uint32_t token : held) {
      const std::uint32_t cls = partition.class_of(token);
      row[cls / 64] |= std::uint64_t{1} << (cls % 64);
    }
  }
}

void WeightClassRows::write(BinaryWriter& out,
                            const std::function<std::uint32_t(TokenSetId)>& stored_id) const {
  std::vector<std::pair<std::uint32_t, std::int32_t>> rows;  // stored id, row index
  for (std::uint32_t id = 0; id < row_of_.size(); ++id)
    if (row_of_[id] >= 0) rows.emplace_back(stored_id(TokenSetId{id}), row_of_[id]);
  std::sort(rows.begin(), rows.end());
  std::vector<std::uint32_t> ids;
  std::vector<std::uint64_t> words;
  ids.reserve(rows.size());
  words.reserve(rows.size() * row_words_);
  for (const auto& [id, index] : rows) {
    ids.push_back(id);
    const std::uint64_t* row = words_.data() + std::size_t(index) * row_words_;
    words.insert(words.end(), row, row + row_words_);
  }
  out.put(kWeightClassSectionTag);
  out.put<std::uint32_t>(num_classes_);
  out.put_array<std::uint32_t>(ids);
  out.put_array<std::uint64_t>(words);
}

WeightClassRows WeightClassRows::read(BinaryReader& in, std::size_t token_sets) {
  if (in.get<std::uint32_t>("weight class section tag") != kWeightClassSectionTag)
    in.fail("expected the weight class section");
  WeightClassRows rows;
  rows.num_classes_ = in.get<std::uint32_t>("mask class count");
  rows.row_words_ = (std::size_t{rows.num_classes_} + 63) / 64;
  const std::vector<std::uint32_t> ids = in.get_array<std::uint32_t>("weights with class rows");
  rows.words_ = in.get_array<std::uint64_t>("weight class rows");
  if (rows.words_.size() != ids.size() * rows.row_words_)
    in.fail(fmt::format("{} words of class rows for {} weights of {} classes", rows.words_.size(),
                        ids.size(), rows.num_classes_));
  // Ascending and in range before row_of_ is indexed by them.
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= token_sets)
      in.fail(fmt::format("a class row for token set {}, which does not exist ({} sets)", ids[i],
                          token_sets));
    if (i > 0 && ids[i] <= ids[i - 1])
      in.fail(fmt::format("class rows for token sets {} and {} are not in ascending order",
                          ids[i - 1], ids[i]));
  }
  if (!ids.empty()) rows.row_of_.assign(std::size_t{ids.back()} + 1, -1);
  const std::uint64_t last_word_bits = rows.num_classes_ % 64 == 0
                                           ? ~std::uint64_t{0}
                                           : (std::uint64_t{1} << (rows.num_classes_ % 64)) - 1;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::span<const std::uint64_t> row(rows.words_.data() + i * rows.row_words_,
                                             rows.row_words_);
    if ((row.back() & ~last_word_bits) != 0 ||
        std::all_of(row.begin(), row.end(), [](std::uint64_t w) { return w == 0; }))
      in.fail(fmt::format("the class row of token set {} is malformed", ids[i]));
    rows.row_of_[ids[i]] = static_cast<std::int32_t>(i);
  }
  return rows;
}

}  // namespace glrmask::mask
