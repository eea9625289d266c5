#include "glr/grammar_sets.h"

#include <functional>
#include <queue>
#include <tuple>

#include "glr/relation_closure.h"

namespace glrmask::glr {
namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t limit = GrammarSets::kUnproductive - 1;
  return a > limit - b ? limit : a + b;
}

std::vector<char> compute_nullable(const LrGrammar& grammar) {
  const std::uint32_t num_rules = grammar.num_rules();
  std::vector<char> nullable(grammar.num_symbols(), 0);
  // A rule becomes nullable once all its right-hand side symbols are; count those still unknown.
  std::vector<std::uint32_t> unknown(num_rules, 0);
  std::vector<std::vector<RuleId>> occurrences(grammar.num_symbols());
  std::vector<SymbolId> worklist;
  for (RuleId rule = 0; rule < num_rules; ++rule) {
    bool has_terminal = false;
    for (SymbolId symbol : grammar.rhs(rule)) has_terminal |= grammar.is_terminal(symbol);
    if (has_terminal) continue;
    unknown[rule] = grammar.rhs_length(rule);
    for (SymbolId symbol : grammar.rhs(rule)) occurrences[symbol].push_back(rule);
    if (unknown[rule] == 0 && !nullable[grammar.lhs(rule)]) {
      nullable[grammar.lhs(rule)] = 1;
      worklist.push_back(grammar.lhs(rule));
    }
  }
  while (!worklist.empty()) {
    const SymbolId symbol = worklist.back();
    worklist.pop_back();
    for (RuleId rule : occurrences[symbol]) {
      if (--unknown[rule] == 0 && !nullable[grammar.lhs(rule)]) {
        nullable[grammar.lhs(rule)] = 1;
        worklist.push_back(grammar.lhs(rule));
      }
    }
  }
  return nullable;
}

}  // namespace

GrammarSets::GrammarSets(const LrGrammar& grammar)
    : num_terminals_(grammar.num_terminals()), nullable_(compute_nullable(grammar)) {
  const std::uint32_t num_symbols = grammar.num_symbols();

  // FIRST(A) includes FIRST(X) for every A -> α X β with α nullable.
  first_.assign(num_symbols, TerminalSet(num_terminals_));
  for (SymbolId terminal = 0; terminal < num_terminals_; ++terminal) first_[terminal].set(terminal);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> begins_with;
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    for (SymbolId symbol : grammar.rhs(rule)) {
      begins_with.emplace_back(grammar.lhs(rule), symbol);
      if (!nullable(symbol)) break;
    }
  }
  close_over_relation(Relation::from_pairs(num_symbols, std::move(begins_with)), first_);

  // Shortest yields by Knuth's generalization of Dijkstra's algorithm: a symbol's length is final
  // when it leaves the queue, and a rule offers a length once all its symbols are final. The
  // chosen rules therefore only use symbols finalized earlier, so expanding them terminates.
  shortest_length_.assign(num_symbols, kUnproductive);
  shortest_rule_.assign(num_symbols, 0);
  std::vector<std::uint32_t> pending(grammar.num_rules());
  std::vector<std::uint64_t> partial(grammar.num_rules(), 0);
  std::vector<std::vector<RuleId>> occurrences(num_symbols);
  using Offer = std::tuple<std::uint64_t, SymbolId, RuleId>;
  std::priority_queue<Offer, std::vector<Offer>, std::greater<>> offers;
  for (SymbolId terminal = 0; terminal < num_terminals_; ++terminal) offers.emplace(1, terminal, 0);
  for (RuleId rule = 0; rule < grammar.num_rules(); ++rule) {
    pending[rule] = grammar.rhs_length(rule);
    for (SymbolId symbol : grammar.rhs(rule)) occurrences[symbol].push_back(rule);
    if (pending[rule] == 0) offers.emplace(0, grammar.lhs(rule), rule);
  }
  while (!offers.empty()) {
    const auto [length, symbol, rule] = offers.top();
    offers.pop();
    if (shortest_length_[symbol] != kUnproductive) continue;
    shortest_length_[symbol] = length;
    shortest_rule_[symbol] = rule;
    for (RuleId user : occurrences[symbol]) {
      partial[user] = saturating_add(partial[user], length);
      if (--pending[user] == 0) offers.emplace(partial[user], grammar.lhs(user), user);
    }
  }
}

bool GrammarSets::add_first_of_sequence(std::span<const SymbolId> symbols, TerminalSet& out) const {
  for (SymbolId symbol : symbols) {
    out |= first_[symbol];
    if (!nullable(symbol)) return false;
  }
  return true;
}

bool GrammarSets::sequence_nullable(std::span<const SymbolId> symbols) const {
  for (SymbolId symbol : symbols) {
    if (!nullable(symbol)) return false;
  }
  return true;
}

void GrammarSets::append_shortest_yield(const LrGrammar& grammar, SymbolId symbol,
                                        std::vector<SymbolId>& out) const {
  std::vector<SymbolId> to_expand{symbol};
  while (!to_expand.empty()) {
    const SymbolId next = to_expand.back();
    to_expand.pop_back();
    if (grammar.is_terminal(next)) {
      out.push_back(next);
      continue;
    }
    const std::span<const SymbolId> rhs = grammar.rhs(shortest_rule_[next]);
    to_expand.insert(to_expand.end(), rhs.rbegin(), rhs.rend());
  }
}

}  // namespace glrmask::glr
