// Prints a GrammarModel as Lark text: plain BNF rules (EBNF already expanded), named terminals as
// definitions, anonymous ones inline where they are used. Reading the text back, with glrmask or
// with Lark itself, gives the same grammar (same rules, same terminal names and patterns).
// Used for debugging front-ends and as the output format of grammar generators.
#pragma once

#include <string>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

std::string to_lark_text(const GrammarModel& grammar);

}  // namespace glrmask
