// A GBNF syntax tree -> the GrammarModel: which parts become lexer terminals.
//
// GBNF has no lexer: its rules range over code points. glrmask's lexer reads maximal munch over
// terminals, so the lowering must choose terminals whose longest matches never cut a sentence
// differently from the grammar. It starts from the largest regular parts (a rule whose references
// never lead back to it, and each item of a recursive rule that references no recursive rule,
// becomes one terminal whose pattern is matched as a language, Terminal::whole_language) and
// refines: a caller-supplied check
// (the lexer's munch analysis, lexer/regex/munch_cuts.h) names the terminals that could extend a
// lexeme past a boundary the grammar allows, and the parts those terminals came from are lowered
// one level finer, until nothing is named. Single code points never extend a lexeme, so the
// refinement ends, at worst in a grammar over code points; in practice strings, numbers and names
// stay whole terminals. Repetitions and groups that are not lowered as terminals become generated
// rules (`x*` a left-recursive rule, `x{m,n}` m copies and a chain of optional ones).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lib/gbnf/gbnf_syntax.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::gbnf {

// The names of the terminals of `grammar` that maximal munch could let run past the end of a
// lexeme into what the grammar says follows it. Empty: the lexer reads every sentence as the
// grammar does.
using MunchCheck = std::function<std::vector<std::string>(const GrammarModel& grammar)>;

struct LoweringOptions {
  std::string start = "root";
  // Without a check, the first lowering is returned: right only for grammars where no terminal
  // can extend into its follower (the tests of the lowering itself).
  MunchCheck check;
  // The refinement rounds allowed; each splits at least one part.
  std::uint32_t max_rounds = 10'000;
};

// Throws GrammarError (the start rule is missing, a character class matches no character, a
// repetition expands to more than 2^24 items) naming file:line:col.
GrammarModel lower_gbnf(const Grammar& grammar, const LoweringOptions& options);

// How many refinement rounds the last lowering on this thread took, for tests and the study.
std::uint32_t last_lowering_rounds();

}  // namespace glrmask::gbnf
