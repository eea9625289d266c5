// The Terminal DWA on small grammars with hand-made vocabularies: every token from every
// configuration against the deterministic lexer, every fork against plain fork stepping, the
// next-terminal analysis against a search, and the special cases one by one.
#include "lexer/terminal_dwa/terminal_dwa.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "lexer/runtime/fork_next_terminals.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/error.h"
#include "lib/token_set/token_set.h"
#include "tests/support/terminal_dwa_test_support.h"

namespace glrmask::lexer {
namespace {

using testing::Alternatives;
using testing::dfa_from_lark;
using testing::dwa_alternatives;

// Fall-back (1. vs 1.5, . vs ...), extendable operators (+ ++ +=), a keyword beside its identifier,
// a tie between two patterns (xa is NAME and TAG), a string, a comment next to the / operator (the
// fall-back buffer can grow without bound there), ignored whitespace.
constexpr std::string_view kMixedGrammar = R"(
start: item*
item: NAME | TAG | NUMBER | FLOAT | STRING | "if" | "+" | "++" | "+=" | "." | "..." | "/"
NAME: /[a-z]+/
TAG: /x[0-9a-f]+/
NUMBER: /[0-9]+/
FLOAT: /[0-9]+\.[0-9]+/
STRING: /"[^"]*"/
COMMENT: /\/\*(.|\n)*?\*\//
WS: /[ \n]+/
%ignore WS
%ignore COMMENT
)";

const std::vector<std::string>& mixed_vocabulary() {
  static const std::vector<std::string> tokens = {
      "a",       "b",    "f",    "i",     "x",  "1",    "0",   "5",    ".",   "+",   "=",
      "/",       "*",    "\"",   " ",     "\n", "e",    "@",   "if",   "iff", " if", "ab",
      "xa",      "x1",   "1.",   "1.5",   "..", "...",  "++",  "+=",   "+++", "/*",  "*/",
      "/* c */", "\"ab", "ab\"", "\" \"", "  ", " \n ", "a+b", "1..2", "@x",  ""};
  return tokens;
}

struct Fixture {
  explicit Fixture(std::string_view grammar, const std::vector<std::string>& tokens)
      : dfa(dfa_from_lark(grammar)),
        texts(tokens),
        trie(make_trie(texts)),
        pool(static_cast<uint32_t>(texts.size())),
        dwa(build_terminal_dwa(dfa, trie, pool)) {}

  static VocabularyTrie make_trie(const std::vector<std::string>& texts) {
    std::vector<VocabularyEntry> entries;
    for (size_t i = 0; i < texts.size(); ++i)
      entries.push_back({static_cast<TokenId>(i), texts[i]});
    return VocabularyTrie::build(entries, static_cast<uint32_t>(texts.size()));
  }

  TokenId id(std::string_view text) const {
    const auto at = std::find(texts.begin(), texts.end(), text);
    REQUIRE(at != texts.end());
    return static_cast<TokenId>(at - texts.begin());
  }

  // The label the lexer gives `lexeme` on its own (one token, from the start).
  LabelId label(std::string_view lexeme) const {
    LexerConfiguration configuration = initial_configuration(dfa);
    std::vector<EmittedLexeme> out;
    REQUIRE_FALSE(feed(dfa, configuration, lexeme, out));
    REQUIRE_FALSE(finish(dfa, configuration, out));
    REQUIRE(out.size() == 1);
    return out[0].label;
  }

  LexerConfiguration after(std::string_view bytes) const {
    LexerConfiguration configuration = initial_configuration(dfa);
    std::vector<EmittedLexeme> out;
    REQUIRE_FALSE(feed(dfa, configuration, bytes, out));
    return configuration;
  }

  // The alternatives of `token` read from `configuration`, through enter() and the tries.
  Alternatives read(const LexerConfiguration& configuration, std::string_view token) const {
    Alternatives result;
    for (const DwaEntry& entry : dwa.enter(configuration)) {
      const std::vector<Alternatives> table = dwa_alternatives(dwa, pool, entry.fork);
      for (const auto& [labels, end] : table[id(token)]) {
        std::vector<LabelId> all = entry.labels;
        all.insert(all.end(), labels.begin(), labels.end());
        result.emplace(std::move(all), end);
      }
    }
    return result;
  }

