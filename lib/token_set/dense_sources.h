// Flat export descriptors of a chosen family of token sets, for the get_mask path that unites
// several sets into one dense mask (wfa_engine.cpp).
//
// Why: a mask that misses the dense-mask cache ORs five to fifteen sets that a decoding run has
// usually not touched for a while. Through CRoaring each set is a chain of dependent loads
// (bitmap, container table, container header, data), so the misses queue up one after another:
// in a cold teacher-forced run that chain, not the OR itself, was most of a miss. Here a set is
// one contiguous run of DenseSegment records reached from a flat offset table, so the engine can
// prefetch the records of every set as it finds them and the data of all of them before the first
// OR. The records point into the pool's storage; nothing is copied.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/token_set/roaring.h"
#include "lib/token_set/token_set.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask {

class DenseSources {
 public:
  DenseSources() = default;
  // Descriptors for `sets` (duplicates and the empty set allowed) of `pool`, which must outlive
  // this table and never change the sets (interned sets never do). Made from the sets' layouts
  // (TokenSetPool::layout), so a loaded artifact's sets are not read here: call pool.verify(s)
  // before reading the data of s's segments.
  DenseSources(const TokenSetPool& pool, std::span<const TokenSetId> sets);
  // The table as given: set id s has records [begin[s], begin[s + 1]) of `segments` (a compiled
  // artifact stores them, mask_artifact.cpp). `begin` must be non-decreasing and end at
  // segments.size(); the caller vouches for the records.
  DenseSources(std::vector<std::uint32_t> begin, std::vector<DenseSegment> segments);

  bool contains(TokenSetId s) const {
    return s.value() + std::size_t{1} < begin_.size() && begin_[s.value()] != begin_[s.value() + 1];
  }
  // The segments of s; empty when s is empty or not in the table.
  std::span<const DenseSegment> segments(TokenSetId s) const {
    if (s.value() + std::size_t{1} >= begin_.size()) return {};
    return {segments_.data() + begin_[s.value()], segments_.data() + begin_[s.value() + 1]};
  }
  // Starts loading the records of s (call as soon as s is known), or their data (call once the
  // records had time to arrive, e.g. after the other sets' records were requested).
  void prefetch_records(TokenSetId s) const {
    if (s.value() < begin_.size()) __builtin_prefetch(segments_.data() + begin_[s.value()]);
  }
  void prefetch_data(TokenSetId s) const { prefetch_dense_segments(segments(s)); }

  std::size_t size_in_bytes() const {
    return begin_.size() * sizeof(std::uint32_t) + segments_.size() * sizeof(DenseSegment);
  }

 private:
  std::vector<std::uint32_t> begin_;  // by set id: the first segment; begin_[id + 1] ends it
  std::vector<DenseSegment> segments_;
};

}  // namespace glrmask
