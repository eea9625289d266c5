// Rules that can never take part in a lexable text. A terminal that is in no label of the lexing
// DFA is always shadowed (SynCode SQL's anonymous "JOIN"i loses every tie to the priority-5
// JOIN_EXPR), so the lexer never emits it; a rule that uses it can never be completed, and a
// nonterminal left with only such rules derives nothing lexable. Dropping them before the LR
// table is built keeps the correct-prefix property honest: a terminal the parser can shift is
// then the start of something the lexer can produce (docs/glr.md, "Viability").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "glr/ids.h"
#include "lexer/runtime/lexer_dfa.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::glr {

struct UnrealizableRules {
  // Terminals used by some rule that no lexeme ever produces, ascending.
  std::vector<GrammarSymbolId> terminals;
  // Per entry of `terminals`: why, e.g. "its text \"JOIN\" lexes as JOIN_EXPR" (empty if unknown).
  std::vector<std::string> shadowed_by;
  // Nonterminals that derive no lexable text once those terminals are gone, ascending.
  std::vector<GrammarSymbolId> nonterminals;
  // Indices into GrammarModel::rules() of the rules dropped, ascending.
  std::vector<std::size_t> rules;

  bool empty() const { return rules.empty(); }
  // "none", or the counts, then one indented line per terminal and per nonterminal (for
  // `glrmask stats`). Ends with a newline.
  std::string describe(const GrammarModel& grammar) const;
};

// Finds the terminals, nonterminals and rules described above. Throws glrmask::Error naming the
// unrealizable terminals when the start symbol itself derives no lexable text.
UnrealizableRules find_unrealizable_rules(const GrammarModel& grammar, const lexer::LexerDfa& dfa);

}  // namespace glrmask::glr
