#include "lib/lark/lark_writer.h"

#include <fmt/format.h>

#include "lib/lark/lark_escapes.h"

namespace glrmask {
namespace {

std::string pattern_text(const Terminal& terminal) {
  // GBNF's negation has no Lark form; it is printed as GBNF writes it.
  if (!terminal.token.empty()) return (terminal.token_negated ? "!" : "") + terminal.token;
  if (!terminal.byte_ranges.empty()) {
    // Raw bytes have no Lark form either; shown as the ranges.
    std::string text = "<bytes";
    for (const auto& [first, last] : terminal.byte_ranges)
      text += fmt::format(" {:02x}-{:02x}", first, last);
    return text + ">";
  }
  return terminal.is_literal ? lark::lark_string_text(terminal.literal, terminal.flags)
                             : lark::lark_regexp_text(terminal.pattern, terminal.flags);
}

std::string symbol_text(const GrammarModel& grammar, SymbolId id) {
  if (grammar.is_terminal(id) && grammar.terminal(id).anonymous) {
    return pattern_text(grammar.terminal(id));
  }
  return std::string(grammar.name(id));
}

std::string priority_text(int priority) {
  return priority == 0 ? "" : fmt::format(".{}", priority);
}

}  // namespace

std::string to_lark_text(const GrammarModel& grammar) {
  std::string out;
  if (grammar.name(grammar.start()) != "start") {
    out += fmt::format("// start rule: {}\n\n", grammar.name(grammar.start()));
  }
  for (std::size_t n = 0; n < grammar.num_nonterminals(); ++n) {
    const SymbolId id = grammar.nonterminal_id(n);
    const Nonterminal& nonterminal = grammar.nonterminal(id);
    const auto rules = grammar.rules_of(id);
    std::string head;
    if (nonterminal.shape.keep_all_tokens) head += '!';
    if (nonterminal.shape.inline_if_single) head += '?';
    head += nonterminal.name + priority_text(rules.empty() ? 0 : rules.front().priority) + ":";
    out += head;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      if (r > 0) out += "\n" + std::string(head.size() - 1, ' ') + "|";
      for (SymbolId symbol : rules[r].rhs) out += " " + symbol_text(grammar, symbol);
      if (!rules[r].alias.empty()) out += " -> " + rules[r].alias;
    }
    out += "\n";
  }
  bool first_terminal = true;
  for (const Terminal& terminal : grammar.terminals()) {
    if (terminal.anonymous) continue;
    if (first_terminal) out += "\n";
    first_terminal = false;
    out += fmt::format("{}{}: {}\n", terminal.name, priority_text(terminal.priority),
                       pattern_text(terminal));
  }
  bool first_ignore = true;
  for (const Terminal& terminal : grammar.terminals()) {
    if (!terminal.ignored) continue;
    if (first_ignore) out += "\n";
    first_ignore = false;
    out += fmt::format("%ignore {}\n", terminal.anonymous ? pattern_text(terminal) : terminal.name);
  }
  return out;
}

}  // namespace glrmask
