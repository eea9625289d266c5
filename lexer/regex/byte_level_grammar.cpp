#include "lexer/regex/byte_level_grammar.h"

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <utility>

#include "lexer/regex/grammar_terminals.h"
#include "lib/core/check.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::lexer {
namespace {

std::string lower(std::string_view text) {
  std::string out;
  for (const char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper(std::string_view text) {
  std::string out;
  for (const char c : text) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

ByteLevelWriter::ByteLevelWriter(GrammarBuilder& builder, std::string prefix, LexerDfaLimits limits)
    : builder_(builder), prefix_(std::move(prefix)), limits_(limits) {}

std::string ByteLevelWriter::fresh(const std::string& base) {
  const int n = used_names_[base]++;
  return n == 0 ? base : fmt::format("{}_{}", base, n);
}

std::string ByteLevelWriter::byte_class(const ByteSet& set, const SourceLocation& origin) {
  GLRMASK_DCHECK(set.any(), "an empty byte class");
  GLRMASK_DCHECK(!finished_, "a byte class after finish()");
  const std::string key = set.to_string();
  if (const auto it = classes_.find(key); it != classes_.end()) return it->second;
  const std::string name = fresh(fmt::format("{}byte_class_{}", lower(prefix_), classes_.size()));
  builder_.add_nonterminal(Nonterminal{name, {}, true, origin});
  classes_.emplace(key, name);
  class_order_.emplace_back(set, name);
  return name;
}

std::vector<std::string> ByteLevelWriter::literal(std::string_view bytes,
                                                  const SourceLocation& origin) {
  std::vector<std::string> symbols;
  for (const char c : bytes) {
    ByteSet set;
    set.set(static_cast<unsigned char>(c));
    symbols.push_back(byte_class(set, origin));
  }
  return symbols;
}

std::string ByteLevelWriter::append(const GrammarModel& model, const std::string& prefix) {
  const std::vector<TerminalSpec> specs = terminal_specs(model);
  // Each terminal: the nonterminal its lexemes derive (or a token terminal's own name).
  std::vector<std::string> terminal_symbol(model.num_terminals());
  for (std::size_t t = 0; t < model.num_terminals(); ++t) {
    const Terminal& terminal = model.terminals()[t];
    if (terminal.ignored || terminal.declared) {
      throw GrammarError(terminal.origin,
                         fmt::format("terminal {} is {}; a part read byte by byte cannot have "
                                     "terminals between its lexemes",
                                     terminal.name, terminal.ignored ? "%ignore'd" : "%declare'd"));
    }
    if (!terminal.token.empty()) {
      Terminal copy = terminal;
      copy.name = fresh(upper(prefix) + terminal.name);
      copy.anonymous = true;
      builder_.add_terminal(copy);
      terminal_symbol[t] = copy.name;
      continue;
    }
    const LexerDfa dfa = compile_lexer_dfa(std::span<const TerminalSpec>(&specs[t], 1), limits_);
    if (dfa.has_tentative_states()) {
      throw GrammarError(terminal.origin,
                         fmt::format("terminal {} has a (?!qq) guard, which a part read byte by "
                                     "byte cannot keep",
                                     terminal.name));
    }
    // Lexemes and rules in name spaces of their own ("t_", "r_"): a terminal STRING and a rule
    // string stay apart.
    const std::string base = lower(prefix) + "t_" + lower(terminal.name);
    const std::string lexeme = fresh(base);
    builder_.add_nonterminal(Nonterminal{lexeme, {}, true, terminal.origin});
    terminal_symbol[t] = lexeme;
    // The states reached after at least one byte, found from the start state.
    std::vector<std::string> state_symbol(dfa.num_states());
    const auto symbol_of = [&](std::uint32_t state) -> const std::string& {
      if (state_symbol[state].empty()) {
        state_symbol[state] = fresh(fmt::format("{}_s{}", base, state));
        builder_.add_nonterminal(Nonterminal{state_symbol[state], {}, true, terminal.origin});
      }
      return state_symbol[state];
    };
    const auto targets_of = [&](std::uint32_t state) {
      std::map<std::uint32_t, ByteSet> targets;
      for (unsigned b = 0; b < 256; ++b) {
        const std::uint32_t next = dfa.next(state, static_cast<std::uint8_t>(b));
        if (next != LexerDfa::kDeadState) targets[next].set(b);
      }
      return targets;
    };
    // The first byte of a lexeme, from the start state with nothing before it; then every state
    // reached after a byte (the start state too, if a byte leads back to it) from its symbol.
    std::vector<std::uint32_t> pending;
    for (const auto& [next, set] : targets_of(dfa.start_state())) {
      builder_.add_rule(
          RuleSpec{symbol_of(next), {byte_class(set, terminal.origin)}, 0, "", terminal.origin});
      pending.push_back(next);
    }
    std::set<std::uint32_t> expanded;
    while (!pending.empty()) {
      const std::uint32_t state = pending.back();
      pending.pop_back();
      if (!expanded.insert(state).second) continue;
      for (const auto& [next, set] : targets_of(state)) {
        builder_.add_rule(RuleSpec{symbol_of(next),
                                   {symbol_of(state), byte_class(set, terminal.origin)},
                                   0,
                                   "",
                                   terminal.origin});
        if (!expanded.contains(next)) pending.push_back(next);
      }
    }
    for (std::uint32_t state = 0; state < dfa.num_states(); ++state)
      if (!state_symbol[state].empty() && dfa.label(state) != LexerDfa::kNoLabel)
        builder_.add_rule(RuleSpec{lexeme, {state_symbol[state]}, 0, "", terminal.origin});
  }
  for (const Nonterminal& nonterminal : model.nonterminals()) {
    Nonterminal copy = nonterminal;
    copy.name = lower(prefix) + "r_" + nonterminal.name;
    copy.generated = true;
    builder_.add_nonterminal(copy);
  }
  const auto renamed = [&](SymbolId id) {
    return model.is_terminal(id) ? terminal_symbol[id.value()]
                                 : lower(prefix) + "r_" + std::string(model.name(id));
  };
  for (const Rule& rule : model.rules()) {
    std::vector<std::string> rhs;
    for (const SymbolId symbol : rule.rhs) rhs.push_back(renamed(symbol));
    builder_.add_rule(RuleSpec{renamed(rule.lhs), std::move(rhs), rule.priority, "", rule.origin});
  }
  return renamed(model.start());
}

void ByteLevelWriter::finish() {
  GLRMASK_DCHECK(!finished_, "finish() twice");
  finished_ = true;
  // The coarsest partition of the bytes that every class is a union of: bytes with the same
  // membership in every class share one terminal.
  std::map<std::vector<bool>, ByteSet> blocks;
  for (unsigned b = 0; b < 256; ++b) {
    std::vector<bool> membership;
    membership.reserve(class_order_.size());
    bool used = false;
    for (const auto& [set, name] : class_order_) {
      membership.push_back(set.test(b));
      used = used || set.test(b);
    }
    if (used) blocks[membership].set(b);
  }
  for (const auto& [membership, block] : blocks) {
    Terminal terminal;
    terminal.anonymous = true;
    for (unsigned b = 0; b < 256;) {
      if (!block.test(b)) {
        ++b;
        continue;
      }
      unsigned last = b;
      while (last + 1 < 256 && block.test(last + 1)) ++last;
      terminal.byte_ranges.emplace_back(static_cast<std::uint8_t>(b),
                                        static_cast<std::uint8_t>(last));
      b = last + 1;
    }
    // Named after its bytes, for messages ("expected BYTE_0x7d"): one range, or the first.
    const auto [first, last] = terminal.byte_ranges.front();
    terminal.name = fresh(terminal.byte_ranges.size() == 1 && first == last
                              ? fmt::format("{}BYTE_0x{:02x}", upper(prefix_), first)
                              : fmt::format("{}BYTES_0x{:02x}_0x{:02x}{}", upper(prefix_), first,
                                            last, terminal.byte_ranges.size() > 1 ? "_etc" : ""));
    builder_.add_terminal(terminal);
    for (std::size_t k = 0; k < class_order_.size(); ++k)
      if (membership[k])
        builder_.add_rule(RuleSpec{class_order_[k].second, {terminal.name}, 0, "", {}});
  }
}

}  // namespace glrmask::lexer
