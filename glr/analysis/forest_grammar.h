// The grammar a parse forest is built over: the rules as the grammar's author wrote them (after
// Lark's EBNF expansion, without the rules the lexer can never complete), with an LALR(1)
// automaton of their own.
//
// Why not the decoding automaton: under the GLR policy CompiledGrammar rewrites derivation cycles
// and hidden left recursion away (cfg_normalization.h) so that the wfa's reductions terminate.
// The rewrite keeps the language, not the trees: `s: s s | "a" |` gets split nonterminals and
// loses its infinitely many derivations. The GLR parser itself copes with both constructs (the
// GSS gets cycles, the forest gets cycles), so forests are built over the rules as written and
// every tree and derivation count is in terms of the user's grammar. For a grammar without those
// constructs (every SynCode grammar) the two automata are the same.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/lalr_automaton.h"
#include "glr/lr_table.h"

namespace glrmask::glr {

class ForestGrammar {
 public:
  explicit ForestGrammar(std::shared_ptr<const CompiledGrammar> compiled);

  const CompiledGrammar& compiled() const { return *compiled_; }
  const GrammarModel& grammar() const { return compiled_->grammar(); }
  const LalrAutomaton& automaton() const { return *automaton_; }
  const LrGrammar& lr_grammar() const { return automaton_->grammar(); }
  // The table under the compiled grammar's conflict policy (kKeepAll: every derivation).
  const LrTable& table() const { return automaton_->table(compiled_->options().policy); }

  // The GrammarModel::rules() index of an automaton rule (not of the augmented start rule).
  std::size_t grammar_rule(RuleId rule) const { return grammar_rule_[rule]; }

  // A terminal as messages show it: "\"+\"" for a plain literal, else its name; "$END".
  std::string describe_symbol(SymbolId symbol) const;

 private:
  std::shared_ptr<const CompiledGrammar> compiled_;
  std::unique_ptr<LalrAutomaton> automaton_;
  std::vector<std::size_t> grammar_rule_;
};

}  // namespace glrmask::glr
