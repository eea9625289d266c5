#include "lexer/regex/grammar_terminals.h"

#include <map>

#include "lib/core/token_terminal.h"

namespace glrmask::lexer {

std::vector<TerminalSpec> terminal_specs(const GrammarModel& grammar) {
  // A token named by its text (`<think>`) is resolved only against a tokenizer, when a constraint
  // is compiled (api/src/token_terminals.h); until then each distinct name stands for an id past
  // every vocabulary's, which is all that the grammar's own checks (the munch cuts) look at.
  std::map<std::string, std::uint32_t> unresolved;
  const auto token_id = [&](const std::string& spelling) {
    if (const auto id = token_spelling_id(spelling)) return *id;
    return unresolved.try_emplace(spelling, kUnresolvedTokenBase + unresolved.size()).first->second;
  };
  std::vector<TerminalSpec> specs;
  specs.reserve(grammar.num_terminals());
  for (const Terminal& t : grammar.terminals()) {
    specs.push_back(TerminalSpec{.name = t.name,
                                 .regex = t.pattern,
                                 .flags = t.flags,
                                 .priority = t.priority,
                                 .is_literal = t.is_literal,
                                 .ignored = t.ignored,
                                 .external = t.declared,
                                 .whole_language = t.whole_language,
                                 .token = std::nullopt,
                                 .token_negated = t.token_negated,
                                 .byte_ranges = t.byte_ranges,
                                 .origin = t.origin.str()});
    if (!t.token.empty()) specs.back().token = token_id(t.token);
  }
  return specs;
}

}  // namespace glrmask::lexer
