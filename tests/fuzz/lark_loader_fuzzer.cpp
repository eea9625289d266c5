// Fuzz target: a Lark grammar text through the loader, then the whole grammar compile (terminal
// regexes to the lexer DFA, the LALR automaton). Inputs above 4 KB are ignored: the known costs
// of large valid grammars are budgets, not crashes.
#include <cstddef>
#include <cstdint>

#include "glr/compiled_grammar.h"
#include "lib/lark/lark_loader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  glrmask::fuzz::expect_clean([&] {
    glrmask::GrammarModel grammar =
        glrmask::load_lark_text(glrmask::fuzz::as_text(data, size), "fuzz.lark");
    glrmask::glr::CompiledGrammar::compile(std::move(grammar));
  });
  return 0;
}
