// Reads a grammar written in Lark's syntax (Lark 1.1.5, https://lark-parser.readthedocs.io) into
// the GrammarModel. See docs/grammar.md for what is supported and how each construct maps to BNF.
//
// Refused, with a GrammarError naming the place:
//  - malformed text (unbalanced brackets, bad escapes, unterminated literals, missing colons...);
//  - undefined or doubly defined symbols, recursion inside terminals;
//  - templates, %import from anything but Lark's `common` library;
//  - %declare'd terminals that a reachable rule uses, unless LarkOptions::declared_terminals:
//    only a post-lexer can produce them (Lark's Indenter for _INDENT/_DEDENT; glrmask has
//    Python's, glr/indenter.h, enabled by ParseOptions::postlex / `--postlex python`).
// Unreachable and unproductive rules and unused terminals are dropped with a warning
// (GrammarModel::warnings()).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct LarkOptions {
  std::string start = "start";  // the start rule, as Lark's `start=` option
  // Accept %declare'd terminals (Terminal::declared, no pattern): a post-lexer will insert them.
  bool declared_terminals = false;
};

// `file_name` names the text in messages.
GrammarModel load_lark_text(std::string_view text, const std::string& file_name,
                            const LarkOptions& options = {});

// Throws glrmask::Error when the file cannot be read.
GrammarModel load_lark_file(const std::filesystem::path& path, const LarkOptions& options = {});

}  // namespace glrmask
