#include "mask/cache/stack_summaries.h"

#include <algorithm>

#include "lib/core/hash_mix.h"

namespace glrmask::mask {

namespace {
// Past these the table is cleared (about 16 MiB of pairs, 16 MiB of weights): a stack that
// deep is walked once more after a clear, so the bound costs one walk per this many new pairs.
constexpr std::size_t kMaxPairs = std::size_t{1} << 18;
constexpr std::size_t kMaxWeights = std::size_t{1} << 22;
}  // namespace

std::uint64_t StackSummaries::KeyInfo::hash(const Key& key) {
  return fmix64(key.node * 0x9E3779B97F4A7C15ull ^ key.serial * 0xC2B2AE3D27D4EB4Full ^ key.state);
}

StackSummaries::StackSummaries() : offsets_{0, 0} {}  // summary 0: the empty one

std::optional<StackSummaries::SummaryId> StackSummaries::find(const glr::GssNode* node,
                                                              DwaStateId state) const {
  if (pairs_.size() == 0) return std::nullopt;
  const SummaryId* found = pairs_.find(key_of(node, state));
  if (found == nullptr) return std::nullopt;
  return *found;
}

void StackSummaries::insert(const glr::GssNode* node, DwaStateId state, SummaryId summary) {
  pairs_.insert_or_assign(key_of(node, state), summary);
}

StackSummaries::SummaryId StackSummaries::make(std::span<const TokenSetId> weights) {
  if (weights.empty()) return kEmpty;
  weights_.insert(weights_.end(), weights.begin(), weights.end());
  offsets_.push_back(static_cast<std::uint32_t>(weights_.size()));
  return static_cast<SummaryId>(offsets_.size() - 2);
}

StackSummaries::SummaryId StackSummaries::with(SummaryId summary, TokenSetId weight) {
  const std::span<const TokenSetId> old = weights(summary);
  const auto at = std::lower_bound(old.begin(), old.end(), weight);
  if (at != old.end() && *at == weight) return summary;
  // Copy by index: the insertions below may move the weights `old` views.
  const std::size_t begin = offsets_[summary];
  const std::size_t split = begin + static_cast<std::size_t>(at - old.begin());
  const std::size_t end = offsets_[summary + 1];
  const std::size_t needed = weights_.size() + (end - begin) + 1;
  if (weights_.capacity() < needed) weights_.reserve(std::max(needed, 2 * weights_.capacity()));
  for (std::size_t i = begin; i < split; ++i) weights_.push_back(weights_[i]);
  weights_.push_back(weight);
  for (std::size_t i = split; i < end; ++i) weights_.push_back(weights_[i]);
  offsets_.push_back(static_cast<std::uint32_t>(weights_.size()));
  return static_cast<SummaryId>(offsets_.size() - 2);
}

std::span<const TokenSetId> StackSummaries::weights(SummaryId summary) const {
  return {weights_.data() + offsets_[summary], weights_.data() + offsets_[summary + 1]};
}

void StackSummaries::trim() {
  if (pairs_.size() <= kMaxPairs && weights_.size() <= kMaxWeights) return;
  pairs_.release();
  offsets_.assign(2, 0);
  weights_.clear();
  weights_.shrink_to_fit();
}

}  // namespace glrmask::mask
