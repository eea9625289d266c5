#include "lib/grammar/grammar_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

namespace glrmask {
namespace {

// Rules with names resolved to provisional ids: terminals [0, T), nonterminals T + index.
struct ResolvedRule {
  std::size_t spec = 0;            // index into the RuleSpec list
  std::size_t lhs = 0;             // nonterminal index
  std::vector<std::uint32_t> rhs;  // provisional ids
};

}  // namespace

GrammarBuilder::GrammarBuilder(std::string source_name) : source_name_(std::move(source_name)) {}

void GrammarBuilder::add_terminal(Terminal terminal) {
  if (symbols_.contains(terminal.name)) {
    throw GrammarError(terminal.origin, fmt::format("symbol '{}' is defined twice", terminal.name));
  }
  symbols_.emplace(terminal.name, SymbolEntry{true, terminals_.size()});
  terminals_.push_back(std::move(terminal));
}

void GrammarBuilder::add_nonterminal(Nonterminal nonterminal) {
  if (symbols_.contains(nonterminal.name)) {
    throw GrammarError(nonterminal.origin,
                       fmt::format("symbol '{}' is defined twice", nonterminal.name));
  }
  symbols_.emplace(nonterminal.name, SymbolEntry{false, nonterminals_.size()});
  nonterminals_.push_back(std::move(nonterminal));
}

void GrammarBuilder::add_rule(RuleSpec rule) {
  rules_.push_back(std::move(rule));
}

void GrammarBuilder::add_warning(Diagnostic warning) {
  warnings_.push_back(std::move(warning));
}

bool GrammarBuilder::has_symbol(std::string_view name) const {
  return symbols_.contains(std::string(name));
}

GrammarModel GrammarBuilder::build(std::string_view start_name) && {
  const std::size_t num_terminals = terminals_.size();
  const std::size_t num_nonterminals = nonterminals_.size();

  // 1. Resolve names; drop exact repeats of an alternative.
  std::vector<ResolvedRule> rules;
  std::map<std::pair<std::size_t, std::vector<std::uint32_t>>, std::size_t> seen;  // -> index
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const RuleSpec& spec = rules_[i];
    auto lhs = symbols_.find(spec.lhs);
    if (lhs == symbols_.end() || lhs->second.is_terminal) {
      throw GrammarError(spec.origin, fmt::format("'{}' is not a rule name", spec.lhs));
    }
    ResolvedRule rule{i, lhs->second.index, {}};
    for (const std::string& name : spec.rhs) {
      auto it = symbols_.find(name);
      if (it == symbols_.end()) {
        throw GrammarError(spec.origin, fmt::format("symbol '{}' is used but not defined", name));
      }
      const SymbolEntry& entry = it->second;
      rule.rhs.push_back(static_cast<std::uint32_t>(
          entry.is_terminal ? entry.index : num_terminals + entry.index));
    }
    auto [where, inserted] = seen.try_emplace({rule.lhs, rule.rhs}, rules.size());
    if (!inserted) {
      const RuleSpec& first = rules_[rules[where->second].spec];
      if (first.alias == spec.alias) continue;
      throw GrammarError(spec.origin,
                         fmt::format("this alternative of '{}' is also defined at {} with a "
                                     "different alias ('{}' and '{}')",
                                     spec.lhs, first.origin.str(), first.alias, spec.alias));
    }
    rules.push_back(std::move(rule));
  }

  auto start_it = symbols_.find(std::string(start_name));
  if (start_it == symbols_.end() || start_it->second.is_terminal) {
    throw GrammarError(SourceLocation{source_name_, 1, 1},
                       fmt::format("the start rule '{}' is not defined", start_name));
  }
  const std::size_t start = start_it->second.index;

