// Where LR reductions can repeat without consuming input. Two grammar constructs do it:
//
//   derivation cycle        A =>+ A, e.g. `s: s s | "a" |` (s nullable) or `a: b` with `b: a`
//   hidden left recursion   A =>+ N1..Nk A beta, k >= 1, every Ni nullable: `s: n s "x"`, `n: |`
//
// A GLR parser copes (the GSS gets a cycle or a node below itself), but anything that follows
// reductions one by one does not terminate: the wfa's Parser DWA construction, and any LR run
// that is not a graph. Both are loops of the left-corner relation A -> X (a rule A: alpha X beta
// with alpha nullable). Such a loop is ordinary left recursion, which LR handles, unless one of
// its edges skips a nullable prefix (alpha non-empty: hidden left recursion) or it is made of
// edges whose whole context alpha, beta is nullable (a derivation cycle).
//
// Only rules that can take part in a parse count: reachable from the start symbol and productive.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "glr/cfg.h"

namespace glrmask::glr {

struct UnboundedReductions {
  enum class Kind { kDerivationCycle, kHiddenLeftRecursion };
  // A rule whose edge closes a loop of that kind (a rule may appear once per kind).
  struct Loop {
    Kind kind;
    std::size_t rule;  // index into Cfg::rules
  };

  std::vector<Loop> loops;  // by rule, then kind
  // Every nonterminal of a strongly connected component of the left-corner relation that holds
  // such a loop, ascending: what the normalization rewrites (cfg_normalization.h).
  std::vector<GrammarSymbolId> nonterminals;

  bool empty() const { return loops.empty(); }
  // One indented line per loop: "  hidden left recursion: s -> n s "x" (origin)".
  std::string describe(const Cfg& cfg) const;
};

UnboundedReductions find_unbounded_reductions(const Cfg& cfg);

// "lhs -> a b c (origin)", the notation of LrGrammar::rule_text, for reports.
std::string cfg_rule_text(const Cfg& cfg, const Cfg::Rule& rule);

}  // namespace glrmask::glr
