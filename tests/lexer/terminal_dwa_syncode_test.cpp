// The Terminal DWA of SynCode's JSON grammar with the Llama-3 vocabulary, checked token for token
// against the deterministic lexer (feed()) on hand-picked configurations (inside strings, after
// fall-back prefixes); without the real data the same check on the tiny byte-level tokenizer
// fixture. The Go and SQL sweeps along real programs are in terminal_dwa_syncode_corpus_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/terminal_dwa_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask::lexer {
namespace {

using testing::after;
using testing::check_all;

TEST_CASE("JSON with Llama-3: every token from hand-picked configurations agrees with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode JSON") ||
      !testing::require_tokenizer("llama3")) {
    return glrmask::testing::skip_test_case();
  }
  const testing::SyncodeTerminalDwa json("json_grammar", "llama3");
  std::vector<LexerConfiguration> configurations;
  for (const char* prefix :
       {"", "{", "{\"", "{\"key", "{\"a\": 1", "{\"a\": 1.", "{\"a\": -", "{\"a\": 2.5e",
        "{\"a\": 2.5e-", "[tr", "[1, ", "[1,\n  ", "[.", "[\"\"", "[\"x\"", "[1e", "[12"}) {
    configurations.push_back(after(json.dfa, prefix));
  }
  json.check_all(configurations);

  // `}\n`: the brace, then whitespace that may still grow (ignored: no second label).
  const TokenId token = json.token("}\n");
  LexerConfiguration reference = initial_configuration(json.dfa);
  std::vector<EmittedLexeme> emitted;
  REQUIRE_FALSE(feed(json.dfa, reference, "}", emitted));
  REQUIRE(emitted.size() == 1);
  const auto table = testing::dwa_alternatives(json.dwa, json.pool, TerminalDwa::kInitialFork);
  REQUIRE(table[token].size() == 2);
  for (const auto& [labels, end] : table[token]) {
    CHECK(labels == std::vector<LabelId>{emitted[0].label});
  }
}

TEST_CASE("without real data: the tiny byte-level tokenizer fixture") {
  const Vocabulary vocabulary = Vocabulary::load(testing::fixtures_dir() / "tokenizers" /
                                                 "tiny_byte_level" / "tokenizer.json");
  const LexerDfa dfa = testing::dfa_from_lark(R"(
start: value
value: "{" [pair ("," pair)*] "}" | "[" [value ("," value)*] "]" | STRING | NUMBER | "true"
pair: STRING ":" value
STRING: /"[^"]*"/
NUMBER: /-?[0-9]+(\.[0-9]+)?/
WS: /[ \t\n]+/
%ignore WS
)");
  const VocabularyTrie trie = VocabularyTrie::build(vocabulary);
  TokenSetPool pool(static_cast<uint32_t>(vocabulary.size()));
  const TerminalDwa dwa = build_terminal_dwa(dfa, trie, pool);
  std::vector<LexerConfiguration> configurations;
  for (const char* prefix : {"", "{", "{\"k", "[1", "[1.", "[tr", "[1, ", "\"a b"}) {
    configurations.push_back(after(dfa, prefix));
  }
  check_all(dwa, pool, trie, configurations);
  CHECK(dwa.num_forks() > 3);
}

}  // namespace
}  // namespace glrmask::lexer
