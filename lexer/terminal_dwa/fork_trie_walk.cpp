#include "lexer/terminal_dwa/fork_trie_walk.h"

#include <algorithm>

namespace glrmask::lexer {

LexemeScan::LexemeScan(const LexerDfa& dfa, const IndentLabeling& labeling)
    : dfa_(dfa),
      labeling_(labeling),
      capable_(dfa.num_states(), 0),
      newline_label_(dfa.num_labels(), 0) {
  // capable_: a newline label can still end the lexeme without another '\n' (only then does the
  // width so far matter; past a '\n' the text before it does not count). Backward reachability
  // from the states that accept a label with the newline terminal, over every byte but '\n'.
  std::vector<std::vector<uint32_t>> predecessors(dfa.num_states());
  for (uint32_t state = 1; state < dfa.num_states(); ++state)
    for (unsigned byte = 0; byte < 256; ++byte) {
      const uint32_t next = dfa.next(state, static_cast<uint8_t>(byte));
      if (byte != '\n' && next != LexerDfa::kDeadState &&
          (predecessors[next].empty() || predecessors[next].back() != state))
        predecessors[next].push_back(state);
    }
  std::vector<uint32_t> queue;
  for (uint32_t state = 1; state < dfa.num_states(); ++state) {
    const LabelId label =
        dfa.label(state) != LexerDfa::kNoLabel ? dfa.label(state) : dfa.tentative_label(state);
    if (label == LexerDfa::kNoLabel) continue;
    const auto terminals = dfa.label_terminals(label);
    if (std::binary_search(terminals.begin(), terminals.end(), labeling.newline_terminal)) {
      capable_[state] = 1;
      queue.push_back(state);
    }
  }
  for (size_t i = 0; i < queue.size(); ++i)
    for (const uint32_t p : predecessors[queue[i]])
      if (capable_[p] == 0) {
        capable_[p] = 1;
        queue.push_back(p);
      }
  for (LabelId label = 1; label < dfa.num_labels(); ++label) {
    const auto terminals = dfa.label_terminals(label);
    newline_label_[label] =
        std::binary_search(terminals.begin(), terminals.end(), labeling.newline_terminal);
  }
}

uint32_t LexemeScan::initial(uint32_t state) const {
  return state != dfa_.start_state() && capable_[state] != 0 ? kFromRoot : 0;
}

uint32_t LexemeScan::advance(uint32_t scan, uint8_t byte, uint32_t state) const {
  if (capable_[state] == 0) return 0;
  if (byte == '\n') return (scan & kFromRoot) | kHasNewline;
  uint32_t width = scan & kWidth;
  if (byte == ' ') {
    width = std::min(kWidth, width + 1);
  } else if (byte == '\t') {
    width = std::min(kWidth, width + labeling_.tab_len);
  }
  return (scan & ~kWidth) | width;
}

LabelId LexemeScan::annotate(LabelId label, uint32_t scan) const {
  if (newline_label_[label] == 0) return label;
  IndentText text;
  text.width = scan & kWidth;
  if ((scan & kHasNewline) != 0) {
    text.kind = IndentTextKind::kAbsolute;
  } else if ((scan & kFromRoot) != 0) {
    text.kind = IndentTextKind::kRelative;
  } else {
    text.kind = IndentTextKind::kNoNewline;
    text.width = 0;  // the indenter refuses it whatever the width
  }
  return make_indent_label(label, text);
}

ForkTrieWalker::ForkTrieWalker(const LexerDfa& dfa, const VocabularyTrie& trie,
                               const LexemeScan* scan)
    : dfa_(dfa), trie_(trie), scan_(scan), inhibitor_sets_(dfa) {}

uint32_t ForkTrieWalker::label_child(uint32_t node, LabelId label, SubtrieWalk& out) {
  const auto [child, inserted] = label_children_.find_or_insert(
      (uint64_t{node} << 32) | label, static_cast<uint32_t>(out.parent.size()));
  if (inserted) {
    out.parent.push_back(node);
    out.label.push_back(label);
  }
  return child;
}

void ForkTrieWalker::step(Branch branch, uint8_t byte, SubtrieWalk& out) {
  uint32_t inhibitors = branch.inhibitors;
  if (inhibitors != InhibitorSets::kEmpty) {
    inhibitors = inhibitor_sets_.step(inhibitors, byte);
    if (inhibitors == InhibitorSets::kFired) return;
  }
  const uint32_t next = dfa_.next(branch.state, byte);
  if (next == LexerDfa::kDeadState) return;
  const LabelId label =
      dfa_.label(next) != LexerDfa::kNoLabel ? dfa_.label(next) : dfa_.tentative_label(next);
  const uint32_t scan = scan_ != nullptr ? scan_->advance(branch.scan, byte, next) : 0;
  if (label == LexerDfa::kNoLabel) {
    branches_.push_back({branch.node, next, inhibitors, scan});
    return;
  }
  const bool final = dfa_.is_final(next);
  if (!final) branches_.push_back({branch.node, next, inhibitors, scan});  // keep extending
  const uint32_t node =
      dfa_.label_is_ignored(label)
          ? branch.node
          : label_child(branch.node, scan_ != nullptr ? scan_->annotate(label, scan) : label, out);
  branches_.push_back(
      {node, dfa_.start_state(),
       final ? inhibitors : inhibitor_sets_.add(inhibitors, emission_inhibitor(dfa_, next)), 0});
}

void ForkTrieWalker::record(uint32_t trie_node, uint32_t begin, uint32_t end,
                            const WalkFilter* filter) {
  if (!trie_.has_tokens(trie_node)) return;
  for (uint32_t i = begin; i < end; ++i) {
    const Branch& branch = branches_[i];
    const auto [end_id, new_end] =
        end_ids_.find_or_insert((uint64_t{branch.state} << 32) | branch.inhibitors,
                                static_cast<uint32_t>(end_keys_.size()));
    if (new_end) end_keys_.emplace_back(branch.state, branch.inhibitors);
    const auto [group, new_group] = group_ids_.find_or_insert(
        (uint64_t{branch.node} << 32) | end_id, static_cast<uint32_t>(group_keys_.size()));
    if (new_group) group_keys_.emplace_back(branch.node, end_id);
    for (const TokenId token : trie_.tokens_at(trie_node)) {
      if (filter && filter->skip_token && (*filter->skip_token)[token]) continue;
      memberships_.push_back((uint64_t{token} << 32) | group);
    }
  }
}

SubtrieWalk ForkTrieWalker::walk(uint32_t trie_node, const LexerFork& fork, bool descend,
                                 uint32_t initial_scan, const WalkFilter* filter) {
  SubtrieWalk out;
  out.parent.push_back(UINT32_MAX);
  out.label.push_back(LexerDfa::kNoLabel);
  label_children_.clear();
  end_ids_.clear();
  group_ids_.clear();
  end_keys_.clear();
  group_keys_.clear();
  memberships_.clear();
  branches_.clear();
  stack_.clear();

  branches_.push_back({0, fork.state, inhibitor_sets_.intern(fork.inhibitors), initial_scan});
  record(trie_node, 0, 1, filter);
  if (descend) stack_.push_back({trie_node, trie_.first_child(trie_node), 0, 1});
  while (!stack_.empty()) {
    Frame& frame = stack_.back();
    if (frame.next_child == trie_.child_end(frame.trie_node)) {
      branches_.resize(frame.branches_begin);
      stack_.pop_back();
      continue;
    }
    const uint32_t child = frame.next_child++;
    if (filter && filter->enter_node && !(*filter->enter_node)[child]) continue;
    const uint8_t byte = trie_.byte(child);
    const auto begin = static_cast<uint32_t>(branches_.size());
    for (uint32_t i = frame.branches_begin; i < frame.branches_end; ++i) {
      step(branches_[i], byte, out);  // by value: step() appends to branches_
    }
    out.steps += frame.branches_end - frame.branches_begin;
    if (branches_.size() == begin) continue;  // every token below `child` is dead from here
    if (branches_.size() - begin > 1) {
      // Different histories can meet in one branch (ignored text split differently); keep one.
      std::sort(branches_.begin() + begin, branches_.end());
      branches_.erase(std::unique(branches_.begin() + begin, branches_.end()), branches_.end());
    }
    const auto end = static_cast<uint32_t>(branches_.size());
    record(child, begin, end, filter);
    if (trie_.first_child(child) == trie_.child_end(child)) {
      branches_.resize(begin);  // a leaf: nothing to descend into
    } else {
      stack_.push_back({child, trie_.first_child(child), begin, end});
    }
  }
  build_groups(out);
  return out;
}

// Token sets in token-id order (one sort of the memberships), so each group's bitmap is built
// from one sorted array.
void ForkTrieWalker::build_groups(SubtrieWalk& out) {
  for (const auto& [state, inhibitors] : end_keys_) {
    const auto members = inhibitor_sets_.members(inhibitors);
    out.ends.push_back({state, {members.begin(), members.end()}});
  }
  std::sort(memberships_.begin(), memberships_.end());
  group_begin_.assign(group_keys_.size() + 1, 0);
  for (const uint64_t membership : memberships_) ++group_begin_[(membership & 0xffffffffu) + 1];
  for (size_t g = 1; g < group_begin_.size(); ++g) group_begin_[g] += group_begin_[g - 1];
  group_tokens_.resize(memberships_.size());
  std::vector<TokenId> alive;
  {
    std::vector<uint32_t> cursor(group_begin_.begin(), group_begin_.end() - 1);
    for (const uint64_t membership : memberships_) {
      const auto token = static_cast<TokenId>(membership >> 32);
      group_tokens_[cursor[membership & 0xffffffffu]++] = token;
      if (alive.empty() || alive.back() != token) alive.push_back(token);
    }
  }
  out.groups.reserve(group_keys_.size());
  for (size_t g = 0; g < group_keys_.size(); ++g) {
    out.groups.push_back({group_keys_[g].first, group_keys_[g].second,
                          RoaringBitmap(group_begin_[g + 1] - group_begin_[g],
                                        group_tokens_.data() + group_begin_[g])});
  }
  out.alive = RoaringBitmap(alive.size(), alive.data());
}

}  // namespace glrmask::lexer
