// LALR(1) lookahead sets by DeRemer and Pennello's relations ("Efficient Computation of LALR(1)
// Look-Ahead Sets", TOPLAS 1982). For each nonterminal transition (p, A):
//   DR(p, A)     terminals readable right after the transition;
//   reads        (p, A) reads (r, C) when r = goto(p, A) and C is a nullable nonterminal of r;
//   includes     (p, A) includes (p', B) when B -> β A γ, γ is nullable and p' reaches p on β;
//   lookback     (q, A -> ω) looks back to (p, A) when p reaches q on ω.
// Read = DR closed over reads, Follow = Read closed over includes, and the lookahead of a
// reduction is the union of Follow over its lookbacks. Epsilon rules and hidden left recursion
// need no special case: nullable symbols are exactly what `reads` and `includes` see through.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "glr/grammar_sets.h"
#include "glr/ids.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_grammar.h"
#include "glr/terminal_set.h"

namespace glrmask::glr {

// A completed item `rule .` of a state and the terminals on which to reduce by it.
struct Reduction {
  RuleId rule = 0;
  TerminalSet lookahead;
};

class LalrLookaheads {
 public:
  // DeRemer and Pennello's relations hold a terminal set per nonterminal transition; when those
  // would take more than `max_memory_bytes` (0: no limit), throws glrmask::Error
  // (ErrorCode::kLimit) before allocating them. An object schema with N optional properties in
  // schema order has about N^2/2 such transitions over N terminals (docs/limits.md).
  LalrLookaheads(const LrGrammar& grammar, const GrammarSets& sets, const Lr0Automaton& lr0,
                 std::size_t max_memory_bytes = 0);

  // Every completed item of the state (including epsilon rules of predicted nonterminals),
  // sorted by rule. The augmented rule is never reduced and does not appear.
  std::span<const Reduction> reductions(StateId state) const {
    return {reductions_.data() + begin_[state], begin_[state + 1] - begin_[state]};
  }

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;
  LalrLookaheads() = default;

  std::vector<std::uint32_t> begin_;
  std::vector<Reduction> reductions_;
};

}  // namespace glrmask::glr
