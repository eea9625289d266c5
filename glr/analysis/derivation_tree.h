// One parse tree: a rule at each inner node, a terminal over one token at each leaf, every node
// with the token span it covers. Subtrees are shared (shared_ptr to const), so the trees a forest
// enumeration lists, or the two derivations of a counterexample, cost little beyond their
// differences.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "glr/ids.h"
#include "glr/lr_grammar.h"
#include "glr/parse_forest.h"

namespace glrmask::glr {

inline constexpr RuleId kNoRule = std::numeric_limits<RuleId>::max();

struct DerivationTree;
using TreeRef = std::shared_ptr<const DerivationTree>;

struct DerivationTree {
  SymbolId symbol = 0;  // LrGrammar ids
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  RuleId rule = kNoRule;  // kNoRule at a leaf
  std::vector<TreeRef> children;

  bool is_leaf() const { return rule == kNoRule; }
};

// The terminals at the leaves, left to right.
std::vector<SymbolId> tree_yield(const DerivationTree& tree);

// Whether the tree is a derivation of the grammar: every inner node's rule has the node's symbol
// on its left and the children's symbols on its right, spans tile (each child starts where the
// previous ended, the first at the node's start, the last ending at its end; skipped tokens
// excepted when `allow_gaps`), and leaves cover one token.
bool is_valid_derivation(const LrGrammar& grammar, const DerivationTree& tree,
                         bool allow_gaps = false);

// Whether every node of the tree is in the forest: a leaf as a leaf, an inner node as a packed
// node with its rule and its children's nodes.
bool forest_contains(const ParseForest& forest, const DerivationTree& tree);

// Structural equality (symbols, spans, rules).
bool same_tree(const DerivationTree& a, const DerivationTree& b);

// Up to `limit` distinct trees of a forest node, in a fixed order. A cyclic forest has infinitely
// many; then only trees in which no node lies more than once below itself are listed (each cycle
// taken at most once on a path: finitely many).
std::vector<TreeRef> enumerate_trees(const ParseForest& forest, ForestNodeId node,
                                     std::size_t limit);

// One line, for counterexamples: `[start "i" [start "a"]]`, leaves named by `name`.
std::string format_tree_brackets(const DerivationTree& tree, const LrGrammar& grammar,
                                 const std::function<std::string(SymbolId)>& name);

}  // namespace glrmask::glr
