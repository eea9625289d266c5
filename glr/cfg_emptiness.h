// Which symbols of a Cfg derive any terminal string at all, the empty string, and a non-empty
// string. The normalization (cfg_normalization.h) splits a nullable symbol N into a copy N'
// deriving L(N) minus the empty string, which exists only when N derives something non-empty.
#pragma once

#include <vector>

#include "glr/cfg.h"

namespace glrmask::glr {

struct CfgEmptiness {
  explicit CfgEmptiness(const Cfg& cfg);

  // Per symbol, by GrammarSymbolId::value() (terminals included: productive and non-empty, never
  // nullable).
  std::vector<char> productive;  // derives some terminal string
  std::vector<char> nullable;    // derives the empty string
  std::vector<char> nonempty;    // derives some non-empty terminal string

  // Every symbol of the rule derives some terminal string, so the rule can ever be reduced.
  bool rule_productive(const Cfg::Rule& rule) const;
};

}  // namespace glrmask::glr
