// Which terminals a lexer fork can still emit next, exactly: T is listed for fork f iff some
// byte string s makes f emit, as its first label that the parser sees, a label containing T,
// without an inhibitor firing on the way. Ignored text is looked through: if f can first emit a
// purely ignored label (or the ignored alternative of a tie), what may follow it counts too.
// Ignored terminals themselves are never listed.
//
// For a fork without inhibitors whose lexeme cannot become an ignored terminal this is the
// lexeme's LexerDfa::viable_terminals() minus ignored ones; inhibitors remove terminals (after
// Go's `+` was emitted early, the next lexeme cannot start with `+` or `=`), ignored text adds
// some. Computed as reachability in the product of the DFA with the inhibitor sets, strongly
// connected components first (ignored text loops), so the cost follows that product's size.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"
#include "lexer/runtime/lexer_fork.h"

namespace glrmask::lexer {

struct NextTerminalsResult {
  std::vector<std::vector<uint32_t>> terminals;  // per fork, ascending terminal ids
  size_t product_states = 0;                     // (DFA state, inhibitor set) pairs explored
};

NextTerminalsResult fork_next_terminals(const LexerDfa& dfa, std::span<const LexerFork> forks);

}  // namespace glrmask::lexer
