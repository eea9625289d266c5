// The Terminal DWA of SynCode's Go grammar (Llama-3) and SQL grammar (Llama-2, SentencePiece),
// checked token for token against the deterministic lexer (feed()) on configurations sampled along
// a real Go program and real queries, and on hand-picked ones (inside strings, comments, after
// fall-back prefixes).
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
using testing::configurations_along;
using testing::lone_label;

TEST_CASE("Go with Llama-3: every token from sampled configurations agrees with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode Go") ||
      !testing::require_tokenizer("llama3")) {
    return glrmask::testing::skip_test_case();
  }
  const testing::SyncodeTerminalDwa go("go_grammar", "llama3");
  const LexerDfa& dfa = go.dfa;
  const std::filesystem::path program =
      data_dir() / "programs" / "go" / "dynamic__longestcommonsubsequence.go";
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  std::vector<LexerConfiguration> configurations =
      configurations_along(dfa, go.vocabulary, encoder.encode(testing::read_file(program)), 40);
  CHECK(configurations.size() >= 15);
  // Inside a string, a raw string, a comment; after "0" and "00" (DECIMAL_LIT that may still
  // become FLOAT_LIT), "1." , "x." (fall-back to DOT), "a +" (extendable operator), "..".
  for (const char* prefix : {"\"abc", "`raw", "x := 0", "x := 00", "1.", "x.", "a +", "..",
                             "// note", "/*' .*? '", "}\n", "'a"}) {
    configurations.push_back(after(dfa, prefix));
  }
  go.check_all(configurations);

  // `}\n` completes two terminals: "}" and the statement end EOS (newlines), which may still
  // grow: one branch emitted EOS early, the other is still inside it.
  const LabelId rbrace = lone_label(dfa, "}");
  const LabelId eos = lone_label(dfa, "\n");
  const TokenId brace_newline = go.token("}\n");
  const std::vector<testing::Alternatives> from_start =
      testing::dwa_alternatives(go.dwa, go.pool, TerminalDwa::kInitialFork);
  std::set<std::vector<LabelId>> sequences;
  for (const auto& [labels, end] : from_start[brace_newline]) sequences.insert(labels);
  CHECK(sequences == std::set<std::vector<LabelId>>{{rbrace}, {rbrace, eos}});

  // Sixteen dashes: Go has "-", "--" and "-=": maximal munch makes eight "--", each final.
  const std::string dashes(16, '-');
  const TokenId sixteen = go.token(dashes);
  LexerConfiguration reference = initial_configuration(dfa);
  std::vector<EmittedLexeme> emitted;
  REQUIRE_FALSE(feed(dfa, reference, dashes, emitted));
  REQUIRE(emitted.size() == 8);
  const testing::Alternatives expected = {
      {testing::visible_labels(dfa, emitted), TerminalDwa::kInitialFork}};
  CHECK(from_start[sixteen] == expected);
}

TEST_CASE("SQL with Llama-2 (SentencePiece): configurations along real queries agree with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode SQL") ||
      !testing::require_tokenizer("llama2")) {
    return glrmask::testing::skip_test_case();
  }
  const testing::SyncodeTerminalDwa sql("sql_grammar", "llama2");
  const std::string queries = testing::read_file(data_dir() / "programs" / "sql" / "queries.sql");
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama2"));
  std::vector<LexerConfiguration> configurations = configurations_along(
      sql.dfa, sql.vocabulary, encoder.encode(queries.substr(0, queries.find('\n', 2000))), 40);
  CHECK(configurations.size() >= 15);
  for (const char* prefix : {"SELECT '", "SELECT /* c", "SELECT a -", "SELECT 1.", "SELECT \"x"}) {
    configurations.push_back(after(sql.dfa, prefix));
  }
  sql.check_all(configurations);
}

}  // namespace
}  // namespace glrmask::lexer
