#include "glr/glr_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "glr/commit_deadline.h"
#include "glr/forest_builder.h"
#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/core/flat_generation_set.h"
#include "lib/core/flat_map.h"

namespace glrmask::glr {

namespace {

// The recognizer's stand-in for a ForestBuilder: no labels, no forest. The Level below compiles
// the forest code away for it (`if constexpr`), so recognizing costs what it did before forests.
struct NoForest {};
struct NoLabel {};

static_assert(alignof(GssNode) >= 2, "walk() keeps a flag in a node address's low bit");
struct FrontierKeyInfo {
  static std::uint64_t hash(std::uint64_t key) { return key * 0x9E3779B97F4A7C15ull; }
};

// A goto the recognizer has queued in this step: from `below` on `lhs`. Without a forest a
// second one is the same link (add_link adds nothing when the edge exists), so it is not queued
// again: in a highly ambiguous grammar (`s: s s | "a"`) the reduction paths of one step end on
// the same O(n) nodes O(n^2) times over.
struct QueuedGoto {
  const GssNode* below;
  SymbolId lhs;
  bool operator==(const QueuedGoto&) const = default;
};
struct QueuedGotoKeyInfo {
  static QueuedGoto empty() { return {nullptr, std::numeric_limits<SymbolId>::max()}; }
  static std::uint64_t hash(const QueuedGoto& key) {
    return (reinterpret_cast<std::uintptr_t>(key.below) ^ (std::uint64_t{key.lhs} << 47)) *
           0x9E3779B97F4A7C15ull;
  }
};

// The nodes one step creates: the level on which the reductions for `lookahead` run (starting as
// copies of the heads, so the heads themselves stay immutable) and, after them, the shifted
// nodes. All of them live in one fresh block. `Forest` is NoForest (recognize) or ForestBuilder
// (also label every new edge and pack every reduction into the parse forest).
template <class Forest>
class Level {
  static constexpr bool kForest = std::is_same_v<Forest, ForestBuilder>;
  using Label = std::conditional_t<kForest, ForestNodeId, NoLabel>;

 public:
  Level(const LrTable& table, const ParserLimits& limits, SymbolId lookahead,
        [[maybe_unused]] Forest* forest = nullptr)
      : table_(table),
        max_work_(limits.max_step_work != 0 ? limits.max_step_work
                                            : std::numeric_limits<std::uint64_t>::max()),
        lookahead_(lookahead),
        block_(new GssBlock),
        building_(block_.get()) {
    CommitDeadline::check();
    if constexpr (kForest) {
      forest_ = forest;
      forest_->retain(block_);
    }
  }
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

  // Copies the heads into the level and runs every reduction to a fixed point.
  void reduce(std::span<const GssNodeRef> heads) {
    for (const GssNodeRef& head : heads) {
      GssNode* copy = building_->add_node(head->state());
      charge(head->below().size());
      for (const GssNode* below : head->below()) building_->add_edge(copy, below);
      if constexpr (kForest) {
        forest_->add_level_node(copy);
        forest_->copy_labels(copy, head.get());
      }
      nodes_.push_back(copy);
    }
    for (GssNode* node : nodes_) queue_reductions(node, nullptr);
    while (!pending_.empty()) {
      const Goto pending = pending_.back();
      pending_.pop_back();
      const StateId target = table_.goto_state(pending.below->state(), pending.lhs);
      if (target == kNoState) {
        throw Error(
            fmt::format(
                "internal error: LR state {} has no goto on nonterminal {} after a reduction",
                pending.below->state(), pending.lhs),
            ErrorCode::kInternal);
      }
      add_link(target, pending.below, pending.label);
    }
  }

  // With a forest: the root of every accepted parse (the level node holding the accept action
  // sits on the bottom node; its edge is labelled with the start symbol over the whole text).
  std::optional<ForestNodeId> accepted_root() const requires kForest {
    std::optional<ForestNodeId> root;
    for (const GssNode* node : nodes_) {
      for (const Action action : table_.actions(node->state(), lookahead_)) {
        if (!action.is_accept()) continue;
        for (const GssNode* below : node->below()) {
          const ForestNodeId label = forest_->label(node, below);
          if (root && *root != label)
            throw Error("internal error: two roots for one accepted parse forest",
                        ErrorCode::kInternal);
          root = label;
        }
      }
    }
    return root;
  }

  // Whether some level node shifts (or accepts) the lookahead.
  bool any_shift() const {
    return std::any_of(nodes_.begin(), nodes_.end(), [&](const GssNode* node) {
      for (const Action action : table_.actions(node->state(), lookahead_))
        if (action.is_shift() || action.is_accept()) return true;
      return false;
    });
  }

