// Reads a grammar in GBNF, llama.cpp's format, into the GrammarModel: the parse
// (gbnf_parser.h) and the choice of lexer terminals (gbnf_lowering.h). docs/grammar.md, "GBNF",
// says what is supported and how it maps.
#pragma once

#include <string>
#include <string_view>

#include "lib/gbnf/gbnf_lowering.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask {

// `file_name` names the text in messages. Throws GrammarError naming file:line:col.
GrammarModel load_gbnf_text(std::string_view text, const std::string& file_name,
                            const gbnf::LoweringOptions& options);

}  // namespace glrmask
