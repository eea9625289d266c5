// Assembles a GrammarModel from named symbols. Front-ends add terminals, nonterminals and rules by
// name in whatever order they discover them; build() resolves the names, removes what cannot take
// part in a sentence (with a warning naming where it was defined) and interns dense symbol ids.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct RuleSpec {
  std::string lhs;
  std::vector<std::string> rhs;  // terminal and nonterminal names; empty for ε
  int priority = 0;
  std::string alias;
  SourceLocation origin;
};

class GrammarBuilder {
 public:
  // `source_name` names the grammar in messages that have no better place (a missing start rule).
  explicit GrammarBuilder(std::string source_name);

  // Names must be unique across terminals and nonterminals (GrammarError otherwise).
  void add_terminal(Terminal terminal);
  void add_nonterminal(Nonterminal nonterminal);
  // Rules may mention symbols added later. An alternative repeated with the same alias is kept
  // once; repeated with a different alias it is an error (the parse tree would be ambiguous).
  void add_rule(RuleSpec rule);
  void add_warning(Diagnostic warning);

  bool has_symbol(std::string_view name) const;

  // Resolves names (GrammarError at the rule for an undefined one), then removes:
  //  - nonterminals that derive no terminal string, and the rules that use them;
  //  - nonterminals unreachable from `start`;
  //  - terminals that no remaining rule uses and that are not ignored.
  // Each removed nonterminal the author wrote gets a warning. Throws GrammarError when `start` is
  // not a nonterminal or derives nothing.
  GrammarModel build(std::string_view start) &&;

 private:
  struct SymbolEntry {
    bool is_terminal = false;
    std::size_t index = 0;  // into terminals_ or nonterminals_
  };

  std::string source_name_;
  std::vector<Terminal> terminals_;
  std::vector<Nonterminal> nonterminals_;
  std::vector<RuleSpec> rules_;
  std::unordered_map<std::string, SymbolEntry> symbols_;
  std::vector<Diagnostic> warnings_;
};

}  // namespace glrmask
