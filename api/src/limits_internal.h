// glrmask::Limits (constraint.hpp) as the options of the layers that enforce each budget: the
// lexer compiler, the GLR parser, the session and the Parser DWA's construction.
#pragma once

#include "glr/glr_parser.h"
#include "glr/session.h"
#include "glrmask/constraint.hpp"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "mask/parser_dwa/parser_dwa_builder.h"

namespace glrmask {

lexer::LexerDfaLimits lexer_limits(const Limits& limits);
glr::ParserLimits parser_limits(const Limits& limits);
// Sets the session's commit deadline; the rollback depth stays as given.
glr::SessionOptions session_options(const Limits& limits, std::size_t max_rollback);
// Sets the construction's budgets; the other options stay as given.
void apply_compile_limits(const Limits& limits, mask::ParserDwaOptions& options);

}  // namespace glrmask
