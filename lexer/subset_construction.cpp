#include "lexer/subset_construction.h"

#include <boost/container_hash/hash.hpp>
#include <unordered_map>

namespace glrmask::lexer {

ByteClasses compute_byte_classes(const Nfa& nfa) {
  std::array<bool, 257> boundary{};
  boundary[0] = true;
  for (const NfaEdge& edge : nfa.edges) {
    boundary[edge.first] = true;
    boundary[edge.last + 1] = true;
  }
  for (const NfaState& state : nfa.states) {  // a veto byte must be told apart from the rest
    if (state.kind != NfaKind::kMatch || state.veto < 0) continue;
    boundary[static_cast<size_t>(state.veto)] = true;
    boundary[static_cast<size_t>(state.veto) + 1] = true;
  }
  ByteClasses classes;
  for (int byte = 0; byte < 256; ++byte) {
    if (boundary[byte]) classes.representative.push_back(static_cast<uint8_t>(byte));
    classes.class_of[byte] = static_cast<uint8_t>(classes.representative.size() - 1);
  }
  return classes;
}

namespace {

struct ThreadListHash {
  size_t operator()(const std::vector<uint32_t>& list) const {
    return boost::hash_range(list.begin(), list.end());
  }
};

class SubsetBuilder {
 public:
  explicit SubsetBuilder(const Nfa& nfa) : nfa_(nfa), mark_(nfa.states.size(), 0) {}

  std::optional<ClassDfa> build(size_t max_states) {
    ClassDfa dfa;
    dfa.classes = compute_byte_classes(nfa_);
    const uint32_t num_classes = dfa.classes.count();

    intern({});  // the dead state
    std::vector<uint32_t> list;
    ++epoch_;
    for (uint32_t start : nfa_.starts) add_closure(start, list);
    // The start state stays apart from any state with the same threads reached by reading bytes
    // (for /a*b/, the state after "a"): "in the start state" must mean "between lexemes" to the
    // session and the Terminal DWA (docs/glr.md). It is therefore not entered in ids_.
    start_list_ = std::move(list);
    dfa.start = static_cast<uint32_t>(lists_.size());
    lists_.push_back(&start_list_);

    std::vector<uint32_t> next_list;
    for (uint32_t state = 0; state < lists_.size(); ++state) {
      if (lists_.size() > max_states) return std::nullopt;
      for (uint32_t c = 0; c < num_classes; ++c) {
        step(*lists_[state], dfa.classes.representative[c], next_list);
        dfa.next.push_back(intern(next_list));
      }
    }
    dfa.num_states = static_cast<uint32_t>(lists_.size());
    dfa.matched_begin.push_back(0);
    for (const std::vector<uint32_t>* threads : lists_) {
      for (uint32_t thread : *threads) {
        if (nfa_.states[thread].kind == NfaKind::kMatch) {
          dfa.matched.push_back(nfa_.states[thread].terminal);
          dfa.matched_veto.push_back(nfa_.states[thread].veto);
        }
      }
      dfa.matched_begin.push_back(static_cast<uint32_t>(dfa.matched.size()));
    }
    return dfa;
  }

 private:
  uint32_t intern(std::vector<uint32_t> list) {
    auto [it, inserted] = ids_.try_emplace(std::move(list), static_cast<uint32_t>(lists_.size()));
    if (inserted) lists_.push_back(&it->first);  // node-based map: the key's address is stable
    return it->second;
  }

  // Appends the epsilon closure of `state` in priority order (depth first, preferred branch
  // first; a state already reached keeps its earlier, higher-priority place). Returns true when
  // the terminal's match state was reached: everything after it has lower priority and is cut.
  bool add_closure(uint32_t state, std::vector<uint32_t>& out) {
    stack_.assign(1, state);
    while (!stack_.empty()) {
      const uint32_t s = stack_.back();
      stack_.pop_back();
      if (mark_[s] == epoch_) continue;
      mark_[s] = epoch_;
      const NfaState& nfa_state = nfa_.states[s];
      switch (nfa_state.kind) {
        case NfaKind::kBytes:
          out.push_back(s);
          break;
        case NfaKind::kMatch:
          out.push_back(s);
          stack_.clear();
          return true;
        case NfaKind::kSplit:
          stack_.push_back(nfa_state.other);
          stack_.push_back(nfa_state.preferred);
          break;
      }
    }
    return false;
  }

  void step(const std::vector<uint32_t>& threads, uint8_t byte, std::vector<uint32_t>& out) {
    out.clear();
    ++epoch_;
    size_t i = 0;
    while (i < threads.size()) {
      const uint32_t terminal = nfa_.states[threads[i]].terminal;
      bool cut = false;
      for (; i < threads.size() && nfa_.states[threads[i]].terminal == terminal; ++i) {
        const NfaState& thread = nfa_.states[threads[i]];
        if (cut || thread.kind != NfaKind::kBytes) continue;  // a match has no successors
        for (uint32_t e = thread.edge_begin; e < thread.edge_end; ++e) {
          const NfaEdge& edge = nfa_.edges[e];
          if (byte < edge.first || byte > edge.last) continue;
          cut = add_closure(edge.next, out);
          break;  // the edges of one state are disjoint
        }
      }
    }
  }

  const Nfa& nfa_;
  std::vector<uint32_t> mark_;
  uint32_t epoch_ = 0;
  std::vector<uint32_t> stack_;
  std::unordered_map<std::vector<uint32_t>, uint32_t, ThreadListHash> ids_;
  std::vector<uint32_t> start_list_;  // the start state's threads (not in ids_)
  std::vector<const std::vector<uint32_t>*> lists_;
};

}  // namespace

std::optional<ClassDfa> build_leftmost_first_dfa(const Nfa& nfa, size_t max_states) {
  return SubsetBuilder(nfa).build(max_states);
}

}  // namespace glrmask::lexer
