#include "lexer/fork_ignored_ending.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <utility>

#include "lexer/fork_next_terminals.h"
#include "lexer/lexer_fork.h"

namespace glrmask::lexer {

std::vector<char> forks_ending_through_ignored(const TerminalDwa& dwa) {
  const LexerDfa& dfa = dwa.dfa();
  const std::vector<std::uint8_t>& bytes = dfa.byte_classes();
  std::vector<char> result(dwa.num_forks(), 0);
  for (ForkId id = 0; id < dwa.num_forks(); ++id) {
    if (dwa.can_finish(id)) continue;
    std::unordered_set<LexerFork, LexerForkHash> seen{dwa.fork(id)};
    std::vector<LexerFork> stack{dwa.fork(id)};
    std::vector<ForkedLexing> successors;
    while (!stack.empty() && result[id] == 0) {
      const ForkedLexing from{{}, std::move(stack.back())};
      stack.pop_back();
      for (const std::uint8_t byte : bytes) {
        successors.clear();
        step_fork(dfa, from, byte, successors);
        for (ForkedLexing& next : successors) {
          if (!std::all_of(next.labels.begin(), next.labels.end(),
                           [&](LabelId label) { return dfa.label_may_be_skipped(label); }))
            continue;
          if (can_finish(dfa, next.fork)) result[id] = 1;
          if (seen.insert(next.fork).second) stack.push_back(std::move(next.fork));
        }
      }
    }
  }
  return result;
}

}  // namespace glrmask::lexer
