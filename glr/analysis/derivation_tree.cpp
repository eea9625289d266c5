#include "glr/analysis/derivation_tree.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "glr/analysis/local_graph.h"
#include "glr/strong_components.h"

namespace glrmask::glr {

namespace {

void append_yield(const DerivationTree& tree, std::vector<SymbolId>& out) {
  if (tree.is_leaf()) {
    out.push_back(tree.symbol);
    return;
  }
  for (const TreeRef& child : tree.children) append_yield(*child, out);
}

// Enumerates with memoization for nodes below which the forest has no cycle (their lists do not
// depend on the path that led to them) and a path set for the others.
class TreeEnumerator {
 public:
  TreeEnumerator(const ParseForest& forest, ForestNodeId root, std::size_t limit)
      : forest_(forest), limit_(limit) {
    find_cycles(root);
  }

  const std::vector<TreeRef>& trees(ForestNodeId node) {
    if (auto it = memo_.find(node); it != memo_.end()) return it->second;
    std::vector<TreeRef> result;
    const ParseForest::SymbolNode& symbol = forest_.node(node);
    if (symbol.is_leaf) {
      auto leaf = std::make_shared<DerivationTree>();
      leaf->symbol = symbol.symbol;
      leaf->start = symbol.start;
      leaf->end = symbol.end;
      result.push_back(std::move(leaf));
    } else if (on_path_[node] < kMaxOnPath) {
      ++on_path_[node];
      for (const PackedNodeId packed : forest_.packed_of(node)) {
        if (result.size() >= limit_) break;
        add_products(node, packed, result);
      }
      --on_path_[node];
    }
    if (!reaches_cycle_.contains(node)) return memo_[node] = std::move(result);
    scratch_.push_back(std::make_unique<std::vector<TreeRef>>(std::move(result)));
    return *scratch_.back();
  }

 private:
  void add_products(ForestNodeId node, PackedNodeId packed, std::vector<TreeRef>& result) {
    const std::span<const ForestNodeId> children = forest_.children(packed);
    std::vector<std::vector<TreeRef>> lists;
    lists.reserve(children.size());
    for (const ForestNodeId child : children) {
      lists.push_back(trees(child));  // a copy: memo_ may rehash while the next child is done
      if (lists.back().empty()) return;
    }
    const ParseForest::SymbolNode& symbol = forest_.node(node);
    std::vector<std::size_t> index(children.size(), 0);
    while (result.size() < limit_) {
      auto tree = std::make_shared<DerivationTree>();
      tree->symbol = symbol.symbol;
      tree->start = symbol.start;
      tree->end = symbol.end;
      tree->rule = forest_.packed(packed).rule;
      for (std::size_t i = 0; i < lists.size(); ++i) tree->children.push_back(lists[i][index[i]]);
      result.push_back(std::move(tree));
      // Odometer, the last child fastest.
      std::size_t i = lists.size();
      while (i > 0) {
        --i;
        if (++index[i] < lists[i].size()) break;
        index[i] = 0;
        if (i == 0) return;
      }
      if (lists.empty()) return;
    }
  }

  // Marks the nodes from which a cycle of the forest is reachable.
  void find_cycles(ForestNodeId root) {
    LocalGraph<ForestNodeId> local;
    local.visit(root);
    for (std::size_t i = 0; i < local.nodes.size(); ++i)
      for (const PackedNodeId packed : forest_.packed_of(local.nodes[i]))
        for (const ForestNodeId child : forest_.children(packed)) local.add_edge(i, child);
    const auto n = local.size();
    std::vector<std::vector<std::uint32_t>> successors(n);
    for (const auto& [from, to] : local.edges) successors[from].push_back(to);
    const SinksFirst graph = sinks_first(n, std::move(local.edges));
    std::vector<char> reaches(n, 0);
    for (const std::uint32_t i : graph.order) {
      reaches[i] = graph.on_cycle[i];
      for (const std::uint32_t j : successors[i]) reaches[i] = reaches[i] || reaches[j];
    }
    for (std::uint32_t i = 0; i < n; ++i)
      if (reaches[i]) reaches_cycle_.insert(local.nodes[i]);
  }

