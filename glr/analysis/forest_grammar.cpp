#include "glr/analysis/forest_grammar.h"

#include <fmt/format.h>

#include <algorithm>

#include "glr/cfg_from_grammar.h"

namespace glrmask::glr {

ForestGrammar::ForestGrammar(std::shared_ptr<const CompiledGrammar> compiled)
    : compiled_(std::move(compiled)) {
  Cfg cfg = cfg_from_grammar(compiled_->grammar());
  const std::vector<std::size_t>& dropped = compiled_->unrealizable().rules;  // ascending
  Cfg kept = cfg;
  kept.rules.clear();
  for (std::size_t r = 0; r < cfg.rules.size(); ++r) {
    if (std::binary_search(dropped.begin(), dropped.end(), r)) continue;
    kept.rules.push_back(std::move(cfg.rules[r]));
    grammar_rule_.push_back(r);
  }
  automaton_ = std::make_unique<LalrAutomaton>(kept);
}

std::string ForestGrammar::describe_symbol(SymbolId symbol) const {
  const LrGrammar& lr = lr_grammar();
  if (!lr.is_terminal(symbol) || symbol == lr.end_of_input()) return lr.name(symbol);
  const Terminal& terminal = grammar().terminal(grammar_terminal(symbol));
  if (terminal.is_literal && terminal.flags.find('i') == std::string::npos)
    return fmt::format("{:?}", terminal.literal);
  return terminal.name;
}

}  // namespace glrmask::glr
