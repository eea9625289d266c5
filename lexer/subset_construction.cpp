#include "lexer/subset_construction.h"

#include <boost/container_hash/hash.hpp>
#include <span>
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

    classes_ = &dfa.classes;
    class_edges_begin_.assign(nfa_.states.size(), kNoTable);
    class_edges_end_.assign(nfa_.states.size(), 0);
    for (uint32_t state = 0; state < lists_.size(); ++state) {
      if (lists_.size() > max_states) return std::nullopt;
      const size_t row = dfa.next.size();
      dfa.next.resize(row + num_classes);
      expand(*lists_[state], dfa.next.data() + row);
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
  // Looks `list` up before copying it: most successors are states already built, and copying
  // every candidate list into the map's key cost an allocation per (state, class).
  uint32_t intern(const std::vector<uint32_t>& list) {
    if (const auto it = ids_.find(list); it != ids_.end()) return it->second;
    const auto it = ids_.emplace(list, static_cast<uint32_t>(lists_.size())).first;
    lists_.push_back(&it->first);  // node-based map: the key's address is stable
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

  // The successors of a byte-reading NFA state as (class, next) pairs in class order, tabulated
  // the first time the state is stepped: scanning the edges of a large Unicode class at every
  // step dominated the construction, and a sparse row lets a step skip the classes a thread has
  // no successor on.
  struct ClassEdge {
    uint32_t byte_class;
    uint32_t next;
  };
  static constexpr uint32_t kNoTable = UINT32_MAX;
  std::span<const ClassEdge> class_edges(uint32_t state) {
    if (class_edges_begin_[state] == kNoTable) {
      class_edges_begin_[state] = static_cast<uint32_t>(class_edges_.size());
      const NfaState& nfa_state = nfa_.states[state];
      for (uint32_t e = nfa_state.edge_begin; e < nfa_state.edge_end; ++e) {
        const NfaEdge& edge = nfa_.edges[e];
        // Class boundaries include every edge boundary, so an edge covers whole classes.
        for (uint32_t c = classes_->class_of[edge.first]; c <= classes_->class_of[edge.last]; ++c)
          class_edges_.push_back({c, edge.next});
      }
      class_edges_end_[state] = static_cast<uint32_t>(class_edges_.size());
    }
    return {class_edges_.data() + class_edges_begin_[state],
            class_edges_.data() + class_edges_end_[state]};
  }

  // One successor of a thread on a class: the thread's run (its terminal's group in the list) and
  // the NFA state the byte leads to.
  struct Move {
    uint32_t run;
    uint32_t next;
  };

  // Fills `row[c]` with the successor of the DFA state `threads` on every class c. The moves are
  // bucketed by class first (a counting sort that keeps thread order), so the work is the
  // successors that exist: most threads of a state move on a few of its classes, and stepping
  // every thread on every class cost threads * classes per state. A class no thread moves on
  // leads to the dead state.
  void expand(const std::vector<uint32_t>& threads, uint32_t* row) {
    const uint32_t num_classes = classes_->count();
    move_begin_.assign(num_classes + 1, 0);
    for (const uint32_t thread : threads) {
      if (nfa_.states[thread].kind != NfaKind::kBytes) continue;  // a match has no successors
      for (const ClassEdge& edge : class_edges(thread)) ++move_begin_[edge.byte_class + 1];
    }
    for (uint32_t c = 0; c < num_classes; ++c) move_begin_[c + 1] += move_begin_[c];
    moves_.resize(move_begin_[num_classes]);
    fill_.assign(move_begin_.begin(), move_begin_.end() - 1);
    uint32_t run = 0;
    for (size_t i = 0; i < threads.size(); ++i) {
      if (i > 0 && nfa_.states[threads[i]].terminal != nfa_.states[threads[i - 1]].terminal) ++run;
      if (nfa_.states[threads[i]].kind != NfaKind::kBytes) continue;
      for (const ClassEdge& edge : class_edges(threads[i]))
        moves_[fill_[edge.byte_class]++] = {run, edge.next};
    }
    for (uint32_t c = 0; c < num_classes; ++c) {
      if (move_begin_[c] == move_begin_[c + 1]) {
        row[c] = kDeadState;
        continue;
      }
      step(
          std::span<const Move>(moves_.data() + move_begin_[c], moves_.data() + move_begin_[c + 1]),
          next_list_);
      row[c] = intern(next_list_);
    }
  }

  // The threads after one class: the closures of the moves in thread order. Within a terminal's
  // run, a closure that reaches the match cuts the moves after it (lower priority).
  void step(std::span<const Move> moves, std::vector<uint32_t>& out) {
    out.clear();
    ++epoch_;
    uint32_t run = UINT32_MAX;
    bool cut = false;
    for (const Move& move : moves) {
      if (move.run != run) {
        run = move.run;
        cut = false;
      }
      if (cut) continue;
      // Most moves land on a byte-reading state, whose closure is itself.
      if (nfa_.states[move.next].kind == NfaKind::kBytes) {
        if (mark_[move.next] != epoch_) {
          mark_[move.next] = epoch_;
          out.push_back(move.next);
        }
        continue;
      }
      cut = add_closure(move.next, out);
    }
  }

  static constexpr uint32_t kDeadState = 0;  // interned first, as the empty list

  const Nfa& nfa_;
  const ByteClasses* classes_ = nullptr;
  std::vector<uint32_t>
      class_edges_begin_;  // per NFA state: its first in class_edges_, or kNoTable
  std::vector<uint32_t> class_edges_end_;
  std::vector<ClassEdge> class_edges_;
  std::vector<uint32_t> move_begin_;  // expand(): moves_ of class c at [move_begin_[c], [c + 1])
  std::vector<uint32_t> fill_;
  std::vector<Move> moves_;
  std::vector<uint32_t> next_list_;
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
