// The augmented grammar the LR builder works on, in flat arrays.
//
// Symbol layout (ids differ from Cfg's by the inserted end marker):
//   0 .. T-1          the Cfg's terminals, same ids
//   T                 $END, the end-of-input marker
//   T+1 .. T+N        the Cfg's nonterminals (Cfg id s becomes s+1)
//   T+N+1             $accept, the augmented start symbol
// Rule layout: the Cfg's rules keep their ids 0..R-1; rule R is `$accept -> start $END`.
// Accepting is reading $END after start, so the automaton never needs a state after $END.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "glr/cfg.h"
#include "glr/ids.h"
#include "lib/core/check.h"

namespace glrmask::glr {

class CompiledGrammarImage;

class LrGrammar {
 public:
  // Validates the Cfg (see validate()) and throws glrmask::Error when it is malformed.
  explicit LrGrammar(const Cfg& cfg);

  std::uint32_t num_terminals() const { return num_terminals_; }  // including $END
  std::uint32_t num_nonterminals() const { return num_symbols() - num_terminals_; }  // with $accept
  std::uint32_t num_symbols() const { return static_cast<std::uint32_t>(names_.size()); }
  std::uint32_t num_rules() const { return static_cast<std::uint32_t>(lhs_.size()); }

  bool is_terminal(SymbolId symbol) const { return symbol < num_terminals_; }
  SymbolId end_of_input() const { return num_terminals_ - 1; }
  SymbolId accept_symbol() const { return num_symbols() - 1; }
  SymbolId start_symbol() const { return rhs(accept_rule())[0]; }
  RuleId accept_rule() const { return num_rules() - 1; }
  // Dense index of a nonterminal, 0..num_nonterminals()-1, for per-nonterminal arrays.
  std::uint32_t nonterminal_index(SymbolId nonterminal) const {
    GLRMASK_DCHECK(nonterminal >= num_terminals_ && nonterminal < num_symbols(),
                   "symbol {} is not a nonterminal", nonterminal);
    return nonterminal - num_terminals_;
  }

  // Translation from and to the Cfg's (the grammar model's) ids; to_cfg_symbol() gives nullopt for
  // $END and $accept, which the Cfg does not have.
  SymbolId from_cfg_symbol(GrammarSymbolId cfg_symbol) const {
    const std::uint32_t s = cfg_symbol.value();
    GLRMASK_DCHECK(s + 2 < num_symbols(), "Cfg symbol {} of {}", s, num_symbols() - 2);
    return s < num_terminals_ - 1 ? s : s + 1;
  }
  std::optional<GrammarSymbolId> to_cfg_symbol(SymbolId symbol) const;

  SymbolId lhs(RuleId rule) const { return lhs_[rule]; }
  std::span<const SymbolId> rhs(RuleId rule) const {
    return {rhs_symbols_.data() + rhs_begin_[rule], rhs_begin_[rule + 1] - rhs_begin_[rule]};
  }
  std::uint32_t rhs_length(RuleId rule) const { return rhs_begin_[rule + 1] - rhs_begin_[rule]; }
  int priority(RuleId rule) const { return priority_[rule]; }
  const std::string& origin(RuleId rule) const { return origin_[rule]; }
  // The rules whose left-hand side is `nonterminal`, in id order.
  std::span<const RuleId> rules_of(SymbolId nonterminal) const {
    const std::uint32_t index = nonterminal_index(nonterminal);
    return {rules_by_lhs_.data() + rules_by_lhs_begin_[index],
            rules_by_lhs_begin_[index + 1] - rules_by_lhs_begin_[index]};
  }

  const std::string& name(SymbolId symbol) const { return names_[symbol]; }
  // "lhs -> a b c" and, with a dot position, "lhs -> a . b c".
  std::string rule_text(RuleId rule) const;
  std::string item_text(RuleId rule, std::uint32_t dot) const;

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;
  LrGrammar() = default;
  std::uint32_t num_terminals_ = 0;
  std::vector<std::string> names_;
  std::vector<SymbolId> lhs_;
  std::vector<std::uint32_t> rhs_begin_;  // num_rules + 1 offsets into rhs_symbols_
  std::vector<SymbolId> rhs_symbols_;
  std::vector<int> priority_;
  std::vector<std::string> origin_;
  std::vector<std::uint32_t> rules_by_lhs_begin_;  // num_nonterminals + 1 offsets
  std::vector<RuleId> rules_by_lhs_;
};

}  // namespace glrmask::glr
