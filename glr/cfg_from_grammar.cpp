#include "glr/cfg_from_grammar.h"

namespace glrmask::glr {

Cfg cfg_from_grammar(const GrammarModel& grammar) {
  Cfg cfg;
  cfg.num_terminals = static_cast<std::uint32_t>(grammar.num_terminals());
  cfg.symbol_names.reserve(grammar.num_symbols());
  for (const GrammarSymbolId s : id_range<GrammarSymbolId>(grammar.num_symbols()))
    cfg.symbol_names.emplace_back(grammar.name(s));
  cfg.rules.reserve(grammar.rules().size());
  for (const Rule& rule : grammar.rules()) {
    cfg.rules.push_back(Cfg::Rule{.lhs = rule.lhs,
                                  .rhs = {rule.rhs.begin(), rule.rhs.end()},
                                  .priority = rule.priority,
                                  .origin = rule.origin.str()});
  }
  cfg.start = grammar.start();
  return cfg;
}

}  // namespace glrmask::glr
