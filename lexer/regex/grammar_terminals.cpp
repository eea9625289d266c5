#include "lexer/regex/grammar_terminals.h"

namespace glrmask::lexer {

std::vector<TerminalSpec> terminal_specs(const GrammarModel& grammar) {
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
                                 .origin = t.origin.str()});
  }
  return specs;
}

}  // namespace glrmask::lexer
