// Everything the LALR(1) construction produces for one grammar, built in one call: the augmented
// grammar, its symbol facts, the LR(0) automaton (with predecessors), the lookaheads and the
// action/goto table under each conflict policy.
#pragma once

#include "glr/cfg.h"
#include "glr/grammar_sets.h"
#include "glr/lalr_lookaheads.h"
#include "glr/lr0_automaton.h"
#include "glr/lr_grammar.h"
#include "glr/lr_table.h"

namespace glrmask::glr {

class LalrAutomaton {
 public:
  // Throws glrmask::Error for a malformed grammar (see validate()), and with ErrorCode::kLimit
  // when the lookahead sets would take more than `max_memory_bytes` (0: no limit).
  explicit LalrAutomaton(const Cfg& cfg, std::size_t max_memory_bytes = 0);

  const LrGrammar& grammar() const { return grammar_; }
  const GrammarSets& sets() const { return sets_; }
  const Lr0Automaton& lr0() const { return lr0_; }
  const LalrLookaheads& lookaheads() const { return lookaheads_; }
  const LrTable& table(ConflictPolicy policy = ConflictPolicy::kKeepAll) const {
    return policy == ConflictPolicy::kKeepAll ? glr_table_ : lark_table_;
  }

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;
  // From parts read back; the symbol facts are recomputed (cheap, and never trusted from bytes).
  LalrAutomaton(LrGrammar grammar, Lr0Automaton lr0, LalrLookaheads lookaheads, LrTable glr_table,
                LrTable lark_table);

  LrGrammar grammar_;
  GrammarSets sets_;
  Lr0Automaton lr0_;
  LalrLookaheads lookaheads_;
  LrTable glr_table_;
  LrTable lark_table_;
};

}  // namespace glrmask::glr
