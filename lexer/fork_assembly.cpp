#include "lexer/fork_assembly.h"

#include <algorithm>

namespace glrmask::lexer {

uint32_t ForkAssembler::child(LabelTrieWeights& out, uint32_t node, LabelId label) {
  const auto [id, inserted] = children_.find_or_insert((uint64_t{node} << 32) | label,
                                                       static_cast<uint32_t>(out.parent.size()));
  if (inserted) {
    out.parent.push_back(node);
    out.label.push_back(label);
  }
  return id;
}

LabelTrieWeights ForkAssembler::assemble(std::span<const PieceUse> uses,
                                         std::span<const LabelTrieWeights> pieces) {
  LabelTrieWeights out;
  children_.clear();
  groups_.clear();
  contributions_.clear();
  group_keys_.clear();
  std::vector<const RoaringBitmap*> alive;
  for (const PieceUse& use : uses) {
    const LabelTrieWeights& piece = pieces[use.piece];
    mapped_.resize(piece.parent.size());
    mapped_[0] = use.label == LexerDfa::kNoLabel ? 0 : child(out, 0, use.label);
    for (size_t n = 1; n < piece.parent.size(); ++n) {
      mapped_[n] = child(out, mapped_[piece.parent[n]], piece.label[n]);
    }
    for (const LabelTrieWeights::Group& group : piece.groups) {
      const uint32_t node = mapped_[group.node];
      const auto [id, inserted] = groups_.find_or_insert((uint64_t{node} << 32) | group.end,
                                                         static_cast<uint32_t>(group_keys_.size()));
      if (inserted) group_keys_.emplace_back(node, group.end);
      contributions_.emplace_back(id, &group.tokens);
    }
    alive.push_back(&piece.alive);
  }
  // One union per group over all its contributions: tokens below different first bytes are
  // disjoint, so most groups get one or a few.
  std::stable_sort(contributions_.begin(), contributions_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const RoaringBitmap*> inputs;
  out.groups.reserve(group_keys_.size());
  for (size_t i = 0; i < contributions_.size();) {
    const uint32_t id = contributions_[i].first;
    inputs.clear();
    for (; i < contributions_.size() && contributions_[i].first == id; ++i) {
      inputs.push_back(contributions_[i].second);
    }
    out.groups.push_back(
        {group_keys_[id].first, group_keys_[id].second,
         inputs.size() == 1 ? *inputs[0] : RoaringBitmap::fastunion(inputs.size(), inputs.data())});
  }
  if (!alive.empty()) out.alive = RoaringBitmap::fastunion(alive.size(), alive.data());
  return out;
}

}  // namespace glrmask::lexer
