#include "lib/grammar/grammar.h"

#include <fmt/format.h>

namespace glrmask {

std::string_view Grammar::name(SymbolId id) const {
  if (is_terminal(id)) return terminals_[id].name;
  return nonterminal(id).name;
}

std::optional<SymbolId> Grammar::find_symbol(std::string_view name) const {
  auto it = ids_by_name_.find(std::string(name));
  if (it == ids_by_name_.end()) return std::nullopt;
  return it->second;
}

const Terminal& Grammar::terminal(SymbolId id) const {
  if (!is_terminal(id)) throw Error(fmt::format("symbol id {} is not a terminal", id));
  return terminals_[id];
}

const Nonterminal& Grammar::nonterminal(SymbolId id) const {
  if (is_terminal(id) || id >= num_symbols()) {
    throw Error(fmt::format("symbol id {} is not a nonterminal", id));
  }
  return nonterminals_[id - terminals_.size()];
}

std::size_t Grammar::first_rule_of(SymbolId nonterminal_id) const {
  nonterminal(nonterminal_id);  // validates the id
  return rule_offsets_[nonterminal_id - terminals_.size()];
}

std::span<const Rule> Grammar::rules_of(SymbolId nonterminal_id) const {
  std::size_t begin = first_rule_of(nonterminal_id);
  std::size_t end = rule_offsets_[nonterminal_id - terminals_.size() + 1];
  return std::span<const Rule>(rules_).subspan(begin, end - begin);
}

std::vector<SymbolId> Grammar::ignored_terminals() const {
  std::vector<SymbolId> ignored;
  for (SymbolId id = 0; id < terminals_.size(); ++id) {
    if (terminals_[id].ignored) ignored.push_back(id);
  }
  return ignored;
}

GrammarStats Grammar::stats() const {
  GrammarStats stats;
  stats.terminals = terminals_.size();
  stats.ignored_terminals = ignored_terminals().size();
  stats.nonterminals = nonterminals_.size();
  stats.rules = rules_.size();
  for (const Rule& rule : rules_) stats.rhs_symbols += rule.rhs.size();
  return stats;
}

}  // namespace glrmask
