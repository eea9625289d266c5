// Lowers a GrammarModel's terminals into the lexer's input. Terminal i of the grammar becomes
// TerminalSpec i, so lexer labels, grammar terminal ids and parser terminal columns agree.
#pragma once

#include <vector>

#include "lexer/runtime/terminal_spec.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::lexer {

std::vector<TerminalSpec> terminal_specs(const GrammarModel& grammar);

}  // namespace glrmask::lexer
