// GreatGramma's precomputed split (Algorithms 5 and 6) for the spanner engine, on the Terminal
// DWA and a GLR table: for every (entry node n, LR state q), decided once for every parser stack
// whose top state is q,
//   * accepted(n, q): the tokens of n's label subtrie that such a stack accepts whatever lies
//     below q;
//   * the subtrie parts rejected for every such stack, which simply do not appear; and
//   * plan(n, q): the context-dependent rest, a pruned copy of the subtrie (the nodes on the way
//     to the weights and subtrees that need the real stack) for the engine to walk on the GSS.
// The entry nodes are the roots of the lexer forks (GreatGramma's (lexer state, parser state)
// cells) and, in addition, every trie node where some plan stops knowing anything (see below).
//
// How it is decided. The subtrie is walked once per (n, q) with a KnownTopParser whose bottom
// cell is q. A node's abstract value lists the known stacks that every real stack with top q
// reaches on the node's labels ("sure"), those that only some reach ("maybe"), and whether some
// path popped below q ("unknown": the real stack decides). A weight is accepted when a sure stack
// takes a terminal of next_terminals(end fork) (or accepts the end when the end fork can end),
// rejected when no sure or maybe stack can and nothing is unknown, and context-dependent
// otherwise. Labels follow IncrementalRecognizer::feed_token exactly: ties are alternatives, an
// ignored alternative keeps the stacks, and a skippable terminal keeps them when no stack shifts
// it — decided here only when every stack with top q shifts it or none does.
//
// Re-entry. Once only unknown stacks are left (a label popped below q), nothing below is decided
// from q; the plan node says "re-enter" instead. At run time the engine has the real heads there
// and looks the node up again, as an entry node, with their top states. The entry nodes are found
// in rounds (fork roots first, then the nodes the previous round's plans re-enter) until no new
// one appears; a re-entered node that is no entry node (beyond `max_cells`) is walked whole.
//
// Several heads. The engine decides each head alone and unites, which is exact as long as no
// label's outcome depends on the other heads. Only the skippable rule does: "no stack shifts it"
// is over all heads. A cell is therefore marked skip-sensitive when its walk relied on a
// skippable terminal that not every stack with top q shifts (or re-enters a subtrie holding one);
// the engine must not split several heads on such a cell (it walks the subtrie on all heads
// together instead).
//
// Built in parallel over LR states (TBB); memoized per (trie node, abstract value) within a
// state, so subtries shared between forks are decided once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "glr/lr_table.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/token_set/token_set.h"
#include "mask/spanner/next_terminal_bits.h"

namespace glrmask::mask {

using SpannerPlanId = std::uint32_t;

// One node of a cell's context-dependent plan: a DWA trie node reached by feeding the labels on
// the path from the fork's root to the real heads.
struct SpannerPlanNode {
  lexer::DwaNodeId node = 0;
  // Nothing below was decided from the head's state: look `node` up again as an entry node with
  // the real heads' states (or walk its whole subtrie when it is none).
  bool reenter = false;
  // The node's weights to test on the real heads: positions in TerminalDwa::weights(node).
  std::uint32_t weights_begin = 0;
  std::uint32_t weights_end = 0;
  // Children worth visiting: positions in SpannerTable::plan_edges().
  std::uint32_t edges_begin = 0;
  std::uint32_t edges_end = 0;
};

struct SpannerPlanEdge {
  lexer::LabelId label;
  SpannerPlanId child;
};

struct SpannerCell {
  TokenSetId accepted = TokenSetPool::empty();
  SpannerPlanId plan = UINT32_MAX;  // SpannerTable::kNoPlan: nothing depends on the stack
  bool skip_sensitive = false;
};

struct SpannerTableStats {
  std::size_t forks = 0;
  std::size_t states = 0;
  std::size_t root_nodes = 0;            // distinct fork roots (equal tries share a root)
  std::size_t entry_nodes = 0;           // roots and re-entered nodes
  std::size_t rounds = 0;                // of entry-node discovery
  std::size_t unentered_nodes = 0;       // re-entered but left out by max_cells: walked whole
  std::size_t cells = 0;                 // roots × states + re-entered nodes × their states
  std::size_t cells_with_accepted = 0;   // accepted set not empty
  std::size_t cells_with_plan = 0;       // something left to the real stack
  std::size_t cells_skip_sensitive = 0;  // not splittable over several heads
  std::size_t distinct_accepted_sets = 0;
  std::size_t distinct_accepted_lists = 0;  // distinct lists of weight sets united into them
  std::size_t plan_nodes = 0;               // distinct, shared between cells
  std::size_t plan_edges = 0;
  std::size_t plan_weights = 0;
  std::size_t memo_entries = 0;  // (trie node, abstract value) pairs decided, summed over states
  std::size_t known_stacks = 0;  // virtual stacks met, summed over states
  std::size_t bytes = 0;         // cells and plans (the accepted sets live in the engine's pool)
  std::size_t accepted_set_bytes = 0;  // CRoaring size of the distinct accepted sets
  double build_seconds = 0;            // wall
  double build_cpu_seconds = 0;        // CPU time of the whole process meanwhile (all threads)
};

class SpannerTable {
 public:
  static constexpr SpannerPlanId kNoPlan = UINT32_MAX;
  static constexpr std::size_t kDefaultMaxCells = std::size_t{1} << 26;

