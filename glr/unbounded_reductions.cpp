#include "glr/unbounded_reductions.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "glr/cfg_emptiness.h"
#include "glr/strong_components.h"

namespace glrmask::glr {
namespace {

// An edge A -> X of the left-corner relation, from a rule A: alpha X beta.
struct Edge {
  SymbolId from;
  SymbolId to;
  std::size_t rule;
  bool hidden;          // alpha is non-empty (and nullable)
  bool whole_nullable;  // alpha and beta are both nullable: A =>+ X
};

// Nonterminals reachable from the start symbol through productive rules.
std::vector<char> reachable_nonterminals(const Cfg& cfg, const CfgEmptiness& emptiness) {
  std::vector<std::vector<std::size_t>> rules_of(cfg.num_symbols());
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) rules_of[cfg.rules[r].lhs].push_back(r);
  std::vector<char> reached(cfg.num_symbols(), 0);
  std::vector<SymbolId> work = {cfg.start};
  reached[cfg.start] = 1;
  while (!work.empty()) {
    const SymbolId symbol = work.back();
    work.pop_back();
    for (const std::size_t r : rules_of[symbol]) {
      if (!emptiness.rule_productive(cfg.rules[r])) continue;
      for (const SymbolId s : cfg.rules[r].rhs) {
        if (cfg.is_terminal(s) || reached[s] != 0) continue;
        reached[s] = 1;
        work.push_back(s);
      }
    }
  }
  return reached;
}

std::vector<Edge> left_corner_edges(const Cfg& cfg, const CfgEmptiness& emptiness,
                                    const std::vector<char>& reachable) {
  std::vector<Edge> edges;
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    const Cfg::Rule& rule = cfg.rules[r];
    if (reachable[rule.lhs] == 0 || !emptiness.rule_productive(rule)) continue;
    const std::size_t non_nullable = static_cast<std::size_t>(std::count_if(
        rule.rhs.begin(), rule.rhs.end(), [&](SymbolId s) { return emptiness.nullable[s] == 0; }));
    for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
      const SymbolId symbol = rule.rhs[i];
      if (!cfg.is_terminal(symbol)) {
        // The rest is nullable iff no other symbol is non-nullable.
        const bool rest_nullable =
            non_nullable == 0 || (non_nullable == 1 && emptiness.nullable[symbol] == 0);
        edges.push_back({rule.lhs, symbol, r, i > 0, rest_nullable});
      }
      if (emptiness.nullable[symbol] == 0) break;  // later symbols are no left corners
    }
  }
  return edges;
}

Relation relation_of(const Cfg& cfg, const std::vector<Edge>& edges, bool whole_nullable_only) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const Edge& edge : edges)
    if (!whole_nullable_only || edge.whole_nullable) pairs.emplace_back(edge.from, edge.to);
  return Relation::from_pairs(cfg.num_symbols(), std::move(pairs));
}

const char* kind_name(UnboundedReductions::Kind kind) {
  return kind == UnboundedReductions::Kind::kDerivationCycle ? "derivation cycle"
                                                             : "hidden left recursion";
}

}  // namespace

std::string cfg_rule_text(const Cfg& cfg, const Cfg::Rule& rule) {
  std::string text = cfg.symbol_names[rule.lhs] + " ->";
  for (const SymbolId symbol : rule.rhs) text += " " + cfg.symbol_names[symbol];
  if (!rule.origin.empty()) text += " (" + rule.origin + ")";
  return text;
}

UnboundedReductions find_unbounded_reductions(const Cfg& cfg) {
  const CfgEmptiness emptiness(cfg);
  const std::vector<char> reachable = reachable_nonterminals(cfg, emptiness);
  const std::vector<Edge> edges = left_corner_edges(cfg, emptiness, reachable);
  const std::vector<std::uint32_t> left_corner = strong_components(relation_of(cfg, edges, false));
  const std::vector<std::uint32_t> derivation = strong_components(relation_of(cfg, edges, true));

  UnboundedReductions result;
  std::vector<char> bad_component(cfg.num_symbols(), 0);  // indexed by left-corner component id
  for (const Edge& edge : edges) {
    // A derivation-relation loop lies inside one left-corner component too (the relation is a
    // subset), so marking that component covers both kinds.
    if (edge.whole_nullable && derivation[edge.from] == derivation[edge.to])
      result.loops.push_back({UnboundedReductions::Kind::kDerivationCycle, edge.rule});
    else if (edge.hidden && left_corner[edge.from] == left_corner[edge.to])
      result.loops.push_back({UnboundedReductions::Kind::kHiddenLeftRecursion, edge.rule});
    else
      continue;
    bad_component[left_corner[edge.from]] = 1;
  }
  std::sort(result.loops.begin(), result.loops.end(), [](const auto& a, const auto& b) {
    return std::pair(a.rule, a.kind) < std::pair(b.rule, b.kind);
  });
  result.loops.erase(std::unique(result.loops.begin(), result.loops.end(),
                                 [](const auto& a, const auto& b) {
                                   return a.rule == b.rule && a.kind == b.kind;
                                 }),
                     result.loops.end());
  for (SymbolId s = cfg.num_terminals; s < cfg.num_symbols(); ++s)
    if (reachable[s] != 0 && bad_component[left_corner[s]] != 0) result.nonterminals.push_back(s);
  return result;
}

std::string UnboundedReductions::describe(const Cfg& cfg) const {
  std::string text;
  for (const Loop& loop : loops)
    text +=
        fmt::format("  {}: {}\n", kind_name(loop.kind), cfg_rule_text(cfg, cfg.rules[loop.rule]));
  return text;
}

}  // namespace glrmask::glr
