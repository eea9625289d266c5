#include "glr/lalr_automaton.h"

namespace glrmask::glr {

LalrAutomaton::LalrAutomaton(const Cfg& cfg, std::size_t max_memory_bytes)
    : grammar_(cfg),
      sets_(grammar_),
      lr0_(grammar_),
      lookaheads_(grammar_, sets_, lr0_, max_memory_bytes),
      glr_table_(LrTable::build(grammar_, lr0_, lookaheads_)),
      lark_table_(glr_table_.resolved(ConflictPolicy::kLark)) {}

LalrAutomaton::LalrAutomaton(LrGrammar grammar, Lr0Automaton lr0, LalrLookaheads lookaheads,
                             LrTable glr_table, LrTable lark_table)
    : grammar_(std::move(grammar)),
      sets_(grammar_),
      lr0_(std::move(lr0)),
      lookaheads_(std::move(lookaheads)),
      glr_table_(std::move(glr_table)),
      lark_table_(std::move(lark_table)) {}

}  // namespace glrmask::glr
