// The budgets of glrmask::Limits through the library (docs/limits.md): each compile limit stops a
// build that needs more with ErrorCode::kLimit naming the field and the option; the runtime
// limits hold for matchers of a compiled and of a loaded constraint, and leave the matcher as it
// was.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "glrmask/glrmask.hpp"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

// Printable ASCII bytes one by one and every pair of lowercase letters, and an EOS.
Tokenizer small_tokenizer() {
  std::vector<std::string> pieces;
  for (char c = ' '; c <= '~'; ++c) pieces.emplace_back(1, c);
  for (char a = 'a'; a <= 'z'; ++a)
    for (char b = 'a'; b <= 'z'; ++b) pieces.push_back(std::string{a, b});
  pieces.push_back("</s>");
  return Tokenizer::from_vocab(pieces, VocabType::kRaw,
                               {static_cast<std::int32_t>(pieces.size() - 1)});
}

// An object schema with `n` optional string properties (docs/limits.md, finding 1); in runs this
// long they are compiled as a list, whose automaton grows linearly.
std::string many_properties_schema(int n) {
  std::string properties;
  for (int i = 0; i < n; ++i)
    properties += (i == 0 ? "" : ",") + ("\"p" + std::to_string(i) + "\":{\"type\":\"string\"}");
  return "{\"type\":\"object\",\"properties\":{" + properties + "},\"additionalProperties\":false}";
}

// The member chain of such a schema, written as a Lark grammar: after "k<i>" any later "k<j>"
// may come, so the LR automaton's nonterminal transitions grow as n^2 and DeRemer and Pennello's
// lookahead sets as n^3 bits.
std::string optional_chain_grammar(int n) {
  std::string grammar = "start: \"{\" m0\n";
  for (int i = 0; i < n; ++i)
    grammar += "m" + std::to_string(i) + ": \"k" + std::to_string(i) + "\" m" +
               std::to_string(i + 1) + " | m" + std::to_string(i + 1) + "\n";
  return grammar + "m" + std::to_string(n) + ": \"}\"\n";
}

// The kLimit error's message of compiling `source` (a JSON Schema, or a Lark grammar when
// `lark`) under `limits`; fails the test otherwise.
std::string compile_limit_message(const std::string& source, const Limits& limits,
                                  bool lark = false) {
  CompileOptions compile;
  compile.engine = Engine::kWfa;
  compile.limits = limits;
  try {
    if (lark) {
      (void)Constraint::from_lark(source, small_tokenizer(), {}, compile);
    } else {
      (void)Constraint::from_json_schema(source, small_tokenizer(), {}, compile);
    }
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kLimit);
    return e.what();
  }
  FAIL("compiled within the limits");
  return "";
}

}  // namespace

TEST_CASE("api: each compile budget stops a build that needs more, naming the field and option",
          "[api][limits]") {
  const std::string schema = many_properties_schema(60);
  {
    Limits limits;
    // Counted every 4,096 transitions computed: the member chain of 300 keys computes more.
    limits.max_parser_dwa_transitions = 2'000;
    CHECK_THAT(compile_limit_message(optional_chain_grammar(300), limits, true),
               Catch::Contains("max_parser_dwa_transitions") &&
                   Catch::Contains("Limits::max_parser_dwa_transitions") &&
                   Catch::Contains("2000"));
  }
  {
    Limits limits;
    limits.max_parser_dwa_states = 10;
    CHECK_THAT(compile_limit_message(schema, limits),
               Catch::Contains("max_parser_dwa_states") &&
                   Catch::Contains("Limits::max_parser_dwa_states"));
  }
  {
    Limits limits;
    limits.max_compile_memory_mib = 1;  // below what any process holds
    // Read every 4,096 transitions computed: 400 properties compute more.
    CHECK_THAT(compile_limit_message(many_properties_schema(400), limits),
               Catch::Contains("building the Parser DWA") &&
                   Catch::Contains("max_compile_memory_mib") &&
                   Catch::Contains("Limits::max_compile_memory_mib"));
    // The LALR(1) lookahead sets can grow as n^3 bits (n^2/2 nonterminal transitions over n
    // terminals): 3,000 properties as a member chain needed 7 GiB and ended in bad_alloc. Their
    // size is checked before they are allocated.
    limits.max_compile_memory_mib = 2;
    CHECK_THAT(compile_limit_message(optional_chain_grammar(300), limits, true),
               Catch::Contains("LALR(1) lookaheads") && Catch::Contains("max_compile_memory_mib"));
  }
  {
    Limits limits;
    limits.max_terminal_dwa_forks = 3;
    CHECK_THAT(compile_limit_message(schema, limits),
               Catch::Contains("max_terminal_dwa_forks") &&
                   Catch::Contains("Limits::max_terminal_dwa_forks"));
  }
  {
    Limits limits;
    limits.max_lexer_states = 8;
    CHECK_THAT(compile_limit_message(schema, limits),
               Catch::Contains("max_lexer_states") && Catch::Contains("Limits::max_lexer_states"));
  }
  // The defaults compile it, and 0 lifts a limit.
  Limits none;
  none.max_parser_dwa_transitions = 0;
  none.max_parser_dwa_states = 0;
  none.max_compile_memory_mib = 0;
  for (const Limits& limits : {Limits{}, none}) {
    CompileOptions compile;
    compile.engine = Engine::kWfa;
    compile.limits = limits;
    const Constraint constraint =
        Constraint::from_json_schema(schema, small_tokenizer(), {}, compile);
    CHECK(constraint.engine() == Engine::kWfa);
  }
}

TEST_CASE("api: runtime budgets hold for a compiled and a loaded constraint's matchers",
          "[api][limits]") {
  const Tokenizer tokenizer = small_tokenizer();
  const std::string grammar = "start: s\ns: s s | \"a\"\n";
  CompileOptions compile;
  compile.limits.max_step_work = 20'000;
  const Constraint compiled = Constraint::from_lark(grammar, tokenizer, {}, compile);
  CHECK(compiled.limits().max_step_work == 20'000);

  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("glrmask_limits_" + std::to_string(getpid()));
  compiled.save(path);
  Limits loaded_limits;
  loaded_limits.max_step_work = 30'000;
  const Constraint loaded = Constraint::load(path, tokenizer, loaded_limits);
  std::filesystem::remove(path);
  CHECK(loaded.limits().max_step_work == 30'000);

  for (const Constraint* constraint : {&compiled, &loaded}) {
    Matcher matcher(*constraint);
    REQUIRE(matcher.accept_bytes(std::string(20, 'a')));
    try {
      (void)matcher.accept_bytes(std::string(400, 'a'));
      FAIL("a step of an ambiguous grammar on 420 bytes stayed within the budget");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::kLimit);
      CHECK(e.where().byte_offset == 20);
      CHECK_THAT(e.what(), Catch::Contains("Limits::max_step_work"));
    }
    // Unchanged: the next byte is a step like any other.
    REQUIRE(matcher.accept_bytes("a"));
    CHECK(matcher.is_accepting());
  }
}

}  // namespace glrmask
