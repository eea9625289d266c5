// llama.cpp's own grammar tests as data (the data folder's grammars/llama.cpp/
// grammar_integration.json: the cases of test-grammar-integration.cpp and test-grammar-parser.cpp):
// every grammar case's passing strings accepted and failing strings refused, the grammars
// llama.cpp must refuse refused (but left recursion, which glrmask's GLR parser takes: its
// language is checked instead), and the parser cases loaded or refused as upstream says, except
// the large repetition counts glrmask deliberately accepts (docs/grammar.md, "GBNF").
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/core/token_terminal.h"
#include "lib/json_schema/value.h"
#include "tests/support/gbnf_test_support.h"

namespace glrmask::gbnf {
namespace {

using json_schema::JsonValue;

JsonValue llama_cpp_cases() {
  const auto path = data_dir() / "grammars" / "llama.cpp" / "grammar_integration.json";
  return json_schema::parse_json(testing::read_file(path), path.string());
}

bool uses_special_tokens(const JsonValue& c) {
  const JsonValue* grammar = c.find("grammar");
  return grammar != nullptr && grammar->string.find("<[") != std::string::npos;
}

// An input as the bytes the grammar's lexer reads: a string as its UTF-8, an object of parts with
// each {"token": N} as that token's stand-in (lib/core/token_terminal.h). With ids, no vocabulary
// is needed: this checks the grammar's language; the masks over a vocabulary are checked in
// tests/mask/token_terminal_engine_test.cpp.
std::string input_bytes(const JsonValue& input) {
  if (input.is_string()) return input.string;
  std::string bytes;
  for (const JsonValue& part : input.find("parts")->items) {
    if (part.is_string()) {
      bytes += part.string;
    } else {
      bytes += token_terminal_bytes(static_cast<std::uint32_t>(part.find("token")->number));
    }
  }
  return bytes;
}

// The refusal message of building `text` from `start`, or "" when it builds.
std::string build_refusal(const std::string& text, const std::string& start) {
  try {
    testing::compile_gbnf(text, start);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("llama.cpp grammar cases: passing strings accepted, failing strings refused") {
  if (!testing::require_data_dir("GBNF: llama.cpp's grammar cases"))
    return testing::skip_test_case();
  const JsonValue cases = llama_cpp_cases();
  std::size_t grammars = 0;
  std::size_t passing = 0;
  std::size_t failing = 0;
  std::size_t with_tokens = 0;
  for (const JsonValue& c : cases.find("cases")->items) {
    if (c.find("kind")->string != "grammar") continue;
    INFO(c.find("description")->string);
    const std::string& text = c.find("grammar")->string;
    const std::string& root = c.find("root")->string;
    if (uses_special_tokens(c)) ++with_tokens;
    const testing::GbnfRecognizer recognizer(text, root);
    ++grammars;
    for (const JsonValue& input : c.find("passing")->items) {
      INFO("passing: " << input_bytes(input));
      CHECK(recognizer.accepts(input_bytes(input)));
      ++passing;
    }
    for (const JsonValue& input : c.find("failing")->items) {
      INFO("failing: " << input_bytes(input));
      CHECK_FALSE(recognizer.accepts(input_bytes(input)));
      ++failing;
    }
  }
  CHECK(grammars == 15);
  CHECK(with_tokens == 2);
  CHECK(passing >= 50);
  CHECK(failing >= 50);
}

TEST_CASE("llama.cpp grammar cases: refused grammars refused, left recursion taken") {
  if (!testing::require_data_dir("GBNF: llama.cpp's refused grammars"))
    return testing::skip_test_case();
  std::size_t refused = 0;
  std::size_t left_recursive = 0;
  const JsonValue cases = llama_cpp_cases();
  for (const JsonValue& c : cases.find("cases")->items) {
    if (c.find("kind")->string != "build_fails") continue;
    const std::string& description = c.find("description")->string;
    INFO(description);
    const std::string& text = c.find("grammar")->string;
    const std::string& root = c.find("root")->string;
    if (description.find("left recursion") != std::string::npos) {
      // llama.cpp's recursive descent cannot take it; a GLR parser can. The language is what
      // the rules say: "a" | root "a" is a+.
      REQUIRE(build_refusal(text, root).empty());
      ++left_recursive;
      continue;
    }
    CHECK_FALSE(build_refusal(text, root).empty());
    ++refused;
  }
  CHECK(refused == 4);
  CHECK(left_recursive == 4);
  const testing::GbnfRecognizer simple("root ::= \"a\" | root \"a\"\n");
  CHECK(simple.accepts("aaaa"));
  CHECK_FALSE(simple.accepts(""));
  const testing::GbnfRecognizer nullable(
      "root ::= asdf\nasdf ::= \"a\" | foo \"b\"\nfoo ::= \"c\" | empty asdf \"d\" | \"e\"\n"
      "empty ::= \"blah\" | \n");
  CHECK(nullable.accepts("adb"));
  CHECK(nullable.accepts("blahcbdb"));
  CHECK_FALSE(nullable.accepts("blahb"));
}

TEST_CASE("llama.cpp grammar parser cases: loaded or refused as upstream says") {
  if (!testing::require_data_dir("GBNF: llama.cpp's parser cases"))
    return testing::skip_test_case();
  std::size_t agreed = 0;
  std::vector<std::string> accepted_deliberately;
  std::vector<std::string> token_grammars;
  const JsonValue cases = llama_cpp_cases();
  for (const JsonValue& c : cases.find("grammar_parser_cases")->items) {
    const std::string& text = c.find("grammar")->string;
    INFO(text);
    const std::string refusal = build_refusal(text, "start");
    if (text.find("!<[") != std::string::npos &&
        refusal.find("cannot count") != std::string::npos) {
      // One token of any text, not repeated: a byte-level mask cannot count tokens, so glrmask
      // refuses it with that reason (docs/grammar.md, "Special tokens").
      CHECK(c.find("must_parse")->boolean);
      token_grammars.push_back(text);
      continue;
    }
    if (c.find("must_parse")->boolean) {
      CHECK(refusal.empty());
      ++agreed;
    } else if (refusal.empty()) {
      // llama.cpp refuses at least 2,000 repetitions of one item; glrmask takes them.
      CHECK(text.find("{5000") != std::string::npos);
      accepted_deliberately.push_back(text);
    } else {
      ++agreed;
    }
  }
  CHECK(agreed == 19);
  CHECK(accepted_deliberately.size() == 3);
  CHECK(token_grammars.size() == 1);
}

}  // namespace glrmask::gbnf
