#include "glr/unrealizable_rules.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask::glr {

namespace {

// What the DFA makes of a literal terminal's own text: the label it ends in, if any. For a
// pattern terminal there is no single text to try, so the reason stays unknown.
std::string shadow_reason(const Terminal& terminal, const lexer::LexerDfa& dfa) {
  if (!terminal.is_literal || terminal.literal.empty()) return {};
  std::uint32_t state = dfa.start_state();
  for (const char c : terminal.literal) {
    state = dfa.next(state, static_cast<std::uint8_t>(c));
    if (state == lexer::LexerDfa::kDeadState) return {};
  }
  const lexer::LabelId label = dfa.label(state);
  if (label == lexer::LexerDfa::kNoLabel) return {};
  return fmt::format("its text \"{}\" lexes as {}", terminal.literal, dfa.describe_label(label));
}

std::string terminal_name(const GrammarModel& grammar, GrammarSymbolId terminal) {
  const Terminal& t = grammar.terminal(terminal);
  if (t.anonymous && t.is_literal) return fmt::format("\"{}\"{}", t.literal, t.flags);
  return t.name;
}

}  // namespace

UnrealizableRules find_unrealizable_rules(const GrammarModel& grammar, const lexer::LexerDfa& dfa) {
  // A terminal is realizable iff some DFA label lists it: every labelled state is reachable, so
  // some text lexes (at the end of input) to that label. Per symbol, by index (lexer terminal i
  // is grammar terminal i).
  std::vector<char> realizable(grammar.num_symbols(), 0);
  for (lexer::LabelId label = 1; label < dfa.num_labels(); ++label)
    for (const std::uint32_t terminal : dfa.label_terminals(label)) realizable[terminal] = 1;
  // A post-lexer's terminal (%declare'd) is never lexed, but the post-lexer produces it.
  for (std::size_t t = 0; t < grammar.num_terminals(); ++t)
    if (grammar.terminals()[t].declared) realizable[t] = 1;

  UnrealizableRules result;
  const std::span<const Rule> rules = grammar.rules();
  std::vector<char> used(grammar.num_terminals(), 0);
  for (const Rule& rule : rules)
    for (const GrammarSymbolId symbol : rule.rhs)
      if (grammar.is_terminal(symbol)) used[symbol.value()] = 1;
  for (std::size_t t = 0; t < grammar.num_terminals(); ++t) {
    if (used[t] == 0 || realizable[t] != 0) continue;
    result.terminals.push_back(grammar.terminal_id(t));
    result.shadowed_by.push_back(shadow_reason(grammar.terminals()[t], dfa));
  }
  if (result.terminals.empty()) return result;

  // Productive nonterminals over the realizable terminals: the usual fixed point.
  std::vector<char> productive = realizable;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& rule : rules) {
      if (productive[rule.lhs.value()] != 0) continue;
      if (std::all_of(rule.rhs.begin(), rule.rhs.end(),
                      [&](GrammarSymbolId s) { return productive[s.value()] != 0; })) {
        productive[rule.lhs.value()] = 1;
        changed = true;
      }
    }
  }
  for (std::size_t n = 0; n < grammar.num_nonterminals(); ++n)
    if (productive[grammar.nonterminal_id(n).value()] == 0)
      result.nonterminals.push_back(grammar.nonterminal_id(n));
  for (std::size_t r = 0; r < rules.size(); ++r) {
    const Rule& rule = rules[r];
    if (productive[rule.lhs.value()] == 0 ||
        std::any_of(rule.rhs.begin(), rule.rhs.end(),
                    [&](GrammarSymbolId s) { return productive[s.value()] == 0; }))
      result.rules.push_back(r);
  }

  if (productive[grammar.start().value()] == 0) {
    std::string names;
    for (std::size_t i = 0; i < result.terminals.size(); ++i) {
      const Terminal& t = grammar.terminal(result.terminals[i]);
      names +=
          fmt::format("\n  {} ({}){}", terminal_name(grammar, result.terminals[i]), t.origin.str(),
                      result.shadowed_by[i].empty() ? "" : ": " + result.shadowed_by[i]);
    }
    throw Error(
        fmt::format(
            "{}: the start symbol '{}' derives no text the lexer can produce: these terminals are "
            "always shadowed by others and are never emitted:{}",
            grammar.nonterminal(grammar.start()).origin.str(), grammar.name(grammar.start()),
            names),
        ErrorCode::kGrammar,
        ErrorLocation::in_file(grammar.nonterminal(grammar.start()).origin.file,
                               grammar.nonterminal(grammar.start()).origin.line,
                               grammar.nonterminal(grammar.start()).origin.column));
  }
  return result;
}

std::string UnrealizableRules::describe(const GrammarModel& grammar) const {
  if (terminals.empty()) return "none\n";
  std::string text = fmt::format("{} terminals; {} rules and {} nonterminals dropped\n",
                                 terminals.size(), rules.size(), nonterminals.size());
  for (std::size_t i = 0; i < terminals.size(); ++i) {
    const Terminal& t = grammar.terminal(terminals[i]);
    text += fmt::format("  {} ({}){}\n", terminal_name(grammar, terminals[i]), t.origin.str(),
                        shadowed_by[i].empty() ? "" : ": " + shadowed_by[i]);
  }
  for (const GrammarSymbolId s : nonterminals)
    text += fmt::format("  dropped nonterminal {}\n", grammar.name(s));
  return text;
}

}  // namespace glrmask::glr
