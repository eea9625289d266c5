// The normalization of derivation cycles and hidden left recursion (glr/cfg_normalization.h):
// what the detection finds and what it leaves alone, that the rewrite keeps the language (every
// string up to length 6: acceptance by the GLR recognizer on both grammars and by an Earley
// recognizer on the grammar as written; viable prefixes on both), that it removes every loop, that
// it refuses beyond its limits, and that the SynCode grammars are not touched.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "glr/cfg_emptiness.h"
#include "glr/cfg_from_grammar.h"
#include "glr/cfg_normalization.h"
#include "glr/compiled_grammar.h"
#include "glr/glr_parser.h"
#include "glr/lalr_automaton.h"
#include "lib/core/settings.h"
#include "tests/support/glr_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask::glr {
namespace {

using Kind = UnboundedReductions::Kind;

Cfg bnf(const std::string& text) {
  return parse_bnf(text, "test.lark");
}

// The kinds found per rule text, "kind: lhs -> rhs", without origins.
std::vector<std::string> loops_of(const Cfg& cfg) {
  std::vector<std::string> result;
  for (const auto& loop : find_unbounded_reductions(cfg).loops) {
    Cfg::Rule rule = cfg.rules[loop.rule];
    rule.origin.clear();
    result.push_back(std::string(loop.kind == Kind::kDerivationCycle ? "cycle: " : "hidden: ") +
                     cfg_rule_text(cfg, rule));
  }
  return result;
}

// What the GLR recognizer makes of a string: is it a viable prefix, is it a sentence.
struct Verdict {
  bool viable = false;
  bool accepted = false;
  bool operator==(const Verdict&) const = default;
};

class GlrRecognizer {
 public:
  explicit GlrRecognizer(const Cfg& cfg) : automaton_(Cfg(cfg)), parser_(automaton_.table()) {}

  // Cfg terminal ids are LrGrammar terminal ids.
  Verdict run(std::span<const SymbolId> input) const {
    GssHeads heads = parser_.initial_heads();
    for (const SymbolId terminal : input) {
      heads = parser_.shift(heads, terminal);
      if (heads.empty()) return {};
    }
    return {true, parser_.accepts_end(heads)};
  }

