// The Terminal DWA of SynCode's JSON and Go grammars with the Llama-3 vocabulary, checked token
// for token against the deterministic lexer (feed()) on configurations taken from a real Go
// program and on hand-picked ones (inside strings, comments, after fall-back prefixes). Without
// the real data it runs the same check on the tiny byte-level tokenizer fixture.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "lexer/grammar_terminals.h"
#include "lexer/lexer_configuration.h"
#include "lexer/lexer_dfa_compiler.h"
#include "lexer/terminal_dwa.h"
#include "lexer/terminal_dwa_builder.h"
#include "lexer/vocabulary_trie.h"
#include "lib/core/settings.h"
#include "lib/grammar/lark_loader.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/terminal_dwa_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask::lexer {
namespace {

LexerDfa syncode_dfa(const std::string& name) {
  return compile_lexer_dfa(
      terminal_specs(load_lark_file(data_dir() / "grammars" / "syncode" / (name + ".lark"))));
}

LexerConfiguration after(const LexerDfa& dfa, std::string_view bytes) {
  LexerConfiguration configuration = initial_configuration(dfa);
  std::vector<EmittedLexeme> out;
  REQUIRE_FALSE(feed(dfa, configuration, bytes, out));
  return configuration;
}

// The one label the lexer gives `lexeme` from the start.
LabelId lone_label(const LexerDfa& dfa, std::string_view lexeme) {
  LexerConfiguration configuration = initial_configuration(dfa);
  std::vector<EmittedLexeme> out;
  REQUIRE_FALSE(feed(dfa, configuration, lexeme, out));
  REQUIRE_FALSE(finish(dfa, configuration, out));
  REQUIRE(out.size() == 1);
  return out[0].label;
}

// Configurations between the tokens of `ids`, at most `count`, spread over the text; the ones
// with bytes pending after an accepted match are all kept (they are the rare, delicate ones).
std::vector<LexerConfiguration> configurations_along(const LexerDfa& dfa,
                                                     const Vocabulary& vocabulary,
                                                     const std::vector<TokenId>& ids,
                                                     size_t count) {
  std::vector<LexerConfiguration> all;
  std::unordered_set<LexerConfiguration, LexerConfigurationHash> seen;
  LexerConfiguration configuration = initial_configuration(dfa);
  std::vector<EmittedLexeme> out;
  for (const TokenId id : ids) {
    if (feed(dfa, configuration, vocabulary.bytes(id), out)) break;  // the grammar rejects it
    if (seen.insert(configuration).second) all.push_back(configuration);
  }
  std::vector<LexerConfiguration> picked;
  for (size_t i = 0; i < all.size(); ++i) {
    const bool pending = all[i].accepted != LexerDfa::kNoLabel && !all[i].pending.empty();
    if (pending || i % std::max<size_t>(1, all.size() / count) == 0) picked.push_back(all[i]);
  }
  return picked;
}

void check_all(const TerminalDwa& dwa, const TokenSetPool& pool, const VocabularyTrie& trie,
               const std::vector<LexerConfiguration>& configurations) {
  testing::ConfigurationChecker checker(dwa, pool, trie);
  for (const LexerConfiguration& configuration : configurations) {
    const std::string mismatch = checker.check(configuration);
    INFO(mismatch);
    REQUIRE(mismatch.empty());
  }
}

TEST_CASE("Go with Llama-3: every token from sampled configurations agrees with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode Go") ||
      !testing::require_tokenizer("llama3")) {
    return glrmask::testing::skip_test_case();
  }
  const LexerDfa dfa = syncode_dfa("go_grammar");
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const VocabularyTrie trie = VocabularyTrie::build(vocabulary);
  TokenSetPool pool(static_cast<uint32_t>(vocabulary.size()));
  const TerminalDwa dwa = build_terminal_dwa(dfa, trie, pool);

  const std::filesystem::path program =
      data_dir() / "programs" / "go" / "dynamic__longestcommonsubsequence.go";
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  std::vector<LexerConfiguration> configurations =
      configurations_along(dfa, vocabulary, encoder.encode(testing::read_file(program)), 40);
  CHECK(configurations.size() >= 15);
  // Inside a string, a raw string, a comment; after "0" and "00" (DECIMAL_LIT that may still
  // become FLOAT_LIT), "1." , "x." (fall-back to DOT), "a +" (extendable operator), "..".
  for (const char* prefix : {"\"abc", "`raw", "x := 0", "x := 00", "1.", "x.", "a +", "..",
                             "// note", "/*' .*? '", "}\n", "'a"}) {
    configurations.push_back(after(dfa, prefix));
  }
  check_all(dwa, pool, trie, configurations);

  // `}\n` completes two terminals: "}" and the statement end EOS (newlines), which may still
  // grow: one branch emitted EOS early, the other is still inside it.
  const LabelId rbrace = lone_label(dfa, "}");
  const LabelId eos = lone_label(dfa, "\n");
  const TokenId brace_newline =
      *std::find_if(trie.tokens().begin(), trie.tokens().end(),
                    [&](TokenId t) { return vocabulary.bytes(t) == "}\n"; });
  const std::vector<testing::Alternatives> from_start =
      testing::dwa_alternatives(dwa, pool, TerminalDwa::kInitialFork);
  std::set<std::vector<LabelId>> sequences;
  for (const auto& [labels, end] : from_start[brace_newline]) sequences.insert(labels);
  CHECK(sequences == std::set<std::vector<LabelId>>{{rbrace}, {rbrace, eos}});

  // Sixteen dashes: Go has "-", "--" and "-=": maximal munch makes eight "--", each final.
  const std::string dashes(16, '-');
  const TokenId sixteen = *std::find_if(trie.tokens().begin(), trie.tokens().end(),
                                        [&](TokenId t) { return vocabulary.bytes(t) == dashes; });
  LexerConfiguration reference = initial_configuration(dfa);
  std::vector<EmittedLexeme> emitted;
  REQUIRE_FALSE(feed(dfa, reference, dashes, emitted));
  REQUIRE(emitted.size() == 8);
  const testing::Alternatives expected = {
      {testing::visible_labels(dfa, emitted), TerminalDwa::kInitialFork}};
  CHECK(from_start[sixteen] == expected);
}

