// What the GLR parser needs to build a parse forest while it parses: the SPPF node each GSS edge
// stands for, the input position of each GSS node, and the current token. It is passed to the
// forest-building overloads of GlrParser (glr_parser.h); the recognizing ones never see it, so
// decoding pays nothing for forests.
//
// Every GSS edge is labelled with the symbol node of what it spans: a shift edge with the leaf of
// the token, a goto edge with (lhs, position of the node below, current position), a copied head
// edge with the label of the edge it copies. Reducing over a path of edges then packs the rule
// with the path's labels as children. Symbol nodes are shared by (symbol, start, end), so a
// derivation found on one path is seen by every edge that carries the node.
//
// Positions are token indexes: the lookahead of step i is token i (end of input: the number of
// tokens). The builder keeps every GSS block of the parse alive, so node addresses are never
// reused while it labels them.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glr/gss.h"
#include "glr/ids.h"
#include "glr/parse_forest.h"

namespace glrmask::glr {

class ForestBuilder {
 public:
  // `forest` must outlive the builder.
  explicit ForestBuilder(ParseForest& forest) : forest_(&forest) {}

  ParseForest& forest() { return *forest_; }
  const ParseForest& forest() const { return *forest_; }

  // The token index the next parser step reads as its lookahead.
  std::uint32_t position() const { return position_; }
  void set_position(std::uint32_t position) { position_ = position; }

  // --- Hooks called by GlrParser ---
  // A node of the level being built at position().
  void add_level_node(const GssNode* node) { node_position_[node] = position_; }
  std::uint32_t node_position(const GssNode* node) const;
  void set_label(const GssNode* above, const GssNode* below, ForestNodeId label) {
    labels_[{above, below}] = label;
  }
  ForestNodeId label(const GssNode* above, const GssNode* below) const;
  // Gives `copy` the labels of `original`'s edges (both have the same edges).
  void copy_labels(const GssNode* copy, const GssNode* original);
  void retain(GssBlockRef block) { blocks_.push_back(std::move(block)); }

 private:
  struct EdgeHash {
    std::size_t operator()(const std::pair<const GssNode*, const GssNode*>& edge) const {
      const auto a = reinterpret_cast<std::uintptr_t>(edge.first);
      const auto b = reinterpret_cast<std::uintptr_t>(edge.second);
      return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ull) ^ (b + (a >> 7)));
    }
  };

  ParseForest* forest_;
  std::uint32_t position_ = 0;
  std::unordered_map<const GssNode*, std::uint32_t> node_position_;
  std::unordered_map<std::pair<const GssNode*, const GssNode*>, ForestNodeId, EdgeHash> labels_;
  std::vector<GssBlockRef> blocks_;
};

}  // namespace glrmask::glr
