// A GLR recognizer over the graph-structured stack: given the heads of all live stacks and one
// terminal, it performs every reduction the table allows on that lookahead and then the shift.
// The result is the new set of heads. Recognition builds no trees; the overloads taking a
// ForestBuilder (forest_builder.h) also build the shared packed parse forest of the text.
//
// Algorithm: Tomita's GSS with Farshi's correction (docs/glr.md). Reductions of the current step
// build a new level of nodes; a reduction of length m follows every path of m edges. When an edge
// is added to a node that already existed in the level, the reductions whose paths can run through
// that edge are done again (restricted to such paths), which is what makes ε-rules and hidden
// left/right recursion come out right. Nodes of the level are merged by LR state, heads that cannot
// shift the terminal die, and the table's conflict policy decides which actions exist at all.
//
// A GlrParser is stateless apart from the table it reads; every method is const and may be called
// from several threads at once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "glr/gss.h"
#include "glr/ids.h"
#include "glr/lr_table.h"
#include "glr/parse_forest.h"

namespace glrmask::glr {

class ForestBuilder;

// What one parser step (the reductions and the shift of one terminal) may cost. Generalized
// parsing has a real worst case (a highly ambiguous grammar visits O(n^2) edges per step on n
// bytes); the bound makes such a step fail cleanly with ErrorCode::kLimit.
struct ParserLimits {
  // GSS edges one step may visit: the edges it adds and those its reduction paths follow
  // (0: no limit). docs/limits.md has what real grammars need.
  std::uint64_t max_step_work = std::uint64_t{1} << 26;
};

class GlrParser {
 public:
  // `table` must outlive the parser.
  explicit GlrParser(const LrTable& table, ParserLimits limits = {});
  const ParserLimits& limits() const { return limits_; }

  const LrTable& table() const { return *table_; }
  SymbolId end_of_input() const { return end_of_input_; }

  // One stack holding the start state.
  GssHeads initial_heads() const;

  // Reduces on `terminal`, then shifts it. Empty when no head, after its reductions, can shift
  // it (the input is a syntax error there). `terminal` must not be the end of input.
  GssHeads shift(std::span<const GssNodeRef> heads, SymbolId terminal) const;

  // Whether some head, after its reductions on `terminal`, shifts it (or, for the end of input,
  // accepts). Exactly the test shift(heads, terminal) is non-empty, without building the result.
  bool can_shift(std::span<const GssNodeRef> heads, SymbolId terminal) const;

  // Whether the stacks form a complete sentence: $END is accepted after reductions.
  bool accepts_end(std::span<const GssNodeRef> heads) const {
    return can_shift(heads, end_of_input_);
  }

  // Every terminal can_shift() allows, ascending; the end of input last when accepted.
  std::vector<SymbolId> shiftable_terminals(std::span<const GssNodeRef> heads) const;

  // Union of two head sets: equal states become one node whose edges are both nodes' edges.
  static GssHeads merge(std::span<const GssNodeRef> a, std::span<const GssNodeRef> b);

  // --- Building a parse forest (forest_builder.h) ---
  // The same steps on heads that were built by these calls (from initial_heads()): every edge
  // they create is labelled and every reduction is packed into forest.forest().
  // forest.position() must be the token index of `terminal` (of the end of input for accept()).
  GssHeads shift(std::span<const GssNodeRef> heads, SymbolId terminal, ForestBuilder& forest) const;
  // Reduces on the end of input; the root (the start symbol over the whole text) when the stacks
  // accept, else nullopt.
  std::optional<ForestNodeId> accept(std::span<const GssNodeRef> heads,
                                     ForestBuilder& forest) const;
  static GssHeads merge(std::span<const GssNodeRef> a, std::span<const GssNodeRef> b,
                        ForestBuilder* forest);

 private:
  const LrTable* table_;
  SymbolId end_of_input_;
  ParserLimits limits_;
};

}  // namespace glrmask::glr