  // The shift itself: the new heads, sorted by state.
  GssHeads shift() {
    std::vector<GssNode*> shifted;
    for (GssNode* node : nodes_) {
      for (const Action action : table_.actions(node->state(), lookahead_)) {
        if (!action.is_shift()) continue;
        auto it = std::find_if(shifted.begin(), shifted.end(), [&](const GssNode* head) {
          return head->state() == action.target();
        });
        GssNode* head =
            it != shifted.end() ? *it : shifted.emplace_back(building_->add_node(action.target()));
        charge(1);
        building_->add_edge(head, node);
        if constexpr (kForest)
          forest_->set_label(head, node, forest_->forest().leaf(lookahead_, forest_->position()));
      }
    }
    std::sort(shifted.begin(), shifted.end(),
              [](const GssNode* a, const GssNode* b) { return a->state() < b->state(); });
    GssHeads heads;
    heads.reserve(shifted.size());
    for (const GssNode* node : shifted) heads.emplace_back(node);
    return heads;
  }

 private:
  // Counts `edges` visited by this step against ParserLimits::max_step_work, and every few
  // thousand looks at the commit's deadline too.
  void charge(std::uint64_t edges) {
    work_ += edges;
    if (work_ > max_work_) {
      throw Error(fmt::format("a parser step visited more than {} GSS edges (limit "
                              "Limits::max_step_work): the grammar is too ambiguous on "
                              "this text",
                              max_work_),
                  ErrorCode::kLimit);
    }
    if (work_ < next_check_) return;
    next_check_ = work_ + kCheckEvery;
    CommitDeadline::check();
  }
  static constexpr std::uint64_t kCheckEvery = 4096;

  GssNode* find(StateId state) const {
    for (GssNode* node : nodes_)
      if (node->state() == state) return node;
    return nullptr;
  }

  // A goto still to perform: from `below` on `lhs`; with a forest, the edge's label.
  struct Goto {
    const GssNode* below;
    SymbolId lhs;
    [[no_unique_address]] Label label;
  };

  // The goto on a reduced nonterminal from `below` lands in `target`: link a level node in that
  // state to `below`, creating the node if needed.
  void add_link(StateId target, const GssNode* below, [[maybe_unused]] Label label) {
    const bool internal = building_->contains(below);
    GssNode* node = find(target);
    charge(1);
    if (node == nullptr) {
      node = building_->add_node(target);
      building_->add_edge(node, below);
      if constexpr (kForest) {
        forest_->add_level_node(node);
        forest_->set_label(node, below, label);
      }
      nodes_.push_back(node);
      has_internal_edges_ = has_internal_edges_ || internal;
      queue_reductions(node, nullptr);
      return;
    }
    if (!building_->add_edge(node, below)) return;
    if constexpr (kForest) forest_->set_label(node, below, label);
    has_internal_edges_ = has_internal_edges_ || internal;
    if (!has_internal_edges_) {
      // Nothing in the level sits above another level node, so only paths that start with the
      // new edge are new.
      queue_reductions(node, below);
      return;
    }
    // Farshi's correction: a level node above `node` may have a reduction path that runs through
    // the new edge. Redo every reduction of the level, restricted to paths using the new edge.
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      queue_reductions_through(nodes_[i], node, below);
  }

  // Queues the gotos of the node's reductions: over every path (first_edge == nullptr), or only
  // over paths whose first edge leads to `first_edge` (ε-reductions do not depend on edges and
  // are queued only in the first case).
  void queue_reductions(const GssNode* node, const GssNode* first_edge) {
    for (const Action action : table_.actions(node->state(), lookahead_)) {
      if (!action.is_reduce()) continue;
      const std::uint32_t length = table_.rule_length(action.rule());
      const SymbolId lhs = table_.rule_lhs(action.rule());
      if (length == 0) {
        if (first_edge != nullptr) continue;
        if constexpr (kForest) {
          path_labels_.clear();
          const ForestNodeId label = pack(action.rule(), lhs, node);
          pending_.push_back({node, lhs, label});
        } else {
          pending_.push_back({node, lhs, {}});
        }
        continue;
      }
      // Only the new edge's paths when one is given: scanning the node's edges for it would
      // make a node that collects an edge per earlier position cost n^2.
      const std::span<const GssNode* const> first_edges =
          first_edge != nullptr ? std::span<const GssNode* const>(&first_edge, 1) : node->below();
      for (const GssNode* below : first_edges) {
        if constexpr (kForest) {
          path_labels_.assign(1, forest_->label(node, below));
          walk_paths(below, length - 1, true, nullptr, nullptr, action.rule(), lhs);
        } else {
          walk(below, length - 1, true, nullptr, nullptr, lhs);
        }
      }
    }
  }

