#include "lexer/regex/subset_construction.h"

#include <algorithm>
#include <cstdint>
#include <span>

#include "lib/core/flat_id_index.h"
#include "lib/core/hash_mix.h"

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

// A hash of an ordered thread list for the state index (FlatIdIndex wants its high bits mixed).
uint64_t hash_threads(std::span<const uint32_t> threads) {
  uint64_t hash = threads.size();
  for (const uint32_t thread : threads) hash = (hash + thread) * 0x9e3779b97f4a7c15ULL;
  return fmix64(hash);
}

class SubsetBuilder {
 public:
  explicit SubsetBuilder(const Nfa& nfa) : nfa_(nfa), mark_(nfa.states.size(), 0) {}

  std::optional<ClassDfa> build(size_t max_states) {
    ClassDfa dfa;
    dfa.classes = compute_byte_classes(nfa_);
    const uint32_t num_classes = dfa.classes.count();

    // The dead state is the empty list, state 0.
    list_begin_.assign(2, 0);
    ids_.insert_new(hash_threads({}), kDeadState);
    ++epoch_;
    in_start_state_ = true;  // a whole-language terminal's empty match is not a lexeme
    for (uint32_t start : nfa_.starts) add_closure(start, threads_);
    in_start_state_ = false;
    // The start state stays apart from any state with the same threads reached by reading bytes
    // (for /a*b/, the state after "a"): "in the start state" must mean "between lexemes" to the
    // session and the Terminal DWA (docs/glr.md). It is therefore not entered in ids_.
    dfa.start = num_states();
    list_begin_.push_back(threads_.size());

    classes_ = &dfa.classes;
    class_edges_begin_.assign(nfa_.states.size(), kNoTable);
    class_edges_end_.assign(nfa_.states.size(), 0);
    // The states' thread lists are bounded as well as their number: nested counted repetitions
    // such as ((a{1,100}){1,100}){1,100} reach few states an hour, each holding thousands of
    // threads. kMaxThreadsPerState times the state budget (64 MiB at the default) is far more
    // than real lexers use and stops such a pattern within seconds.
    const size_t max_threads =
        max_states > SIZE_MAX / kMaxThreadsPerState ? SIZE_MAX : max_states * kMaxThreadsPerState;
    for (uint32_t state = 0; state < num_states(); ++state) {
      if (num_states() > max_states || threads_.size() > max_threads) return std::nullopt;
      const size_t row = dfa.next.size();
      dfa.next.resize(row + num_classes);
      expand(state, dfa.next.data() + row);
    }
    dfa.num_states = num_states();
    dfa.matched_begin.push_back(0);
    for (uint32_t state = 0; state < num_states(); ++state) {
      for (uint32_t thread : threads_of(state)) {
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
  uint32_t num_states() const { return static_cast<uint32_t>(list_begin_.size() - 1); }
  std::span<const uint32_t> threads_of(uint32_t state) const {
    return {threads_.data() + list_begin_[state], threads_.data() + list_begin_[state + 1]};
  }

  // The state whose threads are the candidate list step() left at the end of threads_: an
  // existing state, and the candidate is dropped, or a new state that keeps it where it is. The
  // lists live back to back in one array and the index holds ids only, so a new state costs no
  // copy and no allocation, and a lookup compares against one contiguous list.
  uint32_t intern_candidate() {
    const size_t begin = list_begin_.back();
    const std::span<const uint32_t> candidate(threads_.data() + begin, threads_.size() - begin);
    const auto [id, inserted] = ids_.find_or_insert(
        hash_threads(candidate), num_states(),
        [&](uint32_t state) { return std::ranges::equal(threads_of(state), candidate); });
    if (inserted) {
      list_begin_.push_back(threads_.size());
    } else {
      threads_.resize(begin);
    }
    return id;
  }

  // Appends the epsilon closure of `state` in priority order (depth first, preferred branch
  // first; a state already reached keeps its earlier, higher-priority place). Returns true when
  // the terminal's match state was reached: everything after it has lower priority and is cut.
  // A whole-language terminal's match cuts nothing (any full match counts, whatever its
  // priority) and, in the start state, is not kept (it would be an empty lexeme).
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
          if (nfa_.is_whole_language(nfa_state.terminal)) {
            if (!in_start_state_) out.push_back(s);
            break;
          }
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
    bool operator==(const Move&) const = default;
  };

  // Fills `row[c]` with the successor of DFA state `state` on every class c. The moves are
  // bucketed by class first (a counting sort that keeps thread order), so the work is the
  // successors that exist: most threads of a state move on a few of its classes, and stepping
  // every thread on every class cost threads * classes per state. A class no thread moves on
  // leads to the dead state.
  void expand(uint32_t state, uint32_t* row) {
    const uint32_t num_classes = classes_->count();
    // Read only before the first step(): stepping appends to threads_, which may move it.
    const std::span<const uint32_t> threads = threads_of(state);
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
    // Classes that this state's threads do not tell apart (the letters between two keys' letters,
    // inside a string) have the same moves and so the same successor. They are mostly
    // neighbours, so a class is first compared with the class before it, and comparing two move
    // lists costs far less than a step, a hash of its result and a comparison with a state.
    std::span<const Move> previous;  // the moves of the last class that was not dead
    uint32_t previous_successor = kDeadState;
    stepped_.clear();
    for (uint32_t c = 0; c < num_classes; ++c) {
      const std::span<const Move> moves = moves_of(c);
      if (moves.empty()) {
        row[c] = kDeadState;
        continue;
      }
      if (!std::ranges::equal(moves, previous)) {
        previous_successor = successor(c, row);
        previous = moves;
      }
      row[c] = previous_successor;
    }
  }

  std::span<const Move> moves_of(uint32_t c) const {
    return {moves_.data() + move_begin_[c], moves_.data() + move_begin_[c + 1]};
  }

  // The successor on class c, whose moves differ from its neighbour's: that of an earlier class
  // with the same moves (found by their hash in stepped_), or else a step and a lookup.
  uint32_t successor(uint32_t c, const uint32_t* row) {
    const std::span<const Move> moves = moves_of(c);
    const auto [same, is_new] = stepped_.find_or_insert(hash_moves(moves), c, [&](uint32_t other) {
      return std::ranges::equal(moves_of(other), moves);
    });
    if (!is_new) return row[same];
    step(moves);
    return intern_candidate();
  }

  static uint64_t hash_moves(std::span<const Move> moves) {
    uint64_t hash = moves.size();
    for (const Move& move : moves)
      hash = (hash + (uint64_t{move.run} << 32 | move.next)) * 0x9e3779b97f4a7c15ULL;
    return fmix64(hash);
  }

  // The threads after one class: the closures of the moves in thread order. Within a terminal's
  // run, a closure that reaches the match cuts the moves after it (lower priority). They are
  // appended to threads_ as the candidate for intern_candidate().
  void step(std::span<const Move> moves) {
    std::vector<uint32_t>& out = threads_;
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

  bool in_start_state_ = false;  // add_closure is building the start state
  const Nfa& nfa_;
  const ByteClasses* classes_ = nullptr;
  std::vector<uint32_t>
      class_edges_begin_;  // per NFA state: its first in class_edges_, or kNoTable
  std::vector<uint32_t> class_edges_end_;
  std::vector<ClassEdge> class_edges_;
  std::vector<uint32_t> move_begin_;  // expand(): moves_ of class c at [move_begin_[c], [c + 1])
  std::vector<uint32_t> fill_;
  std::vector<Move> moves_;
  FlatIdIndex<> stepped_;  // expand(): the classes stepped so far, by their moves
  std::vector<uint32_t> mark_;
  uint32_t epoch_ = 0;
  std::vector<uint32_t> stack_;
  // The threads of state s are threads_[list_begin_[s], list_begin_[s + 1]); a candidate being
  // built follows the last state's list.
  std::vector<uint32_t> threads_;
  std::vector<size_t> list_begin_;
  FlatIdIndex<> ids_;  // every state but the start state, by its thread list
};

}  // namespace

std::optional<ClassDfa> build_leftmost_first_dfa(const Nfa& nfa, size_t max_states) {
  return SubsetBuilder(nfa).build(max_states);
}

}  // namespace glrmask::lexer
