#include "glr/unbounded_reductions.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "glr/cfg_emptiness.h"
#include "glr/strong_components.h"

namespace glrmask::glr {
namespace {

// An edge A -> X of the left-corner relation, from a rule A: alpha X beta; the relation's nodes
// are the symbols' indices (GrammarSymbolId::value()).
struct Edge {
  std::uint32_t from;
  std::uint32_t to;
  std::size_t rule;
  bool hidden;          // alpha is non-empty (and nullable)
  bool whole_nullable;  // alpha and beta are both nullable: A =>+ X
};

// Nonterminals reachable from the start symbol through productive rules.
std::vector<char> reachable_nonterminals(const Cfg& cfg, const CfgEmptiness& emptiness) {
  std::vector<std::vector<std::size_t>> rules_of(cfg.num_symbols());
  for (std::size_t r = 0; r < cfg.rules.size(); ++r)
    rules_of[cfg.rules[r].lhs.value()].push_back(r);
  std::vector<char> reached(cfg.num_symbols(), 0);
  std::vector<GrammarSymbolId> work = {cfg.start};
  reached[cfg.start.value()] = 1;
  while (!work.empty()) {
    const GrammarSymbolId symbol = work.back();
    work.pop_back();
    for (const std::size_t r : rules_of[symbol.value()]) {
      if (!emptiness.rule_productive(cfg.rules[r])) continue;
      for (const GrammarSymbolId s : cfg.rules[r].rhs) {
        if (cfg.is_terminal(s) || reached[s.value()] != 0) continue;
        reached[s.value()] = 1;
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
    if (reachable[rule.lhs.value()] == 0 || !emptiness.rule_productive(rule)) continue;
    const std::size_t non_nullable = static_cast<std::size_t>(
        std::count_if(rule.rhs.begin(), rule.rhs.end(),
                      [&](GrammarSymbolId s) { return emptiness.nullable[s.value()] == 0; }));
    for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
      const GrammarSymbolId symbol = rule.rhs[i];
      const bool nullable = emptiness.nullable[symbol.value()] != 0;
      if (!cfg.is_terminal(symbol)) {
        // The rest is nullable iff no other symbol is non-nullable.
        const bool rest_nullable = non_nullable == 0 || (non_nullable == 1 && !nullable);
        edges.push_back({rule.lhs.value(), symbol.value(), r, i > 0, rest_nullable});
      }
      if (!nullable) break;  // later symbols are no left corners
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
  std::string text = cfg.name(rule.lhs) + " ->";
  for (const GrammarSymbolId symbol : rule.rhs) text += " " + cfg.name(symbol);
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
  for (std::uint32_t s = cfg.num_terminals; s < cfg.num_symbols(); ++s)
    if (reachable[s] != 0 && bad_component[left_corner[s]] != 0)
      result.nonterminals.push_back(GrammarSymbolId{s});
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