  ForkId fork_id(const LexerFork& fork) const {
    const auto id = dwa.find_fork(fork);
    REQUIRE(id);
    return *id;
  }

  LexerDfa dfa;
  std::vector<std::string> texts;
  VocabularyTrie trie;
  TokenSetPool pool;
  TerminalDwa dwa;
};

// Every configuration the deterministic lexer reaches from the start in up to `depth` tokens.
std::vector<LexerConfiguration> reachable_configurations(const Fixture& fixture, int depth) {
  std::unordered_set<LexerConfiguration, LexerConfigurationHash> seen = {
      initial_configuration(fixture.dfa)};
  std::vector<LexerConfiguration> layer = {initial_configuration(fixture.dfa)};
  for (int d = 0; d < depth; ++d) {
    std::vector<LexerConfiguration> next;
    for (const LexerConfiguration& configuration : layer) {
      for (const std::string& token : fixture.texts) {
        LexerConfiguration after = configuration;
        std::vector<EmittedLexeme> out;
        if (feed(fixture.dfa, after, token, out)) continue;
        if (seen.insert(after).second) next.push_back(after);
      }
    }
    layer = std::move(next);
  }
  return {seen.begin(), seen.end()};
}

TEST_CASE("every token from every configuration reachable in three tokens agrees with feed()") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const std::vector<LexerConfiguration> configurations = reachable_configurations(fixture, 3);
  // The deterministic configurations are many more than the forks (pending comment text, ...).
  CHECK(configurations.size() > fixture.dwa.num_forks());
  bool some_pending_after_accept = false;
  testing::ConfigurationChecker checker(fixture.dwa, fixture.pool, fixture.trie);
  for (const LexerConfiguration& configuration : configurations) {
    some_pending_after_accept |=
        configuration.accepted != LexerDfa::kNoLabel && !configuration.pending.empty();
    const std::string mismatch = checker.check(configuration);
    INFO(mismatch);
    REQUIRE(mismatch.empty());
  }
  CHECK(some_pending_after_accept);  // the fall-back cases were exercised
}

TEST_CASE("every fork and every token agree with plain fork stepping") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const TerminalDwa& dwa = fixture.dwa;
  for (ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    const std::vector<Alternatives> table = dwa_alternatives(dwa, fixture.pool, fork);
    RoaringBitmap alive;
    for (TokenId token = 0; token < fixture.texts.size(); ++token) {
      std::vector<ForkedLexing> branches = {{{}, dwa.fork(fork)}};
      feed_forks(fixture.dfa, branches, fixture.texts[token]);
      Alternatives expected;
      for (const ForkedLexing& branch : branches) {
        expected.emplace(branch.labels, fixture.fork_id(branch.fork));
      }
      INFO("fork " << fork << " (" << describe_fork(dwa.fork(fork)) << "), token \""
                   << fixture.texts[token] << "\"");
      CHECK(table[token] == expected);
      if (!expected.empty()) alive.add(token);
    }
    CHECK(fixture.pool.get(dwa.alive(fork)) == alive);
  }
}

// Every terminal that can be the next visible one, found by exploring forks byte by byte with
// step_fork (all 256 bytes, no byte classes, no inhibitor-set memo, no SCCs).
std::vector<uint32_t> searched_next_terminals(const LexerDfa& dfa, const LexerFork& start) {
  std::set<uint32_t> found;
  std::unordered_set<LexerFork, LexerForkHash> seen = {start};
  std::deque<LexerFork> queue = {start};
  std::vector<ForkedLexing> next;
  while (!queue.empty()) {
    const LexerFork fork = queue.front();
    queue.pop_front();
    for (int byte = 0; byte < 256; ++byte) {
      next.clear();
      step_fork(dfa, {{}, fork}, static_cast<uint8_t>(byte), next);
      for (ForkedLexing& branch : next) {
        bool skip_possible = branch.labels.empty();
        for (const LabelId label : branch.labels) {  // at most one: a byte emits one label
          skip_possible = false;
          for (const uint32_t t : dfa.label_terminals(label)) {
            if (dfa.terminals()[t].ignored) {
              skip_possible = true;
            } else {
              found.insert(t);
            }
          }
        }
        if (skip_possible && seen.insert(branch.fork).second) queue.push_back(branch.fork);
      }
    }
  }
  return {found.begin(), found.end()};
}

