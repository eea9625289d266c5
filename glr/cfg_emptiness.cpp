#include "glr/cfg_emptiness.h"

#include <algorithm>

namespace glrmask::glr {

CfgEmptiness::CfgEmptiness(const Cfg& cfg)
    : productive(cfg.num_symbols(), 0),
      nullable(cfg.num_symbols(), 0),
      nonempty(cfg.num_symbols(), 0) {
  for (std::uint32_t t = 0; t < cfg.num_terminals; ++t) productive[t] = nonempty[t] = 1;
  // Three least fixed points, iterated together until none grows; grammars are small enough that
  // the quadratic worst case never matters next to the LR construction.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Cfg::Rule& rule : cfg.rules) {
      const auto is = [](const std::vector<char>& set) {
        return [&set](GrammarSymbolId s) { return set[s.value()] != 0; };
      };
      const std::uint32_t lhs = rule.lhs.value();
      if (!nullable[lhs] && std::all_of(rule.rhs.begin(), rule.rhs.end(), is(nullable)))
        nullable[lhs] = changed = true;
      if (!rule_productive(rule)) continue;
      if (!productive[lhs]) productive[lhs] = changed = true;
      if (!nonempty[lhs] && std::any_of(rule.rhs.begin(), rule.rhs.end(), is(nonempty)))
        nonempty[lhs] = changed = true;
    }
  }
}

bool CfgEmptiness::rule_productive(const Cfg::Rule& rule) const {
  return std::all_of(rule.rhs.begin(), rule.rhs.end(),
                     [&](GrammarSymbolId s) { return productive[s.value()] != 0; });
}

}  // namespace glrmask::glr
