// The tables the Parser DWA construction computes before its workers start (read-only while they
// run): LR predecessors and first reads, the start reads of each fork, the per-node tables of the
// Terminal DWA's trie, and for a grammar with an indenter what its strategy needs.
#pragma once

#include <utility>
#include <vector>

#include "mask/parser_dwa/builder_model.h"

namespace glrmask::mask::construction {

// Interns a set of terminals (sorted and deduplicated here) as a lookahead.
LookaheadId intern_lookahead(ParserDwaShared& shared, std::vector<SymbolId> terminals);
// Per LR state its predecessors (ascending), and the states a run may read first.
void compute_predecessors(ParserDwaShared& shared);
// Which first reads each fork's start state needs. A start state reading x feeds the terminals
// its fork can produce first (its root's labels and checks, past ignored labels, and the end of
// input where it can finish) on a stack with x on top; where the shift verdict of every one of
// them is "never", the run dies at x (after suspended reductions that die too), so the read
// is not requested at all. Without this the construction expands every fork on every state a
// shift enters: forks times states, where an object with n keys has about n of each
// (docs/wfa.md, "Construction", 7). Not for grammars with an indenter (their feeds also depend
// on the virtual indentation) or skippable terminals (always takeable in a check).
void compute_start_reads(ParserDwaShared& shared);
// Refuses a skippable terminal where the session can hold two stacks (kUnsupported).
void require_single_stack_for_skippables(const ParserDwaShared& shared);
// Calls visit(node) for every node of the Terminal DWA's trie, each after all of its children
// (post-order from every root), so a visit may read what the children's visits wrote. Without
// recursion: a trie path is as long as the longest token.
template <class Visit>
void for_each_node_children_first(const lexer::TerminalDwa& dwa, Visit visit) {
  std::vector<char> done(dwa.num_nodes(), 0);
  std::vector<std::pair<lexer::DwaNodeId, bool>> stack;
  for (lexer::DwaNodeId root = 0; root < dwa.num_nodes(); ++root) {
    if (done[root] != 0) continue;
    stack.emplace_back(root, false);
    while (!stack.empty()) {
      const auto [node, children_done] = stack.back();
      stack.pop_back();
      if (done[node] != 0) continue;
      if (!children_done) {
        stack.emplace_back(node, true);
        for (const lexer::DwaEdge& edge : dwa.edges(node))
          if (done[edge.child] == 0) stack.emplace_back(edge.child, false);
        continue;
      }
      visit(node);
      done[node] = 1;
    }
  }
}

// The tables every worker reads, computed once before they start: per trie node the tokens of
// its subtrie and its weights' checks, per fork what its start can accept, per label the lookahead
// it feeds when that does not depend on the stack.
void precompute_node_tables(ParserDwaShared& shared, TokenSetPool& pool);
// Grammars with an indenter: what the construction needs besides the plain tables (docs/wfa.md,
// "Indenter"). Refuses what the construction does not cover: skippable terminals (their "no stack
// shifts it" rule and the indenter's branches are not combined), a Terminal DWA built without
// indent labels, and rules whose brackets do not pair up (the parser then decides every closing
// bracket: a stack that shifts one holds its opening bracket, so a closer never meets depth 0).
void prepare_indenter(ParserDwaShared& shared);
// A session's configuration with an accepted lexeme enters the Terminal DWA twice: the lexeme
// going on, and its label committed with the bytes after it lexed again, in a fork inhibited by
// the configuration's state (lexer_fork.h). At a token boundary right after the lexeme (nothing
// pending: the most common case by far, e.g. after an identifier) that fork is the start state
// with inhibitors, and the DWA records the same (label, fork) wherever one token ends just after
// such a lexeme: an edge on the label into a node with a weight ending in that fork. Those pairs
// get start states. Forks with bytes pending after the lexeme would add states for rare steps;
// such entries, like any the DWA never recorded, are fed to the parser at get_mask time.
std::vector<std::pair<lexer::LabelId, lexer::ForkId>> early_label_pairs(
    const lexer::TerminalDwa& dwa);

}  // namespace glrmask::mask::construction
