#include "lexer/runtime/inhibitor_sets.h"

#include <algorithm>
#include <boost/container_hash/hash.hpp>

#include "lexer/runtime/lexer_fork.h"

namespace glrmask::lexer {

size_t InhibitorSets::VectorHash::operator()(const std::vector<uint32_t>& members) const {
  return boost::hash_range(members.begin(), members.end());
}

InhibitorSets::InhibitorSets(const LexerDfa& dfa) : dfa_(dfa) {
  index_.emplace(std::vector<uint32_t>{}, kEmpty);
}

uint32_t InhibitorSets::intern(std::span<const uint32_t> members) {
  std::vector<uint32_t> key(members.begin(), members.end());
  const auto [at, inserted] = index_.emplace(std::move(key), static_cast<uint32_t>(size()));
  if (inserted) {
    members_.insert(members_.end(), members.begin(), members.end());
    begin_.push_back(static_cast<uint32_t>(members_.size()));
  }
  return at->second;
}

uint32_t InhibitorSets::compute_step(uint32_t set, uint8_t byte) {
  scratch_.clear();
  for (const uint32_t inhibitor : members(set)) {
    const uint32_t next = step_inhibitor(dfa_, inhibitor, byte);
    if (next == kInhibitorFired) return kFired;
    if (next != kInhibitorDischarged) scratch_.push_back(next);
  }
  std::sort(scratch_.begin(), scratch_.end());
  scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
  return intern(scratch_);
}

uint32_t InhibitorSets::compute_add(uint32_t set, uint32_t state) {
  std::vector<uint32_t> next(members(set).begin(), members(set).end());
  const auto at = std::lower_bound(next.begin(), next.end(), state);
  if (at != next.end() && *at == state) return set;
  next.insert(at, state);
  return intern(next);
}

}  // namespace glrmask::lexer
