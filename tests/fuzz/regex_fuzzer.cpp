// Fuzz target: a Python-`re` pattern through the regex parser, then compiled into a lexer DFA
// as one terminal (NFA, subset construction, minimization) under small limits. The first byte
// picks the flags; the rest is the pattern.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/regex/regex_parser.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 512) return 0;
  static const char* const kFlags[] = {"", "i", "s", "x", "is", "a", "ix", "m"};
  const std::string flags = kFlags[data[0] % 8];
  const std::string pattern(glrmask::fuzz::as_text(data + 1, size - 1));
  glrmask::fuzz::expect_clean([&] {
    glrmask::lexer::parse_regex(pattern, flags, "fuzz");
    glrmask::lexer::TerminalSpec spec;
    spec.name = "T";
    spec.regex = pattern;
    spec.flags = flags;
    spec.origin = "fuzz";
    const std::vector<glrmask::lexer::TerminalSpec> terminals{spec};
    glrmask::lexer::compile_lexer_dfa(terminals,
                                      {.max_nfa_states = 1 << 16, .max_dfa_states = 1 << 12});
  });
  return 0;
}
