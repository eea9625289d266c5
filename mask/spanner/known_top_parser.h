// The LR parser run on a stack of which only the top is known: a virtual stack (virtual_stack.h)
// whose bottom cell is the state `bottom` of a GSS head, with whatever the real stack holds below
// it left unknown. A step reduces on a lookahead and shifts it along every action of the table, as
// GlrParser does; a reduction that would pop the bottom cell exposes a state that only the real
// stack knows, so that path's outcome is reported as unknown instead of being guessed.
//
// This is what lets the spanner table (spanner_table.h) decide a label sequence once per
// (lexer fork, LR state) for every stack with that top state (GreatGramma's Proposition 3.5:
// what parses on the known top parses whatever lies below), and leave only the undecided rest to
// the real GSS at run time.
//
// Not thread-safe (memoizes); one parser per thread.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "glr/ids.h"
#include "glr/lr_table.h"
#include "mask/parser_dwa/virtual_stack.h"

namespace glrmask::mask {

// What one step (reductions on a lookahead, then its shift) does to one known stack.
struct KnownTopStep {
  // The stacks after shifting the lookahead, one per way of reducing to a shift; ascending.
  std::vector<VirtualStackId> shifted;
  bool accepts = false;  // some path reached the accept action (the lookahead is $END)
  // Some path popped the bottom cell, or the search was cut (an ε-cycle growing the stack): the
  // real stack may shift or accept where `shifted`/`accepts` say nothing.
  bool unknown = false;
};

class KnownTopParser {
 public:
  KnownTopParser(const glr::LrTable& table, glr::StateId bottom);

  // The stack holding `bottom` alone.
  VirtualStackId root() const { return root_; }
  glr::StateId top(VirtualStackId stack) const { return stacks_.top(stack); }
  const glr::LrTable& table() const { return table_; }

  // Memoized; the reference stays valid for the parser's lifetime.
  const KnownTopStep& step(VirtualStackId stack, glr::SymbolId lookahead);

  std::size_t num_stacks() const { return stacks_.size(); }
  std::size_t num_steps() const { return steps_.size(); }

 private:
  KnownTopStep compute(VirtualStackId stack, glr::SymbolId lookahead);

  const glr::LrTable& table_;
  VirtualStackPool stacks_;
  VirtualStackId root_;
  std::unordered_map<std::uint64_t, KnownTopStep> steps_;  // (stack, lookahead) -> step
  std::vector<VirtualStackId> pending_;                    // compute() scratch
  std::vector<VirtualStackId> seen_;
};

}  // namespace glrmask::mask
