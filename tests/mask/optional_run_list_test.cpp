// Long runs of optional properties (json_schema::SchemaOptions::optional_list_min_run): compiled
// as a left-recursive list that the GLR parser explores instead of the member chain, they keep
// the chain's language, the wfa's masks equal the oracle's at every prefix, and the automaton
// grows with the run's length, not its square (docs/limits.md, finding 1).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/json_schema/compiler.h"
#include "lib/lark/lark_writer.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"

namespace glrmask {
namespace {

using glrmask::testing::engine_mask;

// Properties k0 .. k{n-1}, strings, the `required` ones required, no other key.
std::string run_schema(int n, const std::set<int>& required) {
  std::string properties;
  std::string names;
  for (int i = 0; i < n; ++i) {
    properties += fmt::format("{}\"k{}\": {{\"type\": \"string\"}}", i == 0 ? "" : ", ", i);
    if (required.count(i) != 0) names += fmt::format("{}\"k{}\"", names.empty() ? "" : ", ", i);
  }
  return fmt::format(
      "{{\"type\": \"object\", \"properties\": {{{}}}, \"required\": [{}], "
      "\"additionalProperties\": false}}",
      properties, names);
}

std::shared_ptr<const glr::CompiledGrammar> compile_run(const std::string& schema,
                                                        std::size_t min_run) {
  json_schema::SchemaOptions options;
  options.optional_list_min_run = min_run;
  return glr::CompiledGrammar::compile(
      json_schema::compile_json_schema_text(schema, "run.json", options));
}

// The object with members `keys` in this order, in the default whitespace.
std::string object_text(const std::vector<int>& keys) {
  std::string text = "{";
  for (std::size_t i = 0; i < keys.size(); ++i)
    text += fmt::format("{}\"k{}\": \"x\"", i == 0 ? "" : ", ", keys[i]);
  return text + "}";
}

bool accepts(const std::shared_ptr<const glr::CompiledGrammar>& grammar, const std::string& text) {
  glr::Session session(grammar);
  return session.try_commit_bytes(text) && session.is_accepting();
}

}  // namespace

TEST_CASE(
    "wfa: json schema: a run of optional properties as a list has the member chain's language") {
  // k9 is required: a run before it (no comma before its first member) and one after it (a
  // comma before each member), both two-level lists (blocks of 8) at a minimum run of 2.
  constexpr int kProperties = 20;
  constexpr int kRequired = 9;
  const std::string schema = run_schema(kProperties, {kRequired});
  const auto list = compile_run(schema, 2);
  const auto chain = compile_run(schema, 0);
  REQUIRE(to_lark_text(json_schema::compile_json_schema_text(schema, "run.json",
                                                             {.optional_list_min_run = 2}))
              .find("optional_run") != std::string::npos);
  REQUIRE(to_lark_text(json_schema::compile_json_schema_text(schema, "run.json",
                                                             {.optional_list_min_run = 0}))
              .find("optional_run") == std::string::npos);
  std::size_t valid = 0;
  std::size_t invalid = 0;
  auto check = [&](const std::vector<int>& keys, bool expected) {
    const std::string text = object_text(keys);
    INFO(text);
    CHECK(accepts(chain, text) == expected);
    CHECK(accepts(list, text) == expected);
    ++(expected ? valid : invalid);
  };
  // Subsets of every density (so members at both ends of blocks, and whole blocks skipped), each
  // in schema order, then with two neighbours swapped and with a key repeated.
  std::mt19937 random(25);
  for (int round = 0; round < 600; ++round) {
    const double density = (round % 10) / 9.0;
    std::vector<int> keys;
    for (int i = 0; i < kProperties; ++i)
      if (std::uniform_real_distribution<double>(0, 1)(random) < density) keys.push_back(i);
    const bool has_required = std::find(keys.begin(), keys.end(), kRequired) != keys.end();
    check(keys, has_required);
    if (keys.size() >= 2) {
      std::vector<int> swapped = keys;
      const std::size_t at = random() % (keys.size() - 1);
      std::swap(swapped[at], swapped[at + 1]);
      check(swapped, false);
    }
    if (!keys.empty()) {
      std::vector<int> repeated = keys;
      const std::size_t at = random() % keys.size();
      repeated.insert(repeated.begin() + static_cast<std::ptrdiff_t>(at), keys[at]);
      check(repeated, false);
    }
  }
  CHECK(valid > 100);
  CHECK(invalid > 600);
  // Separators: a leading or trailing comma, two commas, none; an undeclared key.
  for (const std::string text :
       {R"({, "k9": "x"})", R"({"k9": "x", })", R"({"k0": "x", , "k9": "x"})",
        R"({"k0": "x" "k9": "x"})", R"({"k9": "x", "k20": "x"})"}) {
    INFO(text);
    CHECK_FALSE(accepts(chain, text));
    CHECK_FALSE(accepts(list, text));
  }
}

TEST_CASE(
    "wfa: json schema: the wfa equals the oracle at every prefix of objects whose runs are lists") {
  const auto grammar = compile_run(run_schema(20, {9}), 2);
  // Bytes, pairs of the object's bytes, and tokens spanning a separator, a key and a colon.
  std::vector<std::string> tokens;
  for (const std::string& s : glrmask::testing::strings_up_to("{}\"k0123456789: ,x", 2))
    if (!s.empty()) tokens.push_back(s);
  for (const std::string s :
       {", \"k", "\": \"", "\"k9\": \"x\"", "x\", \"k1", ", \"k8\": \"", "\"}"})
    tokens.push_back(s);
  const Vocabulary vocabulary = glrmask::testing::tiny_vocabulary(tokens);
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  mask::WfaEngine engine(grammar, vocabulary);
  std::size_t prefixes = 0;
  for (const std::vector<int>& keys : std::vector<std::vector<int>>{
           {9}, {0, 9}, {7, 8, 9, 10}, {8, 9, 16, 17, 19}, {9, 15, 16}, {1, 6, 9, 18}}) {
    const std::string text = object_text(keys);
    for (std::size_t n = 0; n <= text.size(); ++n) {
      INFO("prefix " << text.substr(0, n));
      glr::Session session(grammar, &vocabulary);
      REQUIRE(session.try_commit_bytes(text.substr(0, n)));
      glrmask::testing::require_equal_masks(engine_mask(engine, session, vocabulary),
                                            engine_mask(oracle, session, vocabulary), vocabulary);
      ++prefixes;
    }
  }
  CHECK(prefixes > 200);
}

TEST_CASE(
    "wfa: json schema: 3,000 optional properties compile to an automaton linear in their number") {
  // docs/limits.md, finding 1: as a member chain the LR automaton and the Parser DWA grow as the
  // square of the properties (3,000 of them needed 7 GiB of LALR(1) lookahead sets alone).
  const Vocabulary vocabulary =
      glrmask::testing::tiny_vocabulary({"{", "}", "\"", "p", "0", "1", "2", ": ", ", ", "x"});
  std::vector<std::size_t> transitions;
  for (const int n : {1000, 3000}) {
    INFO(n);
    const auto grammar = compile_run(run_schema(n, {}), 64);
    mask::ParserDwaOptions options;
    options.max_transitions = 40 * static_cast<std::size_t>(n);
    const auto compiled = mask::CompiledMask::compile(grammar, vocabulary, options);
    transitions.push_back(compiled->parser_dwa().all_transitions().size());
    CHECK(transitions.back() < 40 * static_cast<std::size_t>(n));
  }
  // Three times the properties, at most about three times the transitions.
  CHECK(transitions[1] < 4 * transitions[0]);
}

}  // namespace glrmask
