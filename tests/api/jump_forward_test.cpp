// Jump-forward (Matcher::find_jump_forward_string / _tokens) against an independent reference:
// the longest common prefix of all completions, found by asking the oracle which of the 256 bytes
// may come next (a vocabulary of single bytes) and following the only one while there is exactly
// one and the text is not complete. On fixtures at every viable prefix, and on real JSON Schemas
// and SQL programs at every teacher-forced step (tests/api/jump_forward_corpus_test.cpp).
#include <catch2/catch.hpp>

#include "tests/support/jump_forward_reference.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_test_support.h"

namespace glrmask {
namespace {

using testing::fixtures_dir;

TEST_CASE("jump-forward: a schema's required first property is forced after the brace") {
  const Tokenizer bytes = testing::byte_tokenizer();
  const std::string schema =
      R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},)"
      R"("required":["name","age"],"additionalProperties":false})";
  const Constraint constraint = Constraint::from_json_schema(schema, bytes);
  Matcher matcher(constraint);
  CHECK(matcher.find_jump_forward_string() == "{\"name\": \"");
  REQUIRE(matcher.accept_bytes("{\"name\": \"Ann"));
  CHECK(matcher.find_jump_forward_string().empty());  // the string may go on or end
  REQUIRE(matcher.accept_bytes("\""));
  CHECK(matcher.find_jump_forward_string() == ", \"age\": ");
  REQUIRE(matcher.accept_bytes(", \"age\": 42"));
  CHECK(matcher.find_jump_forward_string().empty());  // more digits, or the closing brace
  REQUIRE(matcher.accept_bytes("}"));
  CHECK(matcher.is_accepting());
  CHECK(matcher.find_jump_forward_string().empty());  // complete: the empty completion
}

TEST_CASE("jump-forward: equals the oracle's longest common prefix at every viable prefix") {
  struct Case {
    const char* name;
    std::string grammar;
    const char* alphabet;
    std::size_t max_prefix;
  };
  const std::vector<Case> cases = {
      // Keywords that force their rest, a lexeme that may go on, a choice of two.
      {"keywords",
       "start: \"begin\" item* \"end\"\nitem: \"(\" NUM \")\" | \"nil\"\n"
       "NUM: /[0-9]+/\n%ignore \" \"\n",
       "begin(1) n", 5},
      {"keyword_ties", testing::read_file(fixtures_dir() / "glr_session" / "keyword_ties.lark"),
       "ifa= ", 3},
      {"epsilon_rules", testing::read_file(fixtures_dir() / "glr_session" / "epsilon_rules.lark"),
       "xyz ", 4},
      {"sum", testing::read_file(fixtures_dir() / "cli" / "sum.lark"), "1+ ", 4},
  };
  const Tokenizer bytes = testing::byte_tokenizer();
  std::size_t forced = 0, compared = 0;
  for (const Case& c : cases) {
    INFO("grammar " << c.name);
    const Constraint constraint =
        Constraint::from_lark(c.grammar, bytes, {}, {.engine = Engine::kOracle}, c.name);
    for (const std::string& prefix : testing::strings_up_to(c.alphabet, c.max_prefix)) {
      Matcher matcher(constraint);
      if (!matcher.accept_bytes(prefix)) continue;
      INFO("prefix \"" << prefix << "\"");
      const std::string expected = testing::oracle_forced_string(matcher);
      CHECK(matcher.find_jump_forward_string() == expected);
      testing::check_forced_tokens(matcher, expected);
      forced += expected.empty() ? 0 : 1;
      ++compared;
    }
  }
  CHECK(compared > 20);
  CHECK(forced > 5);
}

}  // namespace
}  // namespace glrmask
