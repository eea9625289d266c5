#include "lib/grammar/regex_constraint.h"

#include "lib/core/error.h"
#include "lib/grammar/grammar_builder.h"

namespace glrmask {

GrammarModel regex_constraint_grammar(const std::string& pattern, bool matches_empty) {
  if (pattern.empty())
    throw Error("regex: the pattern is empty", ErrorCode::kGrammar,
                ErrorLocation::in_file("<regex>"));
  GrammarBuilder builder("<regex>");
  Terminal terminal;
  terminal.name = "REGEX";
  terminal.pattern = pattern;
  // Errors about the pattern (it matches no text, ...) name it as the regex, as the
  // empty-pattern error above does.
  terminal.origin = SourceLocation{"<regex>", 0, 0};
  terminal.whole_language = true;
  builder.add_terminal(terminal);
  builder.add_nonterminal(Nonterminal{"start", {}, false, terminal.origin});
  builder.add_rule(RuleSpec{"start", {"REGEX"}, 0, "", {}});
  if (matches_empty) builder.add_rule(RuleSpec{"start", {}, 0, "", {}});
  return std::move(builder).build("start");
}

}  // namespace glrmask
