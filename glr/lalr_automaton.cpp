#include "glr/lalr_automaton.h"

namespace glrmask::glr {

LalrAutomaton::LalrAutomaton(const Cfg& cfg, std::size_t max_memory_bytes)
    : grammar_(cfg),
      sets_(grammar_),
      lr0_(grammar_),
      lookaheads_(grammar_, sets_, lr0_, max_memory_bytes),
      glr_table_(LrTable::build(grammar_, lr0_, lookaheads_)),
      lark_table_(glr_table_.resolved(ConflictPolicy::kLark)) {}

}  // namespace glrmask::glr