 private:
  LalrAutomaton automaton_;
  GlrParser parser_;
};

ParseOptions policy_options(ConflictPolicy policy) {
  ParseOptions options;
  options.policy = policy;
  return options;
}

ParseOptions lark_policy() {
  return policy_options(ConflictPolicy::kLark);
}

bool all_productive(const Cfg& cfg) {
  const CfgEmptiness emptiness(cfg);
  for (std::uint32_t s = cfg.num_terminals; s < cfg.num_symbols(); ++s)
    if (emptiness.productive[s] == 0) return false;
  return true;
}

// Normalizes a copy of `written`, requires it to succeed, and compares the languages on every
// string of up to 6 terminals (fewer for large alphabets). Returns the normalized grammar.
Cfg check_same_language(const Cfg& written) {
  Cfg normalized = written;
  const CfgNormalization report = normalize_unbounded_reductions(normalized);
  INFO(report.describe());
  REQUIRE(report.refusal.empty());
  CHECK(find_unbounded_reductions(normalized).empty());
  const GlrRecognizer before(written);
  const GlrRecognizer after(normalized);
  const bool compare_viability = all_productive(written);
  std::size_t accepted = 0;
  std::size_t budget = 1;
  for (std::size_t length = 0; length < 6; ++length) budget = budget * written.num_terminals + 1;
  testing::for_each_string(written.num_terminals, std::min<std::size_t>(budget, 4000),
                           [&](std::span<const SymbolId> input) {
                             std::string text;
                             for (const SymbolId t : input) text += written.symbol_names[t] + " ";
                             INFO("input " << text);
                             const Verdict was = before.run(input);
                             const Verdict is = after.run(input);
                             const bool earley = testing::earley_accepts(written, input);
                             CHECK(is.accepted == earley);
                             CHECK(was.accepted == earley);
                             if (compare_viability) CHECK(is.viable == was.viable);
                             accepted += earley ? 1 : 0;
                           });
  CHECK(accepted > 0);
  return normalized;
}

TEST_CASE("normalization: detection of derivation cycles and hidden left recursion") {
  // The fixtures of the session tests, in plain BNF.
  CHECK(loops_of(bnf("start: s\ns: s s | \"a\" |\n")) ==
        std::vector<std::string>{"cycle: s -> s s"});
  CHECK(loops_of(bnf("start: s\ns: n s \"x\" | \"y\"\nn: \"n\" |\n")) ==
        std::vector<std::string>{"hidden: s -> n s \"x\""});
  // A unit cycle without any nullable symbol, and one through nullable context on the right.
  CHECK(loops_of(bnf("start: a\na: b | \"x\"\nb: a | \"y\"\n")) ==
        std::vector<std::string>{"cycle: a -> b", "cycle: b -> a"});
  CHECK(loops_of(bnf("start: a\na: a n | \"x\"\nn: \"n\" |\n")) ==
        std::vector<std::string>{"cycle: a -> a n"});
  // Hidden left recursion through two rules: a => n b => n a "x".
  CHECK(loops_of(bnf("start: a\na: n b | \"y\"\nb: a \"x\"\nn: \"n\" |\n")) ==
        std::vector<std::string>{"hidden: a -> n b"});

  // What LR handles stays unreported: ordinary left recursion, right recursion with nullable
  // tails, nullable symbols that lead nowhere back, and loops no parse can reach or complete.
  CHECK(loops_of(bnf("start: s\ns: s \"x\" | \"y\"\n")).empty());
  CHECK(loops_of(bnf("start: s\ns: \"a\" s b b | \"a\"\nb: \"b\" |\n")).empty());
  CHECK(loops_of(bnf("start: a b c\na: \"x\" |\nb: \"y\" b |\nc: a \"z\" a |\n")).empty());
  CHECK(loops_of(bnf("start: \"x\"\nunused: unused unused |\n")).empty());
  CHECK(loops_of(bnf("start: \"x\" | dead\ndead: dead | dead \"x\"\n")).empty());
}

TEST_CASE("normalization: the rewritten grammars of the fixtures have the same language") {
  const Cfg cyclic = check_same_language(bnf("start: s\ns: s s | \"a\" |\n"));
  const Cfg hidden = check_same_language(bnf("start: s\ns: n s \"x\" | \"y\"\nn: \"n\" |\n"));
  check_same_language(bnf("start: a\na: b | \"x\"\nb: a | \"y\"\n"));
  check_same_language(bnf("start: a\na: a n | \"x\"\nn: \"n\" |\n"));
  check_same_language(bnf("start: a\na: n b | \"y\"\nb: a \"x\"\nn: \"n\" |\n"));
  // The glr fixture: hidden behind a symbol that derives only the empty string.
  check_same_language(testing::load_fixture("hidden_left_recursion.lark"));
  // Cycles through several nullable symbols, a nullable start, and a language of just ε.
  check_same_language(bnf("start: s\ns: p s q | s s | \"a\"\np: \"p\" | q q\nq: \"q\" |\n"));
  check_same_language(bnf("start: s \"x\" s\ns: t | \"b\" |\nt: s s | \"c\" t\n"));
  check_same_language(bnf("start: s | \"z\"\ns: s s |\n"));

  // Only the rules involved change: cyclic.lark keeps `start: s` and gains s' for s.
  CHECK(cyclic.rules.front().lhs == cyclic.start);
  CHECK(std::find(cyclic.symbol_names.begin(), cyclic.symbol_names.end(), "s'") !=
        cyclic.symbol_names.end());
  // In hidden_left_recursion.lark the hidden recursion becomes plain left recursion s -> s "x".
  bool plain_left_recursion = false;
  for (const Cfg::Rule& rule : hidden.rules)
    if (hidden.name(rule.lhs) == "s" && rule.rhs.size() == 2 && rule.rhs[0] == rule.lhs)
      plain_left_recursion = true;
  CHECK(plain_left_recursion);
}

TEST_CASE("normalization: random small grammars keep their language") {
  // Three nonterminals over two terminals, rules of up to three symbols, many of them empty, so
  // that cycles and hidden left recursion are common. A fixed seed keeps the run reproducible.
  std::mt19937 random(20261201);
  std::size_t normalized = 0;
  std::size_t unchanged = 0;
  for (int round = 0; round < 400; ++round) {
    std::string text = "start: s\n";
    const char* const symbols[] = {"\"a\"", "\"b\"", "s", "t", "u"};
    for (const char* lhs : {"s", "t", "u"}) {
      text += std::string(lhs) + ":";
      const int alternatives = 1 + static_cast<int>(random() % 3);
      for (int alt = 0; alt < alternatives; ++alt) {
        if (alt > 0) text += " |";
        const int length = static_cast<int>(random() % 4);
        for (int i = 0; i < length; ++i) text += std::string(" ") + symbols[random() % 5];
      }
      text += "\n";
    }
    INFO("grammar\n" << text);
    const Cfg written = bnf(text);
    if (find_unbounded_reductions(written).empty()) {
      ++unchanged;
      Cfg copy = written;
      CHECK_FALSE(normalize_unbounded_reductions(copy).normalized);
      CHECK(copy.rules.size() == written.rules.size());
      continue;
    }
    check_same_language(written);
    ++normalized;
  }
  CHECK(normalized > 50);
  CHECK(unchanged > 50);
}

TEST_CASE("normalization: beyond its limits the grammar is left as written, the rule named") {
  // Nine nullable symbols before the recursion: 512 variants of one rule.
  const std::string text = "start: s\ns: n n n n n n n n n s \"x\" | \"y\"\nn: \"n\" |\n";
  Cfg cfg = bnf(text);
  const std::size_t rules = cfg.rules.size();
  const CfgNormalization report = normalize_unbounded_reductions(cfg);
  CHECK_FALSE(report.normalized);
  CHECK(cfg.rules.size() == rules);
  CHECK_THAT(report.refusal,
             Catch::Contains("s -> n n n n n n n n n s \"x\"") && Catch::Contains("512 variants"));
  CHECK_THAT(report.describe(), Catch::Contains("not normalized") &&
                                    Catch::Contains("hidden left recursion: s -> n n"));
  // Within a larger limit it normalizes; a limit on the total growth refuses too.
  Cfg again = bnf(text);
  CHECK(normalize_unbounded_reductions(again, {.max_variants_per_rule = 512}).normalized);
  Cfg capped = bnf(text);
  const CfgNormalization total =
      normalize_unbounded_reductions(capped, {.max_variants_per_rule = 512, .max_added_rules = 5});
  CHECK_FALSE(total.normalized);
  CHECK_THAT(total.refusal, Catch::Contains("more than written"));
  // A grammar without loops reports nothing.
  Cfg plain = bnf("start: s\ns: s \"x\" | \"y\"\n");
  CHECK(normalize_unbounded_reductions(plain).describe() == "none\n");
}

TEST_CASE("normalization: the compiled grammar's session and automaton use the rewritten rules") {
  const auto compiled = CompiledGrammar::load_lark(glrmask::testing::fixtures_dir() /
                                                   "glr_session" / "hidden_left_recursion.lark");
  CHECK(compiled->normalization().normalized);
  CHECK_THAT(compiled->normalization().describe(),
             Catch::Contains("hidden left recursion: s -> n s ") && Catch::Contains("added n'"));
  // Under Lark's policy the table defines the language: nothing is rewritten.
  const auto lark = CompiledGrammar::load_lark(
      glrmask::testing::fixtures_dir() / "glr_session" / "hidden_left_recursion.lark",
      lark_policy());
  CHECK_FALSE(lark->normalization().normalized);
  CHECK_THAT(lark->normalization().refusal, Catch::Contains("Lark policy"));
  CHECK(lark->lalr().grammar().num_rules() < compiled->lalr().grammar().num_rules());
}

TEST_CASE("normalization: the SynCode grammars are not touched (same LR states)") {
  if (!glrmask::testing::require_data_dir("glr_normalization_test (SynCode grammars)"))
    return glrmask::testing::skip_test_case();
  for (const char* name : {"json_grammar.lark", "go_grammar.lark", "java_grammar.lark",
                           "sql_grammar.lark", "c_grammar.lark"}) {
    INFO(name);
    for (const ConflictPolicy policy : {ConflictPolicy::kKeepAll, ConflictPolicy::kLark}) {
      const auto compiled = CompiledGrammar::load_lark(data_dir() / "grammars" / "syncode" / name,
                                                       policy_options(policy));
      CHECK(compiled->normalization().found.empty());
      CHECK(compiled->normalization().describe() == "none\n");
      // The automaton of the rules as written, without the normalization step.
      Cfg written = cfg_from_grammar(compiled->grammar());
      const auto& dropped = compiled->unrealizable().rules;
      for (auto r = dropped.rbegin(); r != dropped.rend(); ++r)
        written.rules.erase(written.rules.begin() + static_cast<std::ptrdiff_t>(*r));
      const LalrAutomaton automaton(std::move(written));
      CHECK(compiled->table().num_states() == automaton.table(policy).num_states());
      CHECK(compiled->lalr().grammar().num_rules() == automaton.grammar().num_rules());
    }
  }
}

}  // namespace
}  // namespace glrmask::glr
