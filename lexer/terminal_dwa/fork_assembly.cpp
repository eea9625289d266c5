#include "lexer/terminal_dwa/fork_assembly.h"

#include <algorithm>

namespace glrmask::lexer {

uint32_t ForkAssembler::child(LabelTrie& trie, uint32_t node, LabelId label) {
  const auto [id, inserted] = children_.find_or_insert((uint64_t{node} << 32) | label,
                                                       static_cast<uint32_t>(trie.parent.size()));
  if (inserted) {
    trie.parent.push_back(node);
    trie.label.push_back(label);
  }
  return id;
}

AssembledFork ForkAssembler::assemble(std::span<const PieceUse> uses,
                                      std::span<const SubtriePiece> pieces) {
  AssembledFork out;
  children_.clear();
  groups_.clear();
  contributions_.clear();
  group_keys_.clear();
  alive_inputs_.clear();
  for (const PieceUse& use : uses) {
    const SubtriePiece& piece = pieces[use.piece];
    mapped_.resize(piece.trie.parent.size());
    mapped_[0] = use.label == LexerDfa::kNoLabel ? 0 : child(out.trie, 0, use.label);
    for (size_t n = 1; n < piece.trie.parent.size(); ++n) {
      mapped_[n] = child(out.trie, mapped_[piece.trie.parent[n]], piece.trie.label[n]);
    }
    for (const SubtriePiece::Group& group : piece.groups) {
      const uint32_t node = mapped_[group.node];
      const auto [id, inserted] = groups_.find_or_insert((uint64_t{node} << 32) | group.end,
                                                         static_cast<uint32_t>(group_keys_.size()));
      if (inserted) group_keys_.emplace_back(node, group.end);
      contributions_.emplace_back(id, group.tokens);
    }
    if (!piece.alive.isEmpty()) alive_inputs_.push_back(&piece.alive);
  }
  std::sort(contributions_.begin(), contributions_.end());
  out.groups.reserve(group_keys_.size());
  for (size_t i = 0; i < contributions_.size();) {
    const uint32_t id = contributions_[i].first;
    const auto begin = static_cast<uint32_t>(out.inputs.size());
    for (; i < contributions_.size() && contributions_[i].first == id; ++i) {
      if (out.inputs.size() == begin || out.inputs.back() != contributions_[i].second) {
        out.inputs.push_back(contributions_[i].second);
      }
    }
    out.groups.push_back({group_keys_[id].first, group_keys_[id].second, begin,
                          static_cast<uint32_t>(out.inputs.size())});
  }
  if (!alive_inputs_.empty()) {
    out.alive = RoaringBitmap::fastunion(alive_inputs_.size(), alive_inputs_.data());
  }
  return out;
}

}  // namespace glrmask::lexer
