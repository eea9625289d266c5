#include "glr/parse_forest.h"

#include <algorithm>

namespace glrmask::glr {

std::size_t ParseForest::KeyHash::operator()(const Key& key) const {
  std::uint64_t h = key.symbol;
  h = h * 0x9E3779B97F4A7C15ull + key.start;
  h = h * 0x9E3779B97F4A7C15ull + key.end;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

ForestNodeId ParseForest::add_node(SymbolId symbol, std::uint32_t start, std::uint32_t end,
                                   bool leaf) {
  const Key key{symbol, start, end};
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  const auto id = static_cast<ForestNodeId>(nodes_.size());
  nodes_.push_back({symbol, start, end, leaf});
  packed_of_.emplace_back();
  index_.emplace(key, id);
  return id;
}

ForestNodeId ParseForest::leaf(SymbolId terminal, std::uint32_t token) {
  return add_node(terminal, token, token + 1, true);
}

ForestNodeId ParseForest::symbol_node(SymbolId symbol, std::uint32_t start, std::uint32_t end) {
  return add_node(symbol, start, end, false);
}

bool ParseForest::add_packed(ForestNodeId node, RuleId rule,
                             std::span<const ForestNodeId> children) {
  // A node has few derivations (one in an unambiguous text), so a linear scan finds duplicates.
  for (const PackedNodeId id : packed_of_[node]) {
    const PackedNode& existing = packed_[id];
    if (existing.rule != rule || existing.num_children != children.size()) continue;
    const auto begin = children_.begin() + existing.children_begin;
    if (std::equal(children.begin(), children.end(), begin)) return false;
  }
  const auto id = static_cast<PackedNodeId>(packed_.size());
  packed_.push_back({node, rule, static_cast<std::uint32_t>(children_.size()),
                     static_cast<std::uint32_t>(children.size())});
  children_.insert(children_.end(), children.begin(), children.end());
  packed_of_[node].push_back(id);
  return true;
}

std::optional<ForestNodeId> ParseForest::find(SymbolId symbol, std::uint32_t start,
                                              std::uint32_t end) const {
  if (auto it = index_.find(Key{symbol, start, end}); it != index_.end()) return it->second;
  return std::nullopt;
}

}  // namespace glrmask::glr