  const ParseForest& forest_;
  std::size_t limit_;
  std::unordered_map<ForestNodeId, std::vector<TreeRef>> memo_;
  // A node may occur this often on one path from the root: once around each cycle.
  static constexpr int kMaxOnPath = 2;
  std::unordered_map<ForestNodeId, int> on_path_;
  std::unordered_set<ForestNodeId> reaches_cycle_;
  std::vector<std::unique_ptr<std::vector<TreeRef>>> scratch_;
};

void append_brackets(const DerivationTree& tree, const LrGrammar& grammar,
                     const std::function<std::string(SymbolId)>& name, std::string& out) {
  if (tree.is_leaf()) {
    out += name(tree.symbol);
    return;
  }
  out += '[';
  out += grammar.name(tree.symbol);
  for (const TreeRef& child : tree.children) {
    out += ' ';
    append_brackets(*child, grammar, name, out);
  }
  out += ']';
}

}  // namespace

std::vector<SymbolId> tree_yield(const DerivationTree& tree) {
  std::vector<SymbolId> out;
  append_yield(tree, out);
  return out;
}

bool is_valid_derivation(const LrGrammar& grammar, const DerivationTree& tree, bool allow_gaps) {
  if (tree.is_leaf()) return grammar.is_terminal(tree.symbol) && tree.end == tree.start + 1;
  if (tree.rule >= grammar.num_rules() || grammar.lhs(tree.rule) != tree.symbol) return false;
  const std::span<const SymbolId> rhs = grammar.rhs(tree.rule);
  if (rhs.size() != tree.children.size()) return false;
  std::uint32_t at = tree.start;
  for (std::size_t i = 0; i < rhs.size(); ++i) {
    const DerivationTree& child = *tree.children[i];
    if (child.symbol != rhs[i]) return false;
    if (allow_gaps ? child.start < at : child.start != at) return false;
    if (child.end < child.start) return false;
    if (!is_valid_derivation(grammar, child, allow_gaps)) return false;
    at = child.end;
  }
  return allow_gaps ? at <= tree.end : at == tree.end;
}

bool forest_contains(const ParseForest& forest, const DerivationTree& tree) {
  const std::optional<ForestNodeId> node = forest.find(tree.symbol, tree.start, tree.end);
  if (!node) return false;
  if (tree.is_leaf()) return forest.node(*node).is_leaf;
  std::vector<ForestNodeId> children;
  for (const TreeRef& child : tree.children) {
    const std::optional<ForestNodeId> id = forest.find(child->symbol, child->start, child->end);
    if (!id) return false;
    children.push_back(*id);
  }
  bool packed_found = false;
  for (const PackedNodeId packed : forest.packed_of(*node)) {
    const std::span<const ForestNodeId> actual = forest.children(packed);
    if (forest.packed(packed).rule == tree.rule &&
        std::equal(actual.begin(), actual.end(), children.begin(), children.end())) {
      packed_found = true;
      break;
    }
  }
  if (!packed_found) return false;
  return std::all_of(tree.children.begin(), tree.children.end(),
                     [&](const TreeRef& child) { return forest_contains(forest, *child); });
}

bool same_tree(const DerivationTree& a, const DerivationTree& b) {
  if (&a == &b) return true;
  if (a.symbol != b.symbol || a.start != b.start || a.end != b.end || a.rule != b.rule ||
      a.children.size() != b.children.size())
    return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (!same_tree(*a.children[i], *b.children[i])) return false;
  return true;
}

std::vector<TreeRef> enumerate_trees(const ParseForest& forest, ForestNodeId node,
                                     std::size_t limit) {
  if (limit == 0) return {};
  TreeEnumerator enumerator(forest, node, limit);
  return enumerator.trees(node);
}

std::string format_tree_brackets(const DerivationTree& tree, const LrGrammar& grammar,
                                 const std::function<std::string(SymbolId)>& name) {
  std::string out;
  append_brackets(tree, grammar, name, out);
  return out;
}

}  // namespace glrmask::glr
