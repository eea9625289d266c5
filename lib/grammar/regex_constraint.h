// A plain regular-expression constraint (`--regex PATTERN`): a grammar of one terminal, so the
// whole output must match PATTERN (Python `re` syntax, the terminal dialect of docs/lexer.md;
// a full match, as re.fullmatch, not a search).
#pragma once

#include <string>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

// Throws glrmask::Error for an empty pattern. Regex syntax errors surface when the grammar is
// compiled, naming the column in the pattern.
GrammarModel regex_constraint_grammar(const std::string& pattern);

}  // namespace glrmask
