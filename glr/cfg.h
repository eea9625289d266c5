// A context-free grammar in plain BNF over dense symbol ids: the input of the LR builder.
//
// It depends on nothing else in the project on purpose: front-ends (Lark, GBNF, JSON Schema)
// lower their own grammar models into it, and tests write it by hand or read it with
// parse_bnf() (glr/analysis/bnf_text.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "glr/ids.h"

namespace glrmask::glr {

// Terminals are 0..num_terminals-1, nonterminals num_terminals..num_symbols()-1: the grammar
// model's numbering (GrammarSymbolId). The end-of-input marker is not part of it: the LR builder
// adds it, which moves every nonterminal up by one (see LrGrammar).
struct Cfg {
  struct Rule {
    GrammarSymbolId lhs;
    std::vector<GrammarSymbolId> rhs;  // empty for an epsilon rule
    int priority = 0;    // Lark's rule priority; decides reduce/reduce under ConflictPolicy::kLark
    std::string origin;  // where the rule was written ("file:line:col"), for reports
  };

  std::vector<std::string> symbol_names;  // one per symbol, for reports and errors
  std::uint32_t num_terminals = 0;
  std::vector<Rule> rules;
  GrammarSymbolId start;  // a nonterminal

  std::uint32_t num_symbols() const { return static_cast<std::uint32_t>(symbol_names.size()); }
  bool is_terminal(GrammarSymbolId symbol) const { return symbol.value() < num_terminals; }
  const std::string& name(GrammarSymbolId symbol) const { return symbol_names[symbol.value()]; }
};

// Throws glrmask::Error naming the rule (index and origin) or symbol at fault when a symbol id is
// out of range, a left-hand side is a terminal, the start symbol is not a nonterminal, a
// nonterminal is used without having a rule, or the grammar is too large for the table encoding.
void validate(const Cfg& cfg);

}  // namespace glrmask::glr