TEST_CASE("next terminals of every fork equal a byte-by-byte search") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const TerminalDwa& dwa = fixture.dwa;
  for (ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    INFO("fork " << describe_fork(dwa.fork(fork)));
    const auto actual = dwa.next_terminals(fork);
    const std::vector<uint32_t> expected = searched_next_terminals(fixture.dfa, dwa.fork(fork));
    CHECK(std::vector<uint32_t>(actual.begin(), actual.end()) == expected);
  }
}

TEST_CASE("next terminals: an inhibitor takes terminals away, ignored text gives them back") {
  // Without ignored text, after "+" was emitted early the next lexeme cannot start with "+":
  // that would have made "++". The branch still extending "+" can only become "++".
  const std::string grammar =
      "start: (PLUS | INC | NAME)*\nPLUS: \"+\"\nINC: \"++\"\nNAME: /[a-z]+/\n";
  const Fixture fixture(grammar, {"+", "a"});
  const std::vector<DwaEntry> entries = fixture.dwa.enter(fixture.after("+"));
  REQUIRE(entries.size() == 2);
  for (const DwaEntry& entry : entries) {
    const auto next = fixture.dwa.next_terminals(entry.fork);
    const LabelId expected = entry.labels.empty() ? fixture.label("++") : fixture.label("a");
    CHECK(std::vector<uint32_t>(next.begin(), next.end()) ==
          std::vector<uint32_t>(fixture.dfa.label_terminals(expected).begin(),
                                fixture.dfa.label_terminals(expected).end()));
  }
  // With ignored spaces, "+ +" is fine: everything can follow the early "+".
  const Fixture spaced(grammar + "%ignore \" \"\n", {"+", "a", " "});
  for (const DwaEntry& entry : spaced.dwa.enter(spaced.after("+"))) {
    if (entry.labels.empty()) continue;
    CHECK(spaced.dwa.next_terminals(entry.fork).size() == 3);
  }
}

TEST_CASE("EOS: the lexer can finish in exactly the fork finish() takes") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  for (const LexerConfiguration& configuration : reachable_configurations(fixture, 2)) {
    LexerConfiguration finished = configuration;
    std::vector<EmittedLexeme> out;
    const bool finishes = !finish(fixture.dfa, finished, out);
    std::vector<DwaEntry> finishing;
    for (DwaEntry& entry : fixture.dwa.enter(configuration)) {
      if (fixture.dwa.can_finish(entry.fork)) finishing.push_back(std::move(entry));
    }
    INFO("configuration: state " << configuration.state << ", pending \"" << configuration.pending
                                 << "\"");
    REQUIRE(finishing.size() == (finishes ? 1u : 0u));
    if (finishes) CHECK(finishing[0].labels == testing::visible_labels(fixture.dfa, out));
  }
  // Two hand-picked ones: "1." finishes as NUMBER DOT (the fall-back), "\"ab" cannot finish.
  const std::vector<DwaEntry> entries = fixture.dwa.enter(fixture.after("1."));
  const auto finishing = std::find_if(entries.begin(), entries.end(), [&](const DwaEntry& e) {
    return fixture.dwa.can_finish(e.fork);
  });
  REQUIRE(finishing != entries.end());
  CHECK(finishing->labels == std::vector<LabelId>{fixture.label("1"), fixture.label(".")});
  for (const DwaEntry& entry : fixture.dwa.enter(fixture.after("\"ab"))) {
    CHECK_FALSE(fixture.dwa.can_finish(entry.fork));
  }
}

