// Classifies a conflict cell of the LALR(1) table (conflict_report.h) by searching for a witness:
//
//  - *ambiguous*: a unifying counterexample, one sentence with two derivations that part at this
//    cell (one takes the first action, the other the second), shortest found within the bound,
//    and checked on the sentence's parse forest (both trees are in it and differ);
//  - *needs more lookahead*: k tokens of lookahead separate the actions in every context (no
//    k-terminal string follows both), with two sentences that agree up to the conflict and on
//    k-1 terminals after it, then part; k = 1 means canonical LR(1) has no conflict here (an
//    LALR merge artifact);
//  - *undecided within the bound*: neither was found within the lookahead, length, configuration
//    and time bounds, which the verdict names.
//
// The method follows Isradisaikul and Myers, "Finding Counterexamples from Parsing Conflicts"
// (PLDI 2015): two simulated LR parsers run in lockstep over the same input, one forced to take
// each action, and a unifying counterexample is where they read the same terminals and both
// accept (or reach the same stack, after which any completion will do). The two parsers share the
// unknown stack below the conflict state: states are revealed from the LR(0) predecessor relation
// only when one of them pops that deep, so every context (every stack reaching the state) is
// explored, and the stack both started from is one stack. Our search differs from the paper's:
//  - lookahead separation is decided exactly, by exploring every pair of configurations level by
//    level (one level per common terminal) until a level is empty, instead of reporting a
//    nonunifying pair after a timeout;
//  - the unifying search is Dijkstra's over pairs of stacks with cost = terminals read + shortest
//    yields of the revealed stack symbols, bounded below by the shortest text under the lowest
//    revealed state, so the first counterexample found is a shortest one of its kind (the
//    prefix below the revealed states is a shortest one; a converged pair is completed by the
//    shortest completion of its stack, stack_witness.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "glr/analysis/conflict_report.h"
#include "glr/analysis/derivation_count.h"
#include "glr/analysis/derivation_tree.h"
#include "glr/analysis/stack_witness.h"
#include "glr/lalr_automaton.h"
#include "glr/lr_action.h"

namespace glrmask::glr {

struct CounterexampleOptions {
  // Lookahead separation is checked for k = 1 .. max_lookahead tokens.
  std::uint32_t max_lookahead = 4;
  // Unifying counterexamples of at most this many terminals are searched for.
  std::uint64_t max_length = 24;
  // Moves of the pair of parsers the searches may explore per pair of actions (a third for the
  // lookahead separation, all of it for the unifying search). This is the bound that decides
  // the verdicts, so they do not depend on the machine's speed or load.
  std::uint64_t max_configurations = 50000;
  // Wall time for a whole cell: a safety net, far above what the configuration bound takes.
  double max_seconds = 10.0;
};

enum class ConflictClass : std::uint8_t { kAmbiguous, kNeedsLookahead, kUndecided };

// One of the two parses a witness shows.
struct WitnessDerivation {
  Action action = Action::accept();  // the action this parse takes at the conflict
  std::vector<SymbolId> sentence;    // the tree's leaves
  TreeRef tree;                      // a derivation of the whole sentence from the start symbol
};

struct ConflictVerdict {
  ConflictClass kind = ConflictClass::kUndecided;
  // kAmbiguous: first.sentence == second.sentence. kNeedsLookahead: the sentences agree on
  // their first conflict_position + lookahead - 1 terminals and differ at the next one (for
  // lookahead 1 they come from different contexts and may differ anywhere).
  std::optional<WitnessDerivation> first;
  std::optional<WitnessDerivation> second;
  std::size_t conflict_position = 0;  // terminals before the conflict's lookahead in `first`
  std::uint32_t lookahead = 0;        // kNeedsLookahead: tokens that separate the actions
  // kAmbiguous: the number of trees of the sentence (from its forest).
  std::optional<DerivationCount> trees;

  // What was searched (for kUndecided, the bound the verdict holds within).
  std::uint32_t lookahead_separated_up_to = 0;  // no k <= this separates the actions
  std::uint64_t length_searched = 0;            // no unifying counterexample shorter than this
  bool product_exhausted = false;  // every pair of stacks was explored: not ambiguous here
  std::uint64_t configurations = 0;
  bool budget_exhausted = false;  // configurations or time ran out
  double seconds = 0;
};

class CounterexampleFinder {
 public:
  // The automaton must outlive the finder; per-automaton data is computed once here.
  explicit CounterexampleFinder(const LalrAutomaton& automaton);

  ConflictVerdict classify(const Conflict& conflict, const CounterexampleOptions& options = {});

  const StackWitness& witness() const { return witness_; }

 private:
  const LalrAutomaton& automaton_;
  StackWitness witness_;
};

// The verdict as indented report lines (after a conflict block of format_conflict_report).
// `name` shows a terminal.
std::string format_verdict(const LalrAutomaton& automaton, const Conflict& conflict,
                           const ConflictVerdict& verdict, const CounterexampleOptions& options,
                           const std::function<std::string(SymbolId)>& name);

}  // namespace glrmask::glr
