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
    classes_ = &dfa.classes;
    class_next_begin_.assign(nfa_.states.size(), kNoTable);
    for (uint32_t state = 0; state < lists_.size(); ++state) {
      if (lists_.size() > max_states) return std::nullopt;
      for (uint32_t c = 0; c < num_classes; ++c) {
        step(*lists_[state], c, next_list);
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

  // The successor of a byte-reading NFA state on each byte class (kNoTable: none), tabulated the
  // first time the state is stepped: a DFA state steps each of its threads once per class, and
  // scanning the edges of a large Unicode class every time dominated the construction.
  static constexpr uint32_t kNoTable = UINT32_MAX;
  const uint32_t* class_next(uint32_t state) {
    if (class_next_begin_[state] == kNoTable) {
      const uint32_t num_classes = classes_->count();
      class_next_begin_[state] = static_cast<uint32_t>(class_next_.size());
      class_next_.resize(class_next_.size() + num_classes, kNoTable);
      uint32_t* row = class_next_.data() + class_next_begin_[state];
      const NfaState& nfa_state = nfa_.states[state];
      for (uint32_t e = nfa_state.edge_begin; e < nfa_state.edge_end; ++e) {
        const NfaEdge& edge = nfa_.edges[e];
        // Class boundaries include every edge boundary, so an edge covers whole classes.
        for (uint32_t c = classes_->class_of[edge.first]; c <= classes_->class_of[edge.last]; ++c)
          row[c] = edge.next;
      }
    }
    return class_next_.data() + class_next_begin_[state];
  }

  void step(const std::vector<uint32_t>& threads, uint32_t byte_class, std::vector<uint32_t>& out) {
    out.clear();
    ++epoch_;
    size_t i = 0;
    while (i < threads.size()) {
      const uint32_t terminal = nfa_.states[threads[i]].terminal;
      bool cut = false;
      for (; i < threads.size() && nfa_.states[threads[i]].terminal == terminal; ++i) {
        const NfaState& thread = nfa_.states[threads[i]];
        if (cut || thread.kind != NfaKind::kBytes) continue;  // a match has no successors
        const uint32_t next = class_next(threads[i])[byte_class];
        if (next != kNoTable) cut = add_closure(next, out);
      }
    }
  }

  const Nfa& nfa_;
  const ByteClasses* classes_ = nullptr;
  std::vector<uint32_t> class_next_begin_;  // per NFA state: its row in class_next_, or kNoTable
  std::vector<uint32_t> class_next_;
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