constexpr std::string_view kJsonGrammar = R"(
start: value
value: object | array | STRING | NUMBER | "true" | "false" | "null"
object: "{" [pair ("," pair)*] "}"
pair: STRING ":" value
array: "[" [value ("," value)*] "]"
STRING: /"[^"\\]*"/
NUMBER: /-?[0-9]+/
WS: /[ \t\n\r]+/
%ignore WS
)";

TEST_CASE("A brace then a newline: the brace goes out at once, the newline may still grow") {
  const Fixture fixture(kJsonGrammar, {"}", "\n", "}\n", "@"});
  const LexerDfa& dfa = fixture.dfa;
  const uint32_t newline = dfa.next(dfa.start_state(), '\n');
  // "}" is final, so it is emitted at once; "\n" is ignored whitespace that a further space would
  // extend: one branch keeps extending it, the other has dropped it (inhibited by its state).
  const Alternatives expected = {
      {{fixture.label("}")}, fixture.fork_id({newline, {}})},
      {{fixture.label("}")}, fixture.fork_id({dfa.start_state(), {newline}})}};
  CHECK(fixture.read(fixture.after(""), "}\n") == expected);
  CHECK(fixture.dwa.position(fixture.fork_id({newline, {}})) == ForkPosition::kInsideIgnored);
}

TEST_CASE("sixteen dashes: sixteen terminals, or eight by maximal munch") {
  const std::vector<std::string> tokens = {"-", std::string(16, '-')};
  SECTION("only \"-\": each dash is final, so 16 MINUS and back at a plain boundary") {
    const Fixture fixture("start: MINUS*\nMINUS: \"-\"\n", tokens);
    const Alternatives expected = {
        {std::vector<LabelId>(16, fixture.label("-")), TerminalDwa::kInitialFork}};
    CHECK(fixture.read(fixture.after(""), std::string(16, '-')) == expected);
  }
  SECTION("\"-\" and \"--\": maximal munch pairs them, 8 DECR, each final") {
    const Fixture fixture("start: (MINUS | DECR)*\nMINUS: \"-\"\nDECR: \"--\"\n", tokens);
    const LabelId decr = fixture.label("--");
    CHECK(fixture.read(fixture.after(""), std::string(16, '-')) ==
          Alternatives{{std::vector<LabelId>(8, decr), TerminalDwa::kInitialFork}});
    // After a lone "-" (an extendable match) the seventeen dashes make 8 DECR and a "-" that may
    // still grow. The branch that emitted the first "-" early dies on the next dash (its
    // inhibitor reaches "--").
    const uint32_t dash = fixture.dfa.next(fixture.dfa.start_state(), '-');
    const Alternatives expected = {{std::vector<LabelId>(8, decr), fixture.fork_id({dash, {}})},
                                   {[&] {
                                      std::vector<LabelId> labels(8, decr);
                                      labels.push_back(fixture.label("-"));
                                      return labels;
                                    }(),
                                    fixture.fork_id({fixture.dfa.start_state(), {dash}})}};
    CHECK(fixture.read(fixture.after("-"), std::string(16, '-')) == expected);
  }
}