  // As queue_reductions, but only paths from `node` that contain the edge above -> below.
  void queue_reductions_through(const GssNode* node, const GssNode* above, const GssNode* below) {
    for (const Action action : table_.actions(node->state(), lookahead_)) {
      if (!action.is_reduce()) continue;
      const std::uint32_t length = table_.rule_length(action.rule());
      if (length == 0) continue;
      if constexpr (kForest) {
        path_labels_.clear();
        walk_paths(node, length, false, above, below, action.rule(),
                   table_.rule_lhs(action.rule()));
      } else {
        walk(node, length, false, above, below, table_.rule_lhs(action.rule()));
      }
    }
  }

  // Queues a goto on `lhs` from every node that a path of `steps` edges down from `node` reaches,
  // counting only paths that take the edge edge_above -> edge_below unless `used` is already set.
  // The paths are followed layer by layer with duplicates merged, so an ambiguous GSS (where the
  // number of paths grows much faster than the number of nodes) costs only its edges.
  void walk(const GssNode* node, std::uint32_t steps, bool used, const GssNode* edge_above,
            const GssNode* edge_below, SymbolId lhs) {
    frontier_.assign(1, {node, used});
    for (std::uint32_t step = 0; step < steps && !frontier_.empty(); ++step) {
      next_frontier_.clear();
      // From one node the ends are its edges, distinct already; several nodes' ends are merged
      // as they come (paths that meet again are walked on once).
      const bool merge = frontier_.size() > 1;
      if (merge) frontier_seen_.clear();
      for (const auto& [at, at_used] : frontier_) {
        charge(at->below().size());
        for (const GssNode* below : at->below()) {
          const bool below_used = at_used || (at == edge_above && below == edge_below);
          if (merge && !frontier_seen_.insert(reinterpret_cast<std::uintptr_t>(below) |
                                              (below_used ? 1 : 0)))
            continue;
          next_frontier_.emplace_back(below, below_used);
        }
      }
      frontier_.swap(next_frontier_);
    }
    for (const auto& [end, end_used] : frontier_)
      if (end_used && queued_.insert({end, lhs})) pending_.push_back({end, lhs, {}});
  }

  // The forest's walk: every path separately (its labels are the derivation's children, so paths
  // cannot be merged), depth first. path_labels_ holds the labels of the edges above `node`,
  // top first. Each path that qualifies packs a derivation and queues its goto.
  void walk_paths(const GssNode* node, std::uint32_t steps, bool used, const GssNode* edge_above,
                  const GssNode* edge_below, RuleId rule, SymbolId lhs) requires kForest {
    if (steps == 0) {
      if (used) pending_.push_back({node, lhs, pack(rule, lhs, node)});
      return;
    }
    charge(node->below().size());
    for (const GssNode* below : node->below()) {
      path_labels_.push_back(forest_->label(node, below));
      walk_paths(below, steps - 1, used || (node == edge_above && below == edge_below), edge_above,
                 edge_below, rule, lhs);
      path_labels_.pop_back();
    }
  }

  // Packs `rule` over the current path (path_labels_, top first) into the node of `lhs` from
  // `end` (the node the path ends on) to the current position; returns that node.
  ForestNodeId pack(RuleId rule, SymbolId lhs, const GssNode* end) requires kForest {
    ParseForest& forest = forest_->forest();
    const ForestNodeId node =
        forest.symbol_node(lhs, forest_->node_position(end), forest_->position());
    children_.assign(path_labels_.rbegin(), path_labels_.rend());
    forest.add_packed(node, rule, children_);
    return node;
  }

