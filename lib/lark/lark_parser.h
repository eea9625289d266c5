// Parses the text of a .lark file into its syntax tree (lark_syntax.h). Only the shape of the text
// is checked here: balanced brackets, where operators, aliases and priorities may stand, the form
// of each directive. Names are resolved later, by the loader.
#pragma once

#include <string>
#include <string_view>

#include "lib/lark/lark_syntax.h"

namespace glrmask::lark {

// Throws GrammarError "file:line:col: message" at the first malformed construct. Templates
// (`rule{param}`) are refused here, since no grammar we need uses them.
GrammarSyntax parse_lark(std::string_view text, const std::string& file);

}  // namespace glrmask::lark