TEST_CASE("special tokens one by one") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const TerminalDwa& dwa = fixture.dwa;
  const LexerDfa& dfa = fixture.dfa;
  const LexerConfiguration start = fixture.after("");

  SECTION("a token ending inside a terminal emits nothing and stays inside it") {
    const Alternatives alternatives = fixture.read(start, "\"ab");
    REQUIRE(alternatives.size() == 1);
    const auto& [labels, end] = *alternatives.begin();
    CHECK(labels.empty());
    CHECK(dwa.fork(end).state == fixture.after("\"ab").state);
    CHECK(dwa.position(end) == ForkPosition::kInsideTerminal);
    CHECK_FALSE(dwa.can_finish(end));
    const auto next = dwa.next_terminals(end);
    CHECK(std::vector<uint32_t>(next.begin(), next.end()) ==
          std::vector<uint32_t>(dfa.label_terminals(fixture.label("\"\"")).begin(),
                                dfa.label_terminals(fixture.label("\"\"")).end()));
  }
  SECTION("a token that only extends the current terminal") {
    const Alternatives alternatives = fixture.read(fixture.after("\"ab"), "ab");
    REQUIRE(alternatives.size() == 1);
    CHECK(alternatives.begin()->first.empty());
    CHECK(dwa.fork(alternatives.begin()->second).state == fixture.after("\"abab").state);
  }
  SECTION("a token of ignored text only: no labels, one branch back at a boundary") {
    const Alternatives alternatives = fixture.read(start, "  ");
    REQUIRE(alternatives.size() == 2);
    for (const auto& [labels, end] : alternatives) CHECK(labels.empty());
    CHECK(std::count_if(alternatives.begin(), alternatives.end(),
                        [&](const auto& a) { return dwa.can_finish(a.second); }) == 1);
  }
  SECTION("a token that cannot be lexed is dead, but alive inside a string") {
    const ForkId initial = TerminalDwa::kInitialFork;
    CHECK_FALSE(fixture.pool.contains(dwa.alive(initial), fixture.id("@")));
    CHECK_FALSE(fixture.pool.contains(dwa.alive(initial), fixture.id("@x")));
    CHECK(fixture.read(start, "@").empty());
    CHECK(fixture.pool.contains(dwa.alive(initial), fixture.id("a")));
    const std::vector<DwaEntry> inside = dwa.enter(fixture.after("\"ab"));
    REQUIRE(inside.size() == 1);
    CHECK(fixture.pool.contains(dwa.alive(inside[0].fork), fixture.id("@")));
  }
  SECTION("a lexical tie is one label with both terminals") {
    // "xa" is NAME and TAG (two patterns, same priority, same length); a space ends it.
    const LabelId tie = fixture.label("xa");
    REQUIRE(dfa.label_terminals(tie).size() == 2);
    bool found = false;
    for (const auto& [labels, end] : fixture.read(fixture.after("xa"), " ")) {
      found |= labels == std::vector<LabelId>{tie} && dwa.fork(end).state != dfa.start_state();
    }
    CHECK(found);
    // "if" is a literal: it beats NAME, no tie.
    CHECK(dfa.label_terminals(fixture.label("if")).size() == 1);
  }
  SECTION("the fall-back: \"1.\" then \"e\" is NUMBER DOT NAME; \"1.\" then \"5\" one FLOAT") {
    const LexerConfiguration one_dot = fixture.after("1.");
    REQUIRE(one_dot.pending == ".");
    bool found = false;
    for (const auto& [labels, end] : fixture.read(one_dot, "e")) {
      found |= labels == std::vector<LabelId>{fixture.label("1"), fixture.label(".")};
    }
    CHECK(found);
    // "1.5" is a FLOAT that may still grow: extending, or emitted early. The branches that
    // fell back to NUMBER die: their inhibitor (the lexeme "1." continued) reaches FLOAT.
    std::set<std::vector<LabelId>> sequences;
    for (const auto& [labels, end] : fixture.read(one_dot, "5")) sequences.insert(labels);
    CHECK(sequences == std::set<std::vector<LabelId>>{{}, {fixture.label("1.5")}});
  }
}

TEST_CASE("the fork space: kinds, closure and its limit") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const TerminalDwaStats& stats = fixture.dwa.stats();
  CHECK(stats.forks == fixture.dwa.num_forks());
  CHECK(stats.forks_at_boundary + stats.forks_inside_terminal + stats.forks_at_extendable_match +
            stats.forks_inside_ignored ==
        stats.forks);
  CHECK(stats.forks_at_boundary > 0);
  CHECK(stats.forks_inside_terminal > 0);
  CHECK(stats.forks_at_extendable_match > 0);
  CHECK(stats.forks_inside_ignored > 0);  // inside the comment
  CHECK(stats.forks_inhibited > 0);
  // Each fork's example path leads to it.
  for (ForkId fork = 0; fork < fixture.dwa.num_forks(); ++fork) {
    std::vector<ForkedLexing> branches = {{{}, initial_fork(fixture.dfa)}};
    for (const TokenId token : fixture.dwa.example_path(fork)) {
      feed_forks(fixture.dfa, branches, fixture.texts[token]);
    }
    CHECK(std::any_of(branches.begin(), branches.end(),
                      [&](const ForkedLexing& b) { return b.fork == fixture.dwa.fork(fork); }));
  }

  TokenSetPool pool(static_cast<uint32_t>(fixture.texts.size()));
  TerminalDwaOptions options;
  options.max_forks = 3;
  CHECK_THROWS_WITH(build_terminal_dwa(fixture.dfa, fixture.trie, pool, options),
                    Catch::Contains("do not close within 3 forks") &&
                        Catch::Contains("reached from the start by the tokens"));
  TokenSetPool wrong(7);
  CHECK_THROWS_WITH(build_terminal_dwa(fixture.dfa, fixture.trie, wrong),
                    Catch::Contains("pool is for 7 token ids"));
}

