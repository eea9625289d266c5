// Helpers for tests that compare Parser DWAs: compile with a given number of build threads, and
// require two compilations to hold the same automaton (the parallel build's tests, the artifact
// tests).
#pragma once

#include <catch2/catch.hpp>
#include <cstddef>
#include <memory>

#include "glr/compiled_grammar.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/compiled/compiled_mask.h"

namespace glrmask::testing {

inline std::shared_ptr<const mask::CompiledMask> compile_with_threads(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary,
    std::size_t threads) {
  mask::ParserDwaOptions options;
  options.threads = threads;
  return mask::CompiledMask::compile(grammar, vocabulary, options);
}

// The two automata have the same states in the same order, the same start states, the same
// transitions and weights of equal tokens (each compilation or loaded artifact has its own pool,
// numbered in its own order, so weights are compared by content).
inline void require_same_parser_dwa(const mask::CompiledMask& a, const mask::CompiledMask& b) {
  const mask::ParserDwa& x = a.parser_dwa();
  const mask::ParserDwa& y = b.parser_dwa();
  REQUIRE(x.num_states() == y.num_states());
  REQUIRE(x.num_forks() == y.num_forks());
  for (lexer::ForkId fork = 0; fork < x.num_forks(); ++fork)
    REQUIRE(x.start_state(fork) == y.start_state(fork));
  REQUIRE(x.num_early_starts() == y.num_early_starts());
  const lexer::LexerDfa& dfa = a.terminal_dwa().dfa();
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label)
    for (lexer::ForkId fork = 0; fork < x.num_forks(); ++fork)
      REQUIRE(x.early_start_state(label, fork) == y.early_start_state(label, fork));
  std::size_t weighted = 0;
  for (const mask::DwaStateId state : id_range<mask::DwaStateId>(x.num_states())) {
    const auto mine = x.transitions(state);
    const auto theirs = y.transitions(state);
    INFO("state " << state.value());
    REQUIRE(mine.size() == theirs.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
      REQUIRE(mine[i].read == theirs[i].read);
      REQUIRE(mine[i].target == theirs[i].target);
      REQUIRE(a.pool().get(mine[i].weight) == b.pool().get(theirs[i].weight));
      weighted += mine[i].weight.is_empty() ? 0 : 1;
    }
  }
  CHECK(weighted > 0);  // an automaton that accepts nothing would make the comparison empty
}

}  // namespace glrmask::testing
