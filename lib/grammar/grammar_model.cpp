#include "lib/grammar/grammar_model.h"

#include <fmt/format.h>

namespace glrmask {

std::string_view GrammarModel::name(SymbolId id) const {
  if (is_terminal(id)) return terminals_[id.value()].name;
  return nonterminal(id).name;
}

std::optional<SymbolId> GrammarModel::find_symbol(std::string_view name) const {
  auto it = ids_by_name_.find(std::string(name));
  if (it == ids_by_name_.end()) return std::nullopt;
  return it->second;
}

const Terminal& GrammarModel::terminal(SymbolId id) const {
  if (!is_terminal(id))
    throw Error(fmt::format("symbol id {} is not a terminal", id.value()),
                ErrorCode::kInvalidArgument);
  return terminals_[id.value()];
}

const Nonterminal& GrammarModel::nonterminal(SymbolId id) const {
  if (is_terminal(id) || id.value() >= num_symbols()) {
    throw Error(fmt::format("symbol id {} is not a nonterminal", id.value()),
                ErrorCode::kInvalidArgument);
  }
  return nonterminals_[id.value() - terminals_.size()];
}

std::size_t GrammarModel::first_rule_of(SymbolId nonterminal_id) const {
  nonterminal(nonterminal_id);  // validates the id
  return rule_offsets_[nonterminal_id.value() - terminals_.size()];
}

std::span<const Rule> GrammarModel::rules_of(SymbolId nonterminal_id) const {
  std::size_t begin = first_rule_of(nonterminal_id);
  std::size_t end = rule_offsets_[nonterminal_id.value() - terminals_.size() + 1];
  return std::span<const Rule>(rules_).subspan(begin, end - begin);
}

std::vector<SymbolId> GrammarModel::ignored_terminals() const {
  std::vector<SymbolId> ignored;
  for (std::size_t t = 0; t < terminals_.size(); ++t) {
    if (terminals_[t].ignored) ignored.push_back(terminal_id(t));
  }
  return ignored;
}

GrammarStats GrammarModel::stats() const {
  GrammarStats stats;
  stats.terminals = terminals_.size();
  stats.ignored_terminals = ignored_terminals().size();
  stats.nonterminals = nonterminals_.size();
  stats.rules = rules_.size();
  for (const Rule& rule : rules_) stats.rhs_symbols += rule.rhs.size();
  return stats;
}

bool GrammarModel::has_token_terminals() const {
  for (const Terminal& terminal : terminals_)
    if (!terminal.token.empty()) return true;
  return false;
}

GrammarModel GrammarModel::with_token_spellings(std::span<const std::string> spellings) const {
  GLRMASK_DCHECK(spellings.size() == terminals_.size(), "{} spellings for {} terminals",
                 spellings.size(), terminals_.size());
  GrammarModel copy = *this;
  for (std::size_t i = 0; i < copy.terminals_.size(); ++i)
    if (!copy.terminals_[i].token.empty()) copy.terminals_[i].token = spellings[i];
  return copy;
}

}  // namespace glrmask
