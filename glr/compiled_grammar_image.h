// A compiled grammar's derived tables as bytes, so that a saved artifact can be loaded without
// compiling its grammar again (lexing DFA, LALR(1) construction, fork analysis: most of the cost
// of CompiledGrammar::compile).
//
// The image holds what compile() derives from the GrammarModel, not the model itself: the reader
// passes the model in (rebuilt from the grammar's source) with the ParseOptions the image was
// written under. Stored: the lexing DFA, the augmented LR grammar, the LR(0) automaton, the LALR(1)
// reductions with their lookaheads, both action tables, the rules left out as unrealizable, the
// normalization report and the lexer's fork futures. Recomputed on reading, because they are
// cheap and follow from the model, the options or the stored arrays: the terminal specs, the
// skippable terminals, the indenter spec, the symbol facts (GrammarSets), the LR(0) predecessors,
// each grammar's rules by left-hand side, the tables' per-rule columns and the fork index.
//
// Reading trusts no byte: every value later used as an index (state, symbol, rule, label,
// terminal, fork, offset) is checked, and the LR tables are checked against the LR(0) automaton
// (shifts and gotos follow its transitions, reductions are completed items of their state, each
// kernel item is reached from an item of every predecessor), so a parser driven by a damaged
// image never pops below its stack or jumps outside the tables. A damaged image either reads as
// some in-bounds grammar or is refused with glrmask::Error (ErrorCode::kArtifact) naming the byte
// offset and the field. An image of another grammar (other terminals, rules or options) is
// refused the same way.
#pragma once

#include <memory>

#include "glr/compiled_grammar.h"
#include "lib/core/binary_io.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::glr {

void write_compiled_grammar(const CompiledGrammar& grammar, BinaryWriter& out);

// `model` and `options` must be what the image was compiled from (the budgets in options, lexer
// limits and lookahead memory, are not compared). Throws glrmask::Error as described above.
std::shared_ptr<const CompiledGrammar> read_compiled_grammar(BinaryReader& in, GrammarModel model,
                                                             const ParseOptions& options);

}  // namespace glrmask::glr
