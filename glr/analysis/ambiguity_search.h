// The whole grammar's ambiguity, from its conflicts: two different trees of one sentence give
// two LR parses (one per tree) that part at some cell of the table with several actions, so the
// unifying counterexamples of all conflict cells (conflict_counterexample.h) are the grammar's
// shortest ambiguous sentences, one per cell, up to the length bound.
//
// Each sentence is then located: the two trees are followed down from the root while they agree
// (same rule, same spans); the node where they first differ is the nonterminal whose
// derivations differ, over the phrase it spans. Sentences are grouped by that nonterminal, and
// for each the shortest phrase is kept.
#pragma once

#include <cstdint>
#include <vector>

#include "glr/analysis/conflict_counterexample.h"
#include "glr/analysis/conflict_report.h"
#include "glr/analysis/derivation_tree.h"
#include "glr/lalr_automaton.h"

namespace glrmask::glr {

struct AmbiguousSentence {
  StateId state = 0;  // the cell where the two parses part
  SymbolId lookahead = 0;
  ConflictVerdict verdict;  // kAmbiguous: first and second hold the sentence and its trees
  std::size_t length = 0;   // terminals of the sentence
  // Where the trees first differ: the nonterminal, the phrase [start, end) of the sentence, and
  // the two subtrees there.
  SymbolId nonterminal = 0;
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  TreeRef first;
  TreeRef second;
};

struct AmbiguityReport {
  std::size_t cells = 0;
  std::size_t lookahead_cells = 0;  // need more lookahead (not ambiguous)
  std::size_t undecided_cells = 0;
  std::vector<AmbiguousSentence> sentences;  // one per ambiguous cell, shortest first
  // Per nonterminal whose derivations differ: the sentence with its shortest phrase, ordered by
  // phrase length, then name.
  std::vector<AmbiguousSentence> by_nonterminal;
};

// Where two different trees of one sentence (same root symbol and span) first differ.
struct TreeDivergence {
  TreeRef first;
  TreeRef second;
};
TreeDivergence first_divergence(const TreeRef& first, const TreeRef& second);

// Classifies every conflict cell of the automaton within `options` and collects the ambiguous
// sentences.
AmbiguityReport find_ambiguities(const LalrAutomaton& automaton,
                                 const CounterexampleOptions& options);

}  // namespace glrmask::glr
