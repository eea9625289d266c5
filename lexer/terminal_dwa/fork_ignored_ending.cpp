#include "lexer/terminal_dwa/fork_ignored_ending.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "lexer/runtime/fork_next_terminals.h"
#include "lexer/runtime/lexer_fork.h"

namespace glrmask::lexer {

// One search over every fork reachable from the automaton's forks through skippable labels,
// instead of one search per fork: the reachable forks and their edges are found once, then the
// forks that can finish are propagated backwards along the edges. (A search per fork cost about
// 0.3 s on SynCode's Python grammar with Llama-3, paid by the first mask after every load.)
std::vector<char> forks_ending_through_ignored(const TerminalDwa& dwa) {
  const LexerDfa& dfa = dwa.dfa();
  const std::vector<std::uint8_t>& bytes = dfa.byte_classes();
  std::unordered_map<LexerFork, std::uint32_t, LexerForkHash> ids;
  std::vector<LexerFork> nodes;
  std::vector<std::uint32_t> stack;
  const auto node = [&](const LexerFork& fork) {
    const auto [at, added] = ids.emplace(fork, static_cast<std::uint32_t>(nodes.size()));
    if (added) {
      nodes.push_back(fork);
      stack.push_back(at->second);
    }
    return at->second;
  };
  // The automaton's forks that cannot finish themselves are the starts; node n's fork of the
  // automaton, where it is one (forks are distinct, so at most one).
  constexpr ForkId kNone = UINT32_MAX;
  std::vector<ForkId> fork_of;
  for (ForkId id = 0; id < dwa.num_forks(); ++id) {
    if (dwa.can_finish(id)) continue;
    const std::uint32_t n = node(dwa.fork(id));
    fork_of.resize(nodes.size(), kNone);
    fork_of[n] = id;
  }
  fork_of.resize(nodes.size(), kNone);

  // Edges of skippable steps, as (from, to).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  std::vector<ForkedLexing> successors;
  while (!stack.empty()) {
    const std::uint32_t from = stack.back();
    stack.pop_back();
    const ForkedLexing lexing{{}, nodes[from]};
    for (const std::uint8_t byte : bytes) {
      successors.clear();
      step_fork(dfa, lexing, byte, successors);
      for (const ForkedLexing& next : successors) {
        if (!std::all_of(next.labels.begin(), next.labels.end(),
                         [&](LabelId label) { return dfa.label_may_be_skipped(label); }))
          continue;
        edges.emplace_back(from, node(next.fork));
      }
    }
  }

  // reaches[n]: some path of skippable steps (possibly none) leads from n to a fork that can
  // finish. Backwards from those forks over the edges.
  std::vector<std::uint32_t> in_begin(nodes.size() + 1, 0);
  for (const auto& [from, to] : edges) ++in_begin[to + 1];
  for (std::size_t n = 0; n < nodes.size(); ++n) in_begin[n + 1] += in_begin[n];
  std::vector<std::uint32_t> in_from(edges.size());
  std::vector<std::uint32_t> fill(in_begin.begin(), in_begin.end() - 1);
  for (const auto& [from, to] : edges) in_from[fill[to]++] = from;
  std::vector<char> reaches(nodes.size(), 0);
  for (std::uint32_t n = 0; n < nodes.size(); ++n)
    if (can_finish(dfa, nodes[n])) {
      reaches[n] = 1;
      stack.push_back(n);
    }
  while (!stack.empty()) {
    const std::uint32_t to = stack.back();
    stack.pop_back();
    for (std::uint32_t e = in_begin[to]; e < in_begin[to + 1]; ++e)
      if (reaches[in_from[e]] == 0) {
        reaches[in_from[e]] = 1;
        stack.push_back(in_from[e]);
      }
  }

  // A fork of the automaton (that cannot finish itself) ends through ignored text when one of
  // its successors reaches a finishing fork: a path of at least one step.
  std::vector<char> result(dwa.num_forks(), 0);
  for (const auto& [from, to] : edges)
    if (reaches[to] != 0 && from < fork_of.size() && fork_of[from] != kNone)
      result[fork_of[from]] = 1;
  return result;
}

}  // namespace glrmask::lexer