  const LrTable& table_;
  std::uint64_t max_work_;  // ParserLimits::max_step_work, or no limit
  SymbolId lookahead_;
  std::uint64_t work_ = 0;  // GSS edges visited by this step (charge())
  std::uint64_t next_check_ = kCheckEvery;
  boost::intrusive_ptr<GssBlock> block_;  // keeps the level alive while it is built
  GssBlock* building_;
  std::vector<GssNode*> nodes_;
  std::vector<Goto> pending_;
  FlatSet<QueuedGoto, QueuedGotoKeyInfo> queued_;  // walk()'s gotos of this step
  bool has_internal_edges_ = false;  // some level node sits directly on another level node
  std::vector<std::pair<const GssNode*, bool>> frontier_;  // walk() scratch
  std::vector<std::pair<const GssNode*, bool>> next_frontier_;
  // The (node, used) pairs of next_frontier_, as the node's address with `used` in its low bit
  // (nodes are aligned).
  GenerationSet<std::uint64_t, FrontierKeyInfo> frontier_seen_;
  // Forest only.
  [[no_unique_address]] std::conditional_t<kForest, ForestBuilder*, NoForest> forest_;
  [[no_unique_address]] std::conditional_t<kForest, std::vector<ForestNodeId>, NoForest>
      path_labels_;
  [[no_unique_address]] std::conditional_t<kForest, std::vector<ForestNodeId>, NoForest> children_;
};

}  // namespace

GlrParser::GlrParser(const LrTable& table, ParserLimits limits)
    : table_(&table), end_of_input_(table.num_terminals() - 1), limits_(limits) {}

GssHeads GlrParser::initial_heads() const {
  boost::intrusive_ptr<GssBlock> block(new GssBlock);
  const GssNode* start = block->add_node(0);
  GssHeads heads;
  heads.emplace_back(start);
  return heads;
}

GssHeads GlrParser::shift(std::span<const GssNodeRef> heads, SymbolId terminal) const {
  GLRMASK_DCHECK(are_canonical_heads(heads));
  Level<NoForest> level(*table_, limits_, terminal);
  level.reduce(heads);
  GssHeads shifted = level.shift();
  GLRMASK_DCHECK(are_canonical_heads(shifted));
  return shifted;
}

GssHeads GlrParser::shift(std::span<const GssNodeRef> heads, SymbolId terminal,
                          ForestBuilder& forest) const {
  Level<ForestBuilder> level(*table_, limits_, terminal, &forest);
  level.reduce(heads);
  return level.shift();
}

std::optional<ForestNodeId> GlrParser::accept(std::span<const GssNodeRef> heads,
                                              ForestBuilder& forest) const {
  Level<ForestBuilder> level(*table_, limits_, end_of_input_, &forest);
  level.reduce(heads);
  return level.accepted_root();
}

bool GlrParser::can_shift(std::span<const GssNodeRef> heads, SymbolId terminal) const {
  // Fast paths: a head that shifts at once, or no head with any action on the terminal.
  bool any_reduction = false;
  for (const GssNodeRef& head : heads) {
    for (const Action action : table_->actions(head->state(), terminal)) {
      if (!action.is_reduce()) return true;
      any_reduction = true;
    }
  }
  if (!any_reduction) return false;
  Level<NoForest> level(*table_, limits_, terminal);
  level.reduce(heads);
  return level.any_shift();
}

std::vector<SymbolId> GlrParser::shiftable_terminals(std::span<const GssNodeRef> heads) const {
  std::vector<SymbolId> terminals;
  for (SymbolId terminal = 0; terminal <= end_of_input_; ++terminal)
    if (can_shift(heads, terminal)) terminals.push_back(terminal);
  return terminals;
}

GssHeads GlrParser::merge(std::span<const GssNodeRef> a, std::span<const GssNodeRef> b) {
  return merge(a, b, nullptr);
}

GssHeads GlrParser::merge(std::span<const GssNodeRef> a, std::span<const GssNodeRef> b,
                          ForestBuilder* forest) {
  // The merge walks both sides in state order, pairing equal states.
  GLRMASK_DCHECK(are_canonical_heads(a) && are_canonical_heads(b));
  GssHeads merged;
  merged.reserve(a.size() + b.size());
  boost::intrusive_ptr<GssBlock> block;  // created on the first state both sides hold
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i]->state() < b[j]->state())) {
      merged.push_back(a[i++]);
    } else if (i == a.size() || b[j]->state() < a[i]->state()) {
      merged.push_back(b[j++]);
    } else if (a[i].get() == b[j].get()) {
      merged.push_back(a[i++]);
      ++j;
    } else {
      if (!block) {
        block.reset(new GssBlock);
        if (forest != nullptr) forest->retain(block);
      }
      GssBlock* building = block.get();
      GssNode* node = building->add_node(a[i]->state());
      for (const GssNode* below : a[i]->below()) building->add_edge(node, below);
      for (const GssNode* below : b[j]->below()) building->add_edge(node, below);
      if (forest != nullptr) {
        forest->copy_labels(node, a[i].get());
        forest->copy_labels(node, b[j].get());
      }
      merged.emplace_back(node);
      ++i;
      ++j;
    }
  }
  GLRMASK_DCHECK(are_canonical_heads(merged));
  return merged;
}

}  // namespace glrmask::glr
