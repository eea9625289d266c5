// The id of a symbol of the grammar model (grammar.h): terminals first, then nonterminals;
// value() is the index. The LR builder numbers symbols differently (glr/lr_grammar.h inserts the
// end-of-input marker after the terminals, so every nonterminal moves up by one), which is why
// this is a type of its own: a grammar symbol reaches the LR tables only through
// LrGrammar::from_cfg_symbol().
#pragma once

#include "lib/core/strong_id.h"

namespace glrmask {

using SymbolId = StrongId<struct GrammarSymbolTag>;

}  // namespace glrmask