  // 2. Productive nonterminals: a rule becomes productive once every nonterminal occurrence in its
  //    right-hand side is productive (counting occurrences, so `a: b b` waits for b once per use).
  std::vector<bool> productive(num_nonterminals, false);
  std::vector<std::size_t> pending(rules.size(), 0);
  std::vector<std::vector<std::size_t>> occurrences(num_nonterminals);
  std::deque<std::size_t> ready;
  for (std::size_t r = 0; r < rules.size(); ++r) {
    for (const std::uint32_t symbol : rules[r].rhs) {
      if (symbol >= num_terminals) {
        occurrences[symbol - num_terminals].push_back(r);
        ++pending[r];
      }
    }
    if (pending[r] == 0 && !productive[rules[r].lhs]) {
      productive[rules[r].lhs] = true;
      ready.push_back(rules[r].lhs);
    }
  }
  while (!ready.empty()) {
    std::size_t nonterminal = ready.front();
    ready.pop_front();
    for (std::size_t r : occurrences[nonterminal]) {
      if (--pending[r] == 0 && !productive[rules[r].lhs]) {
        productive[rules[r].lhs] = true;
        ready.push_back(rules[r].lhs);
      }
    }
  }
  if (!productive[start]) {
    throw GrammarError(nonterminals_[start].origin,
                       fmt::format("the start rule '{}' derives no finite string", start_name));
  }
  std::vector<std::size_t> rule_count(num_nonterminals, 0);
  for (const ResolvedRule& rule : rules) ++rule_count[rule.lhs];
  for (std::size_t n = 0; n < num_nonterminals; ++n) {
    const Nonterminal& nonterminal = nonterminals_[n];
    if (productive[n] || nonterminal.generated) continue;
    warnings_.push_back(
        {nonterminal.origin,
         rule_count[n] == 0
             ? fmt::format("rule '{}' has no alternatives; removed", nonterminal.name)
             : fmt::format("rule '{}' derives no finite string (every alternative needs a rule "
                           "that never ends); removed",
                           nonterminal.name)});
  }
  std::erase_if(rules, [&](const ResolvedRule& rule) {
    if (!productive[rule.lhs]) return true;
    return std::any_of(rule.rhs.begin(), rule.rhs.end(), [&](std::uint32_t s) {
      return s >= num_terminals && !productive[s - num_terminals];
    });
  });

  // 3. Reachable nonterminals, from the start rule only.
  std::vector<std::vector<std::size_t>> rules_by_lhs(num_nonterminals);
  for (std::size_t r = 0; r < rules.size(); ++r) rules_by_lhs[rules[r].lhs].push_back(r);
  std::vector<bool> reachable(num_nonterminals, false);
  std::vector<bool> terminal_used(num_terminals, false);
  std::vector<std::size_t> stack = {start};
  reachable[start] = true;
  while (!stack.empty()) {
    std::size_t nonterminal = stack.back();
    stack.pop_back();
    for (std::size_t r : rules_by_lhs[nonterminal]) {
      for (const std::uint32_t symbol : rules[r].rhs) {
        if (symbol < num_terminals) {
          terminal_used[symbol] = true;
        } else if (!reachable[symbol - num_terminals]) {
          reachable[symbol - num_terminals] = true;
          stack.push_back(symbol - num_terminals);
        }
      }
    }
  }
  for (std::size_t n = 0; n < num_nonterminals; ++n) {
    const Nonterminal& nonterminal = nonterminals_[n];
    if (reachable[n] || !productive[n] || nonterminal.generated) continue;
    warnings_.push_back({nonterminal.origin,
                         fmt::format("rule '{}' is unreachable from the start rule '{}'; removed",
                                     nonterminal.name, start_name)});
  }

  // 4. Intern what survives: terminals and nonterminals keep the order they were added in.
  GrammarModel grammar;
  std::vector<SymbolId> new_id(num_terminals + num_nonterminals);  // provisional -> final
  for (std::size_t t = 0; t < num_terminals; ++t) {
    if (!terminal_used[t] && !terminals_[t].ignored) continue;
    grammar.terminals_.push_back(std::move(terminals_[t]));
    new_id[t] = grammar.terminal_id(grammar.terminals_.size() - 1);
  }
  std::vector<std::size_t> kept_nonterminals;
  for (std::size_t n = 0; n < num_nonterminals; ++n) {
    if (!reachable[n]) continue;
    kept_nonterminals.push_back(n);
    grammar.nonterminals_.push_back(std::move(nonterminals_[n]));
  }
  for (std::size_t k = 0; k < kept_nonterminals.size(); ++k) {
    new_id[num_terminals + kept_nonterminals[k]] = grammar.nonterminal_id(k);
  }

  grammar.rule_offsets_.push_back(0);
  for (std::size_t k = 0; k < kept_nonterminals.size(); ++k) {
    const std::size_t n = kept_nonterminals[k];
    for (std::size_t r : rules_by_lhs[n]) {
      RuleSpec& spec = rules_[rules[r].spec];
      Rule rule;
      rule.lhs = new_id[num_terminals + n];
      for (const std::uint32_t symbol : rules[r].rhs) rule.rhs.push_back(new_id[symbol]);
      rule.priority = spec.priority;
      rule.alias = std::move(spec.alias);
      rule.shape = grammar.nonterminals_[k].shape;
      rule.origin = std::move(spec.origin);
      grammar.rules_.push_back(std::move(rule));
    }
    grammar.rule_offsets_.push_back(grammar.rules_.size());
  }

  for (const SymbolId id : id_range<SymbolId>(grammar.num_symbols())) {
    grammar.ids_by_name_.emplace(std::string(grammar.name(id)), id);
  }
  grammar.start_ = new_id[num_terminals + start];
  grammar.warnings_ = std::move(warnings_);
  return grammar;
}

}  // namespace glrmask