  // `can_end[f]`: the end of input may follow fork f (lexer::ForkFutures::can_end). `skippable[t]`
  // and `ignored[t]` per terminal, as the session's recognizer uses them. The accepted sets are
  // interned into `pool`, which must hold the DWA's weights; the pool is not touched by other
  // threads meanwhile. No node is re-entered once the cells would exceed `max_cells`.
  static SpannerTable build(const lexer::TerminalDwa& dwa, const glr::LrTable& table,
                            std::span<const char> can_end, std::span<const char> skippable,
                            std::span<const char> ignored, TokenSetPool& pool,
                            std::size_t max_cells = kDefaultMaxCells);

  bool is_entry(lexer::DwaNodeId node) const { return entry_of_node_[node] != kNoEntry; }
  // The cell of an entry node for heads with top state `state`, or nullptr when `node` is no
  // entry node or no head can have that state there (a re-entered node only has cells for the
  // states that shift a terminal of a label leading into it).
  const SpannerCell* find_cell(lexer::DwaNodeId node, glr::StateId state) const;
  // The cell of the fork's root (roots have a cell for every state).
  const SpannerCell& cell(lexer::ForkId fork, glr::StateId state) const {
    return cells_[entries_[root_entry_[fork]].first_cell + state];
  }
  const SpannerPlanNode& plan(SpannerPlanId id) const { return plan_nodes_[id]; }
  std::span<const std::uint32_t> plan_weights(const SpannerPlanNode& node) const {
    return {plan_weights_.data() + node.weights_begin, node.weights_end - node.weights_begin};
  }
  std::span<const SpannerPlanEdge> plan_edges(const SpannerPlanNode& node) const {
    return {plan_edges_.data() + node.edges_begin, node.edges_end - node.edges_begin};
  }

  // next_terminals of every fork as bitsets (the end-fork test at run time reads them too).
  const NextTerminalBits& next_terminal_bits() const { return next_; }

  const SpannerTableStats& stats() const { return stats_; }

 private:
  friend class SpannerTableBuilder;

  static constexpr std::uint32_t kNoEntry = UINT32_MAX;

  struct Entry {
    std::uint32_t first_cell = 0;
    // The states with a cell, ascending, in entry_states_; none listed: every state, by index.
    std::uint32_t states_begin = 0;
    std::uint32_t states_end = 0;
  };

  std::vector<std::uint32_t> entry_of_node_;  // per DWA node: its entry index, or kNoEntry
  std::vector<std::uint32_t> root_entry_;     // per fork: the entry index of its root
  std::vector<Entry> entries_;
  std::vector<glr::StateId> entry_states_;
  std::vector<SpannerCell> cells_;
  NextTerminalBits next_;
  std::vector<SpannerPlanNode> plan_nodes_;
  std::vector<std::uint32_t> plan_weights_;
  std::vector<SpannerPlanEdge> plan_edges_;
  SpannerTableStats stats_;
};

inline const SpannerCell* SpannerTable::find_cell(lexer::DwaNodeId node, glr::StateId state) const {
  const std::uint32_t index = entry_of_node_[node];
  if (index == kNoEntry) return nullptr;
  const Entry& entry = entries_[index];
  if (entry.states_begin == entry.states_end) return &cells_[entry.first_cell + state];
  const glr::StateId* begin = entry_states_.data() + entry.states_begin;
  const glr::StateId* end = entry_states_.data() + entry.states_end;
  const glr::StateId* at = std::lower_bound(begin, end, state);
  if (at == end || *at != state) return nullptr;
  return &cells_[entry.first_cell + static_cast<std::uint32_t>(at - begin)];
}

}  // namespace glrmask::mask
