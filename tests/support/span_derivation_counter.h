// An independent count of parse trees for the forest tests, written from the grammar model alone
// (no LR table, no GSS, no forest): the trees of a nonterminal A over tokens [i, j) are, summed
// over A's rules and over every way to cut [i, j) into the rule's symbols, the product of the
// parts' counts. A token may stand for several terminals (a lexer tie): a leaf may be any of them.
//
// Cycles: the parts are first restricted to spans the symbol derives at all (a fixed point of
// the same recurrence over booleans). Each such part has a finite tree, so meeting a part again
// while it is being counted (a cycle of derivable parts) means infinitely many trees; every
// part that reaches the cycle is infinite too.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

#include "lib/grammar/grammar_model.h"

namespace glrmask::testing {

class SpanDerivationCounter {
 public:
  struct Count {
    bool infinite = false;
    boost::multiprecision::cpp_int value;
  };

  // `tokens` as the LR grammar's terminal ids, which equal the grammar model's.
  SpanDerivationCounter(const GrammarModel& grammar,
                        const std::vector<std::vector<std::uint32_t>>& tokens)
      : SpanDerivationCounter(grammar, to_grammar_symbols(tokens)) {}

  SpanDerivationCounter(const GrammarModel& grammar, std::vector<std::vector<SymbolId>> tokens)
      : grammar_(grammar), tokens_(std::move(tokens)), n_(tokens_.size()) {
    derivable_.assign(grammar.num_symbols() * (n_ + 1) * (n_ + 1), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (const Rule& rule : grammar.rules()) {
        for (std::size_t i = 0; i <= n_; ++i) {
          for (std::size_t j = i; j <= n_; ++j) {
            if (derivable(rule.lhs, i, j)) continue;
            bool found = false;
            splits(rule, i, j, [&](const std::vector<std::size_t>&) {
              found = true;
              return false;
            });
            if (found) {
              derivable_[index(rule.lhs, i, j)] = 1;
              changed = true;
            }
          }
        }
      }
    }
  }

  bool derivable(SymbolId symbol, std::size_t i, std::size_t j) const {
    if (grammar_.is_terminal(symbol)) {
      if (j != i + 1) return false;
      for (const SymbolId t : tokens_[i])
        if (t == symbol) return true;
      return false;
    }
    return derivable_[index(symbol, i, j)] != 0;
  }

  // Trees of the start symbol over all tokens.
  Count count_sentence() { return count(grammar_.start(), 0, n_); }

  Count count(SymbolId symbol, std::size_t i, std::size_t j) {
    if (grammar_.is_terminal(symbol)) return {false, derivable(symbol, i, j) ? 1 : 0};
    if (!derivable(symbol, i, j)) return {false, 0};
    const auto key = std::make_tuple(symbol, i, j);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (in_progress_.count(key)) return {true, 0};
    in_progress_[key] = true;
    Count total;
    for (const Rule& rule : grammar_.rules_of(symbol)) {
      splits(rule, i, j, [&](const std::vector<std::size_t>& cut) {
        Count product{false, 1};
        for (std::size_t k = 0; k < rule.rhs.size(); ++k) {
          const Count part = count(rule.rhs[k], cut[k], cut[k + 1]);
          if (part.infinite) product.infinite = true;
          if (!product.infinite) product.value *= part.value;
        }
        if (product.infinite) total.infinite = true;
        if (!total.infinite) total.value += product.value;
        return true;
      });
    }
    in_progress_.erase(key);
    if (total.infinite) total.value = 0;
    memo_[key] = total;
    return total;
  }

 private:
  static std::vector<std::vector<SymbolId>> to_grammar_symbols(
      const std::vector<std::vector<std::uint32_t>>& tokens) {
    std::vector<std::vector<SymbolId>> result;
    for (const auto& token : tokens) {
      result.emplace_back();
      for (const std::uint32_t t : token) result.back().emplace_back(t);
    }
    return result;
  }

  std::size_t index(SymbolId symbol, std::size_t i, std::size_t j) const {
    return (static_cast<std::size_t>(symbol.value()) * (n_ + 1) + i) * (n_ + 1) + j;
  }

  // Calls `f(cut)` for each cut i = cut[0] <= ... <= cut[m] = j with every part derivable; stops
  // when f returns false.
  void splits(const Rule& rule, std::size_t i, std::size_t j,
              const std::function<bool(const std::vector<std::size_t>&)>& f) const {
    std::vector<std::size_t> cut{i};
    bool go_on = true;
    std::function<void(std::size_t)> extend = [&](std::size_t k) {
      if (!go_on) return;
      if (k == rule.rhs.size()) {
        if (cut.back() == j) go_on = f(cut);
        return;
      }
      for (std::size_t end = cut.back(); end <= j && go_on; ++end) {
        if (!derivable(rule.rhs[k], cut.back(), end)) continue;
        cut.push_back(end);
        extend(k + 1);
        cut.pop_back();
      }
    };
    extend(0);
  }

  const GrammarModel& grammar_;
  std::vector<std::vector<SymbolId>> tokens_;
  std::size_t n_;
  std::vector<char> derivable_;
  std::map<std::tuple<SymbolId, std::size_t, std::size_t>, Count> memo_;
  std::map<std::tuple<SymbolId, std::size_t, std::size_t>, bool> in_progress_;
};

}  // namespace glrmask::testing