TEST_CASE("JSON with Llama-3: every token from hand-picked configurations agrees with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode JSON") ||
      !testing::require_tokenizer("llama3")) {
    return glrmask::testing::skip_test_case();
  }
  const LexerDfa dfa = syncode_dfa("json_grammar");
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const VocabularyTrie trie = VocabularyTrie::build(vocabulary);
  TokenSetPool pool(static_cast<uint32_t>(vocabulary.size()));
  const TerminalDwa dwa = build_terminal_dwa(dfa, trie, pool);
  std::vector<LexerConfiguration> configurations;
  for (const char* prefix :
       {"", "{", "{\"", "{\"key", "{\"a\": 1", "{\"a\": 1.", "{\"a\": -", "{\"a\": 2.5e",
        "{\"a\": 2.5e-", "[tr", "[1, ", "[1,\n  ", "[.", "[\"\"", "[\"x\"", "[1e", "[12"}) {
    configurations.push_back(after(dfa, prefix));
  }
  check_all(dwa, pool, trie, configurations);

  // `}\n`: the brace, then whitespace that may still grow (ignored: no second label).
  const TokenId token = *std::find_if(trie.tokens().begin(), trie.tokens().end(),
                                      [&](TokenId t) { return vocabulary.bytes(t) == "}\n"; });
  LexerConfiguration reference = initial_configuration(dfa);
  std::vector<EmittedLexeme> emitted;
  REQUIRE_FALSE(feed(dfa, reference, "}", emitted));
  REQUIRE(emitted.size() == 1);
  const auto table = testing::dwa_alternatives(dwa, pool, TerminalDwa::kInitialFork);
  REQUIRE(table[token].size() == 2);
  for (const auto& [labels, end] : table[token]) {
    CHECK(labels == std::vector<LabelId>{emitted[0].label});
  }
}

TEST_CASE("SQL with Llama-2 (SentencePiece): configurations along real queries agree with feed()") {
  if (!testing::require_data_dir("Terminal DWA on SynCode SQL") ||
      !testing::require_tokenizer("llama2")) {
    return glrmask::testing::skip_test_case();
  }
  const LexerDfa dfa = syncode_dfa("sql_grammar");
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama2"));
  const VocabularyTrie trie = VocabularyTrie::build(vocabulary);
  TokenSetPool pool(static_cast<uint32_t>(vocabulary.size()));
  const TerminalDwa dwa = build_terminal_dwa(dfa, trie, pool);
  const std::string queries = testing::read_file(data_dir() / "programs" / "sql" / "queries.sql");
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama2"));
  std::vector<LexerConfiguration> configurations = configurations_along(
      dfa, vocabulary, encoder.encode(queries.substr(0, queries.find('\n', 2000))), 40);
  CHECK(configurations.size() >= 15);
  for (const char* prefix : {"SELECT '", "SELECT /* c", "SELECT a -", "SELECT 1.", "SELECT \"x"}) {
    configurations.push_back(after(dfa, prefix));
  }
  check_all(dwa, pool, trie, configurations);
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
