// A shared packed parse forest (SPPF) in the sense of Rekers' thesis and of Scott and Johnstone's
// RNGLR papers: every parse tree of a text, with equal subtrees stored once.
//
//  - A *symbol node* is (symbol, start, end): a terminal leaf covering one token, or a nonterminal
//    that derives the tokens start .. end-1 (end may equal start: an ε-derivation). There is one
//    node per triple, so every derivation of a symbol over a span is found in one place.
//  - A *packed node* is one way to derive its symbol node: a rule and the symbol nodes of the
//    rule's right-hand side, left to right. Two packed nodes of one symbol node always differ (the
//    forest refuses duplicates), so a symbol node with k packed nodes is a k-way ambiguity.
//
// Positions are indexes into the token stream the parser was fed, so a token the parser skipped
// (an %ignore'd tie alternative, a skippable terminal) sits inside a span without a leaf of its
// own. Symbols and rules are those of the LrGrammar the parser's table was built from.
//
// A forest of a cyclic grammar can contain cycles (`a: a | "x"` makes (a,0,1) a child of its own
// packed node): the text then has infinitely many trees (derivation_count.h says so).
//
// Nodes are never removed and ids are dense, so the forest is a plain graph of arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "glr/ids.h"

namespace glrmask::glr {

using ForestNodeId = std::uint32_t;
using PackedNodeId = std::uint32_t;

class ParseForest {
 public:
  struct SymbolNode {
    SymbolId symbol = 0;
    std::uint32_t start = 0;
    std::uint32_t end = 0;
    bool is_leaf = false;  // a terminal covering one token
  };
  struct PackedNode {
    ForestNodeId parent = 0;
    RuleId rule = 0;
    std::uint32_t children_begin = 0;
    std::uint32_t num_children = 0;
  };

  // The leaf of `terminal` over token `token`.
  ForestNodeId leaf(SymbolId terminal, std::uint32_t token);
  // The node of a nonterminal over [start, end), created without derivations if new.
  ForestNodeId symbol_node(SymbolId symbol, std::uint32_t start, std::uint32_t end);
  // Adds the derivation `rule` with these children to a nonterminal node; false (nothing added)
  // when the node already has exactly this derivation.
  bool add_packed(ForestNodeId node, RuleId rule, std::span<const ForestNodeId> children);

  std::size_t num_nodes() const { return nodes_.size(); }
  std::size_t num_packed() const { return packed_.size(); }
  const SymbolNode& node(ForestNodeId id) const { return nodes_[id]; }
  std::span<const PackedNodeId> packed_of(ForestNodeId id) const { return packed_of_[id]; }
  const PackedNode& packed(PackedNodeId id) const { return packed_[id]; }
  std::span<const ForestNodeId> children(PackedNodeId id) const {
    return {children_.data() + packed_[id].children_begin, packed_[id].num_children};
  }
  // The node of (symbol, start, end), if the forest has one.
  std::optional<ForestNodeId> find(SymbolId symbol, std::uint32_t start, std::uint32_t end) const;

  // The node of the start symbol over the whole text, once a parse accepted.
  std::optional<ForestNodeId> root() const { return root_; }
  void set_root(ForestNodeId root) { root_ = root; }

 private:
  struct Key {
    SymbolId symbol;
    std::uint32_t start;
    std::uint32_t end;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const;
  };

  ForestNodeId add_node(SymbolId symbol, std::uint32_t start, std::uint32_t end, bool leaf);

  std::vector<SymbolNode> nodes_;
  std::vector<std::vector<PackedNodeId>> packed_of_;
  std::vector<PackedNode> packed_;
  std::vector<ForestNodeId> children_;
  std::unordered_map<Key, ForestNodeId, KeyHash> index_;
  std::optional<ForestNodeId> root_;
};

}  // namespace glrmask::glr
