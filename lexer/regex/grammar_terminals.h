// Lowers a GrammarModel's terminals into the lexer's input. Terminal i of the grammar becomes
// TerminalSpec i, so lexer labels, grammar terminal ids and parser terminal columns agree.
#pragma once

#include <cstdint>
#include <vector>

#include "lexer/runtime/terminal_spec.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::lexer {

std::vector<TerminalSpec> terminal_specs(const GrammarModel& grammar);

// Where the stand-in ids of tokens named by text start (no vocabulary reaches 2^31 ids).
inline constexpr std::uint32_t kUnresolvedTokenBase = std::uint32_t{1} << 31;

}  // namespace glrmask::lexer
