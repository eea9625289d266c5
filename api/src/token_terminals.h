// Binds a grammar's token terminals (lib/core/token_terminal.h) to the tokenizer a constraint is
// compiled for: every token named by text (`<tool_call>`) is found in the vocabulary and respelled
// by id, and the vocabulary gives each token the grammar can match its stand-in bytes.
//
// Which tokens get them: every token the grammar names, and, when the grammar has a negated token
// (`(!<[11]>)*`, any token but one), every special token except the stop ids as well, since "any
// other token" includes them. Every other special token stays out of every mask, as without
// token terminals.
#pragma once

#include <optional>

#include "glrmask/tokenizer.hpp"
#include "lib/grammar/grammar_model.h"

namespace glrmask {

struct TokenBinding {
  GrammarModel model;   // every token terminal in the id form `<[id]>`
  Tokenizer tokenizer;  // its vocabulary spells the bound tokens by their stand-in bytes
};

// nullopt when `model` has no token terminals (the grammar and tokenizer serve as they are).
// Throws GrammarError naming the terminal's place when a token is not in the vocabulary, is named
// by a text that no single token has (or that several have), or is a stop id.
std::optional<TokenBinding> bind_token_terminals(const GrammarModel& model,
                                                 const Tokenizer& tokenizer);

}  // namespace glrmask
