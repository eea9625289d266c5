#include "glr/cfg.h"

#include <fmt/format.h>

#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::glr {
namespace {

// Actions pack a state or rule id with a 2-bit kind into 32 bits (glr/lr_action.h).
constexpr std::uint64_t kMaxRules = (std::uint64_t{1} << 30) - 2;
// Two symbols are added by the LR builder ($END and the augmented start symbol).
constexpr std::uint64_t kMaxSymbols = std::uint64_t{kNoSymbol} - 3;

std::string describe_rule(const Cfg& cfg, std::size_t index) {
  const Cfg::Rule& rule = cfg.rules[index];
  std::string text = fmt::format("rule {}", index);
  if (!rule.origin.empty()) text += fmt::format(" ({})", rule.origin);
  return text;
}

// The place of rule `index` in the grammar text, when the rule knows it.
ErrorLocation rule_location(const Cfg& cfg, std::size_t index) {
  const std::string& origin = cfg.rules[index].origin;
  return origin.empty() ? ErrorLocation{} : parse_source_location(origin);
}

}  // namespace

void validate(const Cfg& cfg) {
  const std::uint64_t num_symbols = cfg.symbol_names.size();
  if (num_symbols > kMaxSymbols) {
    throw Error(
        fmt::format("grammar has {} symbols; at most {} are supported", num_symbols, kMaxSymbols),
        ErrorCode::kLimit);
  }
  if (cfg.num_terminals > num_symbols) {
    throw Error(fmt::format("grammar declares {} terminals but names only {} symbols",
                            cfg.num_terminals, num_symbols),
                ErrorCode::kGrammar);
  }
  if (cfg.rules.size() > kMaxRules) {
    throw Error(
        fmt::format("grammar has {} rules; at most {} are supported", cfg.rules.size(), kMaxRules),
        ErrorCode::kLimit);
  }
  if (cfg.start.value() >= num_symbols || cfg.is_terminal(cfg.start)) {
    throw Error(fmt::format("start symbol {} is not a nonterminal (terminals 0..{}, symbols 0..{})",
                            cfg.start.value(), cfg.num_terminals, num_symbols),
                ErrorCode::kGrammar);
  }
  std::vector<char> has_rule(num_symbols, 0);
  for (std::size_t i = 0; i < cfg.rules.size(); ++i) {
    const Cfg::Rule& rule = cfg.rules[i];
    if (rule.lhs.value() >= num_symbols) {
      throw Error(
          fmt::format("{}: left-hand side symbol {} is out of range (grammar has {} symbols)",
                      describe_rule(cfg, i), rule.lhs.value(), num_symbols),
          ErrorCode::kGrammar, rule_location(cfg, i));
    }
    if (cfg.is_terminal(rule.lhs)) {
      throw Error(fmt::format("{}: left-hand side '{}' is a terminal", describe_rule(cfg, i),
                              cfg.name(rule.lhs)),
                  ErrorCode::kGrammar, rule_location(cfg, i));
    }
    has_rule[rule.lhs.value()] = 1;
    for (std::size_t k = 0; k < rule.rhs.size(); ++k) {
      if (rule.rhs[k].value() >= num_symbols) {
        throw Error(fmt::format("{}: symbol {} at right-hand side position {} is out of range "
                                "(grammar has {} symbols)",
                                describe_rule(cfg, i), rule.rhs[k].value(), k, num_symbols),
                    ErrorCode::kGrammar, rule_location(cfg, i));
      }
    }
  }
  if (!has_rule[cfg.start.value()]) {
    throw Error(fmt::format("start symbol '{}' has no rule", cfg.name(cfg.start)),
                ErrorCode::kGrammar);
  }
  for (std::size_t i = 0; i < cfg.rules.size(); ++i) {
    for (const GrammarSymbolId symbol : cfg.rules[i].rhs) {
      if (!cfg.is_terminal(symbol) && !has_rule[symbol.value()]) {
        throw Error(fmt::format("{}: nonterminal '{}' is used but has no rule",
                                describe_rule(cfg, i), cfg.name(symbol)),
                    ErrorCode::kGrammar, rule_location(cfg, i));
      }
    }
  }
}

}  // namespace glrmask::glr
