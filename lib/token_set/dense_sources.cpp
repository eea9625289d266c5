#include "lib/token_set/dense_sources.h"

#include <algorithm>
#include <utility>

namespace glrmask {

DenseSources::DenseSources(const TokenSetPool& pool, std::span<const TokenSetId> sets) {
  std::uint32_t highest = 0;
  for (const TokenSetId s : sets) highest = std::max(highest, s.value());
  std::vector<bool> wanted(std::size_t{highest} + 1, false);
  for (const TokenSetId s : sets) wanted[s.value()] = !s.is_empty();
  // Ids in ascending order, so begin_ is a prefix sum and a set's segments are contiguous.
  begin_.assign(std::size_t{highest} + 2, 0);
  for (std::uint32_t id = 0; id <= highest; ++id) {
    begin_[id] = static_cast<std::uint32_t>(segments_.size());
    if (wanted[id]) append_dense_segments(pool.layout(TokenSetId{id}), segments_);
  }
  begin_[std::size_t{highest} + 1] = static_cast<std::uint32_t>(segments_.size());
  segments_.shrink_to_fit();
}

DenseSources::DenseSources(std::vector<std::uint32_t> begin, std::vector<DenseSegment> segments)
    : begin_(std::move(begin)), segments_(std::move(segments)) {}

}  // namespace glrmask
