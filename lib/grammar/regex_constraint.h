// A plain regular-expression constraint (`--regex PATTERN`): a grammar of one terminal, so the
// whole output must match PATTERN (Python `re` syntax, the terminal dialect of docs/lexer.md;
// a full match, as re.fullmatch, not a search). The terminal is matched as a language
// (Terminal::whole_language): "abab" is a sentence of `ab|abab`, which re.match would cut.
#pragma once

#include <string>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

// `matches_empty`: the pattern matches the empty text (the caller parsed it), which is then a
// sentence too. Throws glrmask::Error for an empty pattern. Regex syntax errors surface when the
// grammar is compiled, naming the column in the pattern.
GrammarModel regex_constraint_grammar(const std::string& pattern, bool matches_empty);

}  // namespace glrmask