TEST_CASE("statistics count what the tries hold") {
  const Fixture fixture(kMixedGrammar, mixed_vocabulary());
  const TerminalDwa& dwa = fixture.dwa;
  size_t alternatives = 0, dead = 0, longest = 0;
  std::set<std::vector<LabelId>> sequences;
  std::set<std::pair<std::vector<LabelId>, uint32_t>> realizable;
  for (ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    dead += fixture.texts.size() - fixture.pool.cardinality(dwa.alive(fork));
    dwa.for_each_weight(fork, [&](const std::vector<LabelId>& labels, ForkId end, TokenSetId set) {
      alternatives += fixture.pool.cardinality(set);
      sequences.insert(labels);
      longest = std::max(longest, labels.size());
      for (const uint32_t t : dwa.next_terminals(end)) realizable.emplace(labels, t);
    });
  }
  const TerminalDwaStats& stats = dwa.stats();
  CHECK(stats.token_alternatives == alternatives);
  CHECK(stats.dead_pairs == dead);
  CHECK(stats.label_sequences == sequences.size());
  CHECK(stats.realizable_sequences == realizable.size());
  CHECK(stats.longest_sequence == longest);
  CHECK(stats.nodes == dwa.num_nodes());
  CHECK(stats.nodes <= stats.trie_nodes);
  CHECK(stats.peak_memory_bytes > 0);
}

TEST_CASE("vocabulary trie: children in byte order, tokens where their bytes end") {
  const std::vector<std::string> texts = {"ab", "a", "b", "abc", "", "ba"};
  std::vector<VocabularyEntry> entries;
  for (size_t i = 0; i < texts.size(); ++i) entries.push_back({static_cast<TokenId>(i), texts[i]});
  const VocabularyTrie trie = VocabularyTrie::build(entries, 8);
  CHECK(trie.num_nodes() == 6);  // root, a, b, ab, ba, abc
  for (TokenId id = 0; id < texts.size(); ++id) CHECK(trie.bytes_of(id) == texts[id]);
  CHECK(trie.node_of(4) == VocabularyTrie::kRoot);
  CHECK(trie.node_of(6) == VocabularyTrie::kNoNode);
  CHECK(trie.tokens() == std::vector<TokenId>{0, 1, 2, 3, 4, 5});
  for (uint32_t node = 0; node < trie.num_nodes(); ++node) {
    for (uint32_t c = trie.first_child(node); c + 1 < trie.child_end(node); ++c) {
      CHECK(trie.byte(c) < trie.byte(c + 1));
    }
  }
  CHECK_THROWS_WITH(VocabularyTrie::build(entries, 5), Catch::Contains("token id 5"));
  entries.push_back({1, "zz"});
  CHECK_THROWS_WITH(VocabularyTrie::build(entries, 8), Catch::Contains("token id 1 appears twice"));
}

TEST_CASE("fork_configuration rejects a dead state") {
  const LexerDfa dfa = dfa_from_lark(kJsonGrammar);
  LexerConfiguration broken;
  broken.state = LexerDfa::kDeadState;
  CHECK_THROWS_WITH(fork_configuration(dfa, broken), Catch::Contains("DFA state 0"));
}

}  // namespace
}  // namespace glrmask::lexer
