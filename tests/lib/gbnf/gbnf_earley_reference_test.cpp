// The GBNF front end against an independent reference: tests/reference/gbnf_earley.py, an Earley
// recognizer over code points written from the format's description. On llama.cpp's example
// grammars with texts of their languages, and on llama.cpp's grammar cases, every prefix of every
// text is a viable prefix for both or for neither, and every text and every one-character edit of
// it (deleted, doubled, replaced by a neighbour) is a sentence for both or for neither.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/core/unicode_utf8.h"
#include "tests/support/gbnf_test_support.h"

namespace glrmask::gbnf {
namespace {

bool viable_prefix(const testing::GbnfRecognizer& recognizer, std::string_view text) {
  glr::Session session(recognizer.recognizer(), nullptr, {.max_rollback = 0});
  try {
    session.commit_bytes(text);
  } catch (const Error&) {
    return false;
  }
  return true;
}

// Code-point boundaries of `text`.
std::vector<std::size_t> boundaries(const std::string& text) {
  std::vector<std::size_t> out{0};
  for (std::size_t pos = 0; pos < text.size();) {
    pos += utf8_sequence_length(static_cast<unsigned char>(text[pos]));
    out.push_back(pos);
  }
  return out;
}

// The texts, each with up to `edits` one-character edits at random places.
std::vector<std::string> with_edits(const std::vector<std::string>& texts, std::size_t edits) {
  std::mt19937 random(5);
  std::vector<std::string> out = texts;
  for (const std::string& text : texts) {
    const std::vector<std::size_t> cuts = boundaries(text);
    if (cuts.size() < 2) continue;
    for (std::size_t e = 0; e < edits; ++e) {
      const std::size_t i = random() % (cuts.size() - 1);
      const std::string character = text.substr(cuts[i], cuts[i + 1] - cuts[i]);
      const std::string neighbour =
          text.substr(cuts[(i + 1) % (cuts.size() - 1)],
                      cuts[(i + 1) % (cuts.size() - 1) + 1] - cuts[(i + 1) % (cuts.size() - 1)]);
      switch (e % 3) {
        case 0:
          out.push_back(text.substr(0, cuts[i]) + text.substr(cuts[i + 1]));
          break;
        case 1:
          out.push_back(text.substr(0, cuts[i]) + character + text.substr(cuts[i]));
          break;
        default:
          out.push_back(text.substr(0, cuts[i]) + neighbour + text.substr(cuts[i + 1]));
          break;
      }
    }
  }
  return out;
}

// Compares sentences and viable prefixes; returns how many texts were sentences.
std::size_t compare_with_reference(const std::string& grammar, const std::string& start,
                                   const std::vector<std::string>& texts, std::size_t edits) {
  INFO(grammar);
  const testing::GbnfRecognizer mine(grammar, start);
  const std::vector<std::string> candidates = with_edits(texts, edits);
  const auto sentences = testing::earley_verdicts(grammar, candidates, start);
  REQUIRE(sentences.has_value());
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    INFO("text \"" << candidates[i] << "\"");
    CHECK(mine.accepts(candidates[i]) == (*sentences)[i]);
    accepted += (*sentences)[i] ? 1 : 0;
  }
  std::vector<std::string> prefixes;
  for (const std::string& text : texts)
    for (const std::size_t cut : boundaries(text)) prefixes.push_back(text.substr(0, cut));
  const auto viable = testing::earley_verdicts(grammar, prefixes, start, /*prefix=*/true);
  REQUIRE(viable.has_value());
  for (std::size_t i = 0; i < prefixes.size(); ++i) {
    INFO("prefix \"" << prefixes[i] << "\"");
    CHECK(viable_prefix(mine, prefixes[i]) == (*viable)[i]);
  }
  return accepted;
}

std::string example_grammar(const std::string& name) {
  return testing::read_file(data_dir() / "grammars" / "llama.cpp" / name);
}

std::string fixture(const std::string& name) {
  return testing::read_file(testing::fixtures_dir() / "gbnf" / name);
}

}  // namespace

TEST_CASE("GBNF against the Earley reference: llama.cpp's example grammars") {
  if (!testing::require_data_dir("GBNF against the Earley reference"))
    return testing::skip_test_case();
  if (!testing::python3_available()) return testing::skip_test_case();
  const std::vector<std::string> json = {
      "{\"name\": \"Ada\", \"born\": 1815, \"tags\": [\"a\", \"\\u00e9\\n\"], \"x\": null}",
      "{\n  \"a\": [\n    {\"b\": -0.5e+12},\n    []\n  ],\n  \"c\": {}\n}",
      "{\"k\":true,\"l\":false}"};
  CHECK(compare_with_reference(example_grammar("json.gbnf"), "root", json, 60) >= 3);
  CHECK(compare_with_reference(example_grammar("json_arr.gbnf"), "root",
                               {"[\n{\"a\": 1},\n  \"b\"]", "[\n]"}, 40) >= 2);
  CHECK(compare_with_reference(example_grammar("c.gbnf"), "root",
                               {fixture("c_loops.txt"), fixture("c_functions.txt")}, 60) >= 2);
  CHECK(compare_with_reference(example_grammar("arithmetic.gbnf"), "root",
                               {fixture("arithmetic.txt")}, 40) >= 1);
  CHECK(compare_with_reference(example_grammar("list.gbnf"), "root", {fixture("list.txt")}, 30) >=
        1);
  CHECK(compare_with_reference(example_grammar("chess.gbnf"), "root", {fixture("chess.txt")}, 40) >=
        1);
  CHECK(compare_with_reference(example_grammar("english.gbnf"), "root",
                               {"Hello, world! It's 9 o'clock.\tFine"}, 30) >= 1);
  CHECK(compare_with_reference(example_grammar("japanese.gbnf"), "root",
                               {"こんにちは、世界。\nカタカナ 漢字"}, 30) >= 1);
}

TEST_CASE("GBNF against the Earley reference: llama.cpp's grammar cases") {
  if (!testing::require_data_dir("GBNF cases against the Earley reference"))
    return testing::skip_test_case();
  if (!testing::python3_available()) return testing::skip_test_case();
  const auto path = data_dir() / "grammars" / "llama.cpp" / "grammar_integration.json";
  const json_schema::JsonValue cases =
      json_schema::parse_json(testing::read_file(path), path.string());
  std::size_t grammars = 0;
  for (const json_schema::JsonValue& c : cases.find("cases")->items) {
    if (c.find("kind")->string != "grammar") continue;
    const std::string& text = c.find("grammar")->string;
    if (text.find("<[") != std::string::npos) continue;  // special tokens: not yet
    std::vector<std::string> inputs;
    for (const char* list : {"passing", "failing"})
      for (const json_schema::JsonValue& input : c.find(list)->items)
        inputs.push_back(input.string);
    if (inputs.empty()) continue;
    compare_with_reference(text, c.find("root")->string, inputs, 4);
    ++grammars;
  }
  CHECK(grammars == 12);
}

}  // namespace glrmask::gbnf
