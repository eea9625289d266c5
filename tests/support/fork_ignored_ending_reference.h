// lexer::forks_ending_through_ignored written out as its definition, one search per fork (what
// the function computed before it searched all forks at once): the reference its tests compare
// with.
#pragma once

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/terminal_dwa.h"

namespace glrmask::testing {

inline std::vector<char> ends_through_ignored_per_fork(const lexer::TerminalDwa& dwa) {
  const lexer::LexerDfa& dfa = dwa.dfa();
  std::vector<char> result(dwa.num_forks(), 0);
  for (lexer::ForkId id = 0; id < dwa.num_forks(); ++id) {
    if (dwa.can_finish(id)) continue;
    std::unordered_set<lexer::LexerFork, lexer::LexerForkHash> seen{dwa.fork(id)};
    std::vector<lexer::LexerFork> stack{dwa.fork(id)};
    std::vector<lexer::ForkedLexing> successors;
    while (!stack.empty() && result[id] == 0) {
      const lexer::ForkedLexing from{{}, stack.back()};
      stack.pop_back();
      for (unsigned byte = 0; byte < 256; ++byte) {
        successors.clear();
        lexer::step_fork(dfa, from, static_cast<std::uint8_t>(byte), successors);
        for (const lexer::ForkedLexing& next : successors) {
          if (!std::all_of(next.labels.begin(), next.labels.end(),
                           [&](lexer::LabelId label) { return dfa.label_may_be_skipped(label); }))
            continue;
          if (lexer::can_finish(dfa, next.fork)) result[id] = 1;
          if (seen.insert(next.fork).second) stack.push_back(next.fork);
        }
      }
    }
  }
  return result;
}

}  // namespace glrmask::testing
