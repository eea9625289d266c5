#include "glr/lr_grammar.h"

namespace glrmask::glr {

LrGrammar::LrGrammar(const Cfg& cfg) {
  validate(cfg);
  num_terminals_ = cfg.num_terminals + 1;
  names_.reserve(cfg.num_symbols() + 2);
  names_.insert(names_.end(), cfg.symbol_names.begin(),
                cfg.symbol_names.begin() + cfg.num_terminals);
  names_.push_back("$END");
  names_.insert(names_.end(), cfg.symbol_names.begin() + cfg.num_terminals, cfg.symbol_names.end());
  names_.push_back("$accept");

  const std::size_t num_rules = cfg.rules.size() + 1;
  lhs_.reserve(num_rules);
  rhs_begin_.reserve(num_rules + 1);
  priority_.reserve(num_rules);
  origin_.reserve(num_rules);
  rhs_begin_.push_back(0);
  for (const Cfg::Rule& rule : cfg.rules) {
    lhs_.push_back(from_cfg_symbol(rule.lhs));
    for (const GrammarSymbolId symbol : rule.rhs) rhs_symbols_.push_back(from_cfg_symbol(symbol));
    rhs_begin_.push_back(static_cast<std::uint32_t>(rhs_symbols_.size()));
    priority_.push_back(rule.priority);
    origin_.push_back(rule.origin);
  }
  lhs_.push_back(accept_symbol());
  rhs_symbols_.push_back(from_cfg_symbol(cfg.start));
  rhs_symbols_.push_back(end_of_input());
  rhs_begin_.push_back(static_cast<std::uint32_t>(rhs_symbols_.size()));
  priority_.push_back(0);
  origin_.push_back("augmented start rule");

  // Counting sort of the rules by left-hand side keeps each nonterminal's rules in id order.
  rules_by_lhs_begin_.assign(num_nonterminals() + 1, 0);
  for (SymbolId lhs : lhs_) ++rules_by_lhs_begin_[nonterminal_index(lhs) + 1];
  for (std::uint32_t i = 0; i < num_nonterminals(); ++i) {
    rules_by_lhs_begin_[i + 1] += rules_by_lhs_begin_[i];
  }
  rules_by_lhs_.resize(lhs_.size());
  std::vector<std::uint32_t> fill(rules_by_lhs_begin_.begin(), rules_by_lhs_begin_.end() - 1);
  for (RuleId rule = 0; rule < num_rules; ++rule) {
    rules_by_lhs_[fill[nonterminal_index(lhs_[rule])]++] = rule;
  }
}

std::optional<GrammarSymbolId> LrGrammar::to_cfg_symbol(SymbolId symbol) const {
  if (symbol < end_of_input()) return GrammarSymbolId{symbol};
  if (symbol == end_of_input() || symbol == accept_symbol()) return std::nullopt;
  return GrammarSymbolId{symbol - 1};
}

std::string LrGrammar::rule_text(RuleId rule) const {
  std::string text = names_[lhs_[rule]] + " ->";
  for (SymbolId symbol : rhs(rule)) text += " " + names_[symbol];
  return text;
}

std::string LrGrammar::item_text(RuleId rule, std::uint32_t dot) const {
  std::string text = names_[lhs_[rule]] + " ->";
  const std::span<const SymbolId> symbols = rhs(rule);
  for (std::uint32_t i = 0; i <= symbols.size(); ++i) {
    if (i == dot) text += " .";
    if (i < symbols.size()) text += " " + names_[symbols[i]];
  }
  return text;
}

}  // namespace glrmask::glr
