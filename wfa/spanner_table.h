// GreatGramma's precomputed split (Algorithms 5 and 6) for the spanner engine, on the Terminal
// DWA and a GLR table: for every (lexer fork f, LR state q), decided once for every parser stack
// whose top state is q,
//   * accepted(f, q): the tokens of f's label trie that such a stack accepts whatever lies below q;
//   * the trie parts rejected for every such stack, which simply do not appear; and
//   * plan(f, q): the context-dependent rest, a pruned copy of f's label trie (the nodes on the
//     way to the weights and subtrees that need the real stack) for the engine to walk on the GSS.
//
// How it is decided. The trie is walked once per (f, q) with a KnownTopParser whose bottom cell is
// q. A node's abstract value lists the known stacks that every real stack with top q reaches on
// the node's labels ("sure"), those that only some reach ("maybe"), and whether some path popped
// below q ("unknown": the real stack decides). A weight is accepted when a sure stack takes a
// terminal of next_terminals(end fork) (or accepts the end when the end fork can end), rejected
// when no sure or maybe stack can and nothing is unknown, and context-dependent otherwise. Labels
// follow IncrementalRecognizer::feed_token exactly: ties are alternatives, an ignored alternative
// keeps the stacks, and a skippable terminal keeps them when no stack shifts it — decided here
// only when every stack with top q shifts it or none does. Once only unknown stacks are left, the
// whole subtree is context-dependent ("walk all").
//
// Several heads. The engine decides each head alone and unites, which is exact as long as no
// label's outcome depends on the other heads. Only the skippable rule does: "no stack shifts it"
// is over all heads. A cell is therefore marked skip-sensitive when its trie walk relied on a
// skippable terminal that not every stack with top q shifts; the engine must not split a GSS with
// several heads on such a cell (it walks the trie on all heads together instead).
//
// Built in parallel over LR states (TBB); memoized per (trie node, abstract value) within a
// state, so subtries shared between forks are decided once.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "glr/lr_table.h"
#include "lexer/terminal_dwa.h"
#include "lib/token_set.h"

namespace glrmask::wfa {

using SpannerPlanId = std::uint32_t;

// One node of a cell's context-dependent plan: a DWA trie node reached by feeding the labels on
// the path from the fork's root to the real heads.
struct SpannerPlanNode {
  lexer::DwaNodeId node = 0;
  // Walk the whole DWA subtree under `node` on the real heads (nothing below was decided).
  bool walk_all = false;
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
  std::size_t cells = 0;                 // forks × states
  std::size_t cells_with_accepted = 0;   // accepted set not empty
  std::size_t cells_with_plan = 0;       // something left to the real stack
  std::size_t cells_walking_all = 0;     // whose plan root walks the whole trie
  std::size_t cells_skip_sensitive = 0;  // not splittable over several heads
  std::size_t distinct_accepted_sets = 0;
  std::size_t plan_nodes = 0;  // distinct, shared between cells
  std::size_t plan_edges = 0;
  std::size_t plan_weights = 0;
  std::size_t memo_entries = 0;  // (trie node, abstract value) pairs decided, summed over states
  std::size_t known_stacks = 0;  // virtual stacks met, summed over states
  std::size_t bytes = 0;         // cells and plans (the accepted sets live in the engine's pool)
  std::size_t accepted_set_bytes = 0;  // CRoaring size of the distinct accepted sets
  double build_seconds = 0;
};

class SpannerTable {
 public:
  static constexpr SpannerPlanId kNoPlan = UINT32_MAX;

  // `can_end[f]`: the end of input may follow fork f (glr::ForkFutures::can_end). `skippable[t]`
  // and `ignored[t]` per terminal, as the session's recognizer uses them. The accepted sets are
  // interned into `pool`, which must hold the DWA's weights; the pool is not touched by other
  // threads meanwhile.
  static SpannerTable build(const lexer::TerminalDwa& dwa, const glr::LrTable& table,
                            std::span<const char> can_end, std::span<const char> skippable,
                            std::span<const char> ignored, TokenSetPool& pool);

  const SpannerCell& cell(lexer::ForkId fork, glr::StateId state) const {
    return cells_[std::size_t{fork} * num_states_ + state];
  }
  const SpannerPlanNode& plan(SpannerPlanId id) const { return plan_nodes_[id]; }
  std::span<const std::uint32_t> plan_weights(const SpannerPlanNode& node) const {
    return {plan_weights_.data() + node.weights_begin, node.weights_end - node.weights_begin};
  }
  std::span<const SpannerPlanEdge> plan_edges(const SpannerPlanNode& node) const {
    return {plan_edges_.data() + node.edges_begin, node.edges_end - node.edges_begin};
  }

  const SpannerTableStats& stats() const { return stats_; }

 private:
  friend class SpannerTableBuilder;

  std::uint32_t num_states_ = 0;
  std::vector<SpannerCell> cells_;  // fork-major
  std::vector<SpannerPlanNode> plan_nodes_;
  std::vector<std::uint32_t> plan_weights_;
  std::vector<SpannerPlanEdge> plan_edges_;
  SpannerTableStats stats_;
};

}  // namespace glrmask::wfa
