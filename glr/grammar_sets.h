// Per-symbol facts the LR construction and the conflict report need: which symbols derive the
// empty string, FIRST sets, and a shortest terminal string each symbol derives.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "glr/lr_grammar.h"
#include "glr/terminal_set.h"

namespace glrmask::glr {

class GrammarSets {
 public:
  // Length of the shortest yield of a symbol that derives no terminal string at all.
  static constexpr std::uint64_t kUnproductive = std::numeric_limits<std::uint64_t>::max();

  explicit GrammarSets(const LrGrammar& grammar);

  bool nullable(SymbolId symbol) const { return nullable_[symbol] != 0; }
  // FIRST(symbol): {symbol} for a terminal.
  const TerminalSet& first(SymbolId symbol) const { return first_[symbol]; }
  // Adds FIRST(symbols) to `out` and returns whether the whole sequence is nullable.
  bool add_first_of_sequence(std::span<const SymbolId> symbols, TerminalSet& out) const;
  bool sequence_nullable(std::span<const SymbolId> symbols) const;

  // Length of the shortest terminal string the symbol derives (1 for a terminal), or
  // kUnproductive.
  std::uint64_t shortest_yield_length(SymbolId symbol) const { return shortest_length_[symbol]; }
  // Appends such a shortest string. The symbol must be productive.
  void append_shortest_yield(const LrGrammar& grammar, SymbolId symbol,
                             std::vector<SymbolId>& out) const;

 private:
  std::uint32_t num_terminals_ = 0;
  std::vector<char> nullable_;
  std::vector<TerminalSet> first_;
  std::vector<std::uint64_t> shortest_length_;
  std::vector<RuleId> shortest_rule_;  // per symbol: the rule giving its shortest yield
};

}  // namespace glrmask::glr
