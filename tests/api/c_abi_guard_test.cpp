// Every entry point of the C ABI (glrmask/glrmask.h) made to fail: each returns its status (or its
// documented fallback), records the failure for glrmask_last_error*, and lets no exception out
// (the functions are noexcept seen from C++, so an escaping exception would end this test). The
// last test case reads the header and requires every exported function to be called here.
#include <glrmask/glrmask.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace {

// A tokenizer of single bytes 'a', 'b', ' ', '{', '}', '"', ':' and a stop id.
glrmask_tokenizer* small_tokenizer() {
  static const char* const tokens[] = {"a", "b", " ", "{", "}", "\"", ":", "</s>"};
  const size_t lengths[] = {1, 1, 1, 1, 1, 1, 1, 4};
  const int32_t stop = 7;
  glrmask_tokenizer* tokenizer = nullptr;
  REQUIRE(glrmask_tokenizer_from_vocab(tokens, lengths, 8, GLRMASK_VOCAB_RAW, &stop, 1, nullptr, 0,
                                       &tokenizer) == GLRMASK_OK);
  return tokenizer;
}

glrmask_constraint* lark_constraint(glrmask_tokenizer* tokenizer, const std::string& grammar,
                                    const glrmask_compile_options* compile = nullptr) {
  glrmask_constraint* constraint = nullptr;
  REQUIRE(glrmask_constraint_from_lark(grammar.data(), grammar.size(), "g.lark", tokenizer, nullptr,
                                       compile, &constraint) == GLRMASK_OK);
  return constraint;
}

// The call failed with `code` and left a message for the thread.
void failed(glrmask_status status, glrmask_status code) {
  INFO(glrmask_last_error());
  CHECK(status == code);
  CHECK(glrmask_last_error_code() == code);
  CHECK(std::string(glrmask_last_error()).size() > 5);
}

}  // namespace

TEST_CASE("C ABI: the library and engine entry points") {
  CHECK(std::string(glrmask_version()) == GLRMASK_VERSION_STRING);
  CHECK(std::string(glrmask_engine_name(GLRMASK_ENGINE_WFA)) == "wfa");
  CHECK(std::string(glrmask_engine_name(static_cast<glrmask_engine>(7))) == "?");
  glrmask_engine engine = GLRMASK_ENGINE_AUTO;
  CHECK(glrmask_engine_from_name("spanner", &engine) == GLRMASK_OK);
  CHECK(engine == GLRMASK_ENGINE_SPANNER);
  failed(glrmask_engine_from_name("no-such-engine", &engine), GLRMASK_INVALID_ARGUMENT);
  failed(glrmask_engine_from_name(nullptr, &engine), GLRMASK_INVALID_ARGUMENT);
  glrmask_free(nullptr);
}

TEST_CASE("C ABI: tokenizer entry points refuse bad input") {
  glrmask_tokenizer* out = nullptr;
  const std::string missing = (std::filesystem::temp_directory_path() / "no_such.json").string();
  CHECK(glrmask_tokenizer_load(missing.c_str(), nullptr, 0, &out) != GLRMASK_OK);
  CHECK(out == nullptr);
  failed(glrmask_tokenizer_load(nullptr, nullptr, 0, &out), GLRMASK_INVALID_ARGUMENT);
  static const char* const tokens[] = {"a"};
  const size_t lengths[] = {1};
  const int32_t bad_stop = 5;
  failed(glrmask_tokenizer_from_vocab(tokens, lengths, 1, GLRMASK_VOCAB_RAW, &bad_stop, 1, nullptr,
                                      0, &out),
         GLRMASK_INVALID_ARGUMENT);
  failed(glrmask_tokenizer_from_vocab(tokens, lengths, 1, static_cast<glrmask_vocab_type>(3),
                                      &bad_stop, 1, nullptr, 0, &out),
         GLRMASK_INVALID_ARGUMENT);
  glrmask_tokenizer_free(nullptr);
  CHECK(glrmask_tokenizer_vocab_size(nullptr) == 0);
  CHECK(glrmask_tokenizer_bitmask_words(nullptr) == 0);
  const int32_t* ids = &bad_stop;
  size_t count = 9;
  glrmask_tokenizer_stop_ids(nullptr, &ids, &count);
  CHECK(ids == nullptr);
  CHECK(count == 0);

  glrmask_tokenizer* tokenizer = small_tokenizer();
  CHECK(glrmask_tokenizer_vocab_size(tokenizer) == 8);
  CHECK(glrmask_tokenizer_bitmask_words(tokenizer) == 1);
  int32_t* encoded = nullptr;
  size_t num_encoded = 0;
  // A tokenizer made from its vocabulary has no encoder.
  CHECK(glrmask_tokenizer_encode(tokenizer, "ab", 2, &encoded, &num_encoded) != GLRMASK_OK);
  failed(glrmask_tokenizer_encode(nullptr, "ab", 2, &encoded, &num_encoded),
         GLRMASK_INVALID_ARGUMENT);
  const char* bytes = nullptr;
  size_t length = 0;
  failed(glrmask_tokenizer_token_bytes(tokenizer, 99, &bytes, &length), GLRMASK_INVALID_ARGUMENT);
  CHECK(glrmask_last_error_location().token == 99);
  glrmask_tokenizer_free(tokenizer);
}

TEST_CASE("C ABI: grammar and constraint entry points refuse bad input with their codes") {
  glrmask_tokenizer* tokenizer = small_tokenizer();
  glrmask_grammar* grammar = nullptr;
  const std::string lark = "start: \"a\" \"b\"\n";
  failed(glrmask_grammar_from_source("no-such-format", lark.data(), lark.size(), nullptr, nullptr,
                                     nullptr, &grammar),
         GLRMASK_INVALID_ARGUMENT);
  const std::string broken = "start: (\n";
  failed(glrmask_grammar_from_source("lark", broken.data(), broken.size(), "broken.lark", nullptr,
                                     nullptr, &grammar),
         GLRMASK_GRAMMAR);
  CHECK(std::string(glrmask_last_error_location().file) == "broken.lark");
  CHECK(glrmask_last_error_location().line == 1);
  failed(glrmask_grammar_from_source(nullptr, lark.data(), lark.size(), nullptr, nullptr, nullptr,
                                     &grammar),
         GLRMASK_INVALID_ARGUMENT);
  // A lenient schema's ignored keyword is a warning of the grammar and of its constraint.
  const std::string schema =
      R"({"type": "array", "items": {"type": "integer"}, "uniqueItems": true})";
  glrmask_json_options lenient = {};
  lenient.lenient = true;
  glrmask_status status = glrmask_grammar_from_source("json_schema", schema.data(), schema.size(),
                                                      "s.json", nullptr, &lenient, &grammar);
  INFO(glrmask_last_error());
  REQUIRE(status == GLRMASK_OK);
  char* text = nullptr;
  size_t length = 0;
  REQUIRE(glrmask_grammar_to_lark(grammar, &text, &length) == GLRMASK_OK);
  CHECK(std::string(text, length).find("start") != std::string::npos);
  glrmask_free(text);
  failed(glrmask_grammar_to_lark(nullptr, &text, &length), GLRMASK_INVALID_ARGUMENT);
  const size_t warnings = glrmask_grammar_warning_count(grammar);
  REQUIRE(warnings == 1);
  CHECK(std::string(glrmask_grammar_warning(grammar, 0)).find("uniqueItems") != std::string::npos);
  CHECK(glrmask_grammar_warning(grammar, warnings) == nullptr);
  CHECK(glrmask_grammar_warning_count(nullptr) == 0);
  CHECK(glrmask_grammar_warning(nullptr, 0) == nullptr);
  glrmask_constraint* constraint = nullptr;
  REQUIRE(glrmask_constraint_compile(grammar, tokenizer, nullptr, &constraint) == GLRMASK_OK);
  CHECK(glrmask_constraint_warning_count(constraint) == warnings);
  for (size_t i = 0; i < warnings; ++i)
    CHECK(std::string(glrmask_constraint_warning(constraint, i)) ==
          glrmask_grammar_warning(grammar, i));
  CHECK(glrmask_constraint_warning(constraint, warnings) == nullptr);
  CHECK(glrmask_constraint_warning_count(nullptr) == 0);
  CHECK(glrmask_constraint_warning(nullptr, 0) == nullptr);
  glrmask_constraint_free(constraint);
  failed(glrmask_constraint_compile(nullptr, tokenizer, nullptr, &constraint),
         GLRMASK_INVALID_ARGUMENT);
  glrmask_grammar_free(grammar);
  glrmask_grammar_free(nullptr);

  // The typed constructors.
  failed(glrmask_constraint_from_lark(broken.data(), broken.size(), "broken.lark", tokenizer,
                                      nullptr, nullptr, &constraint),
         GLRMASK_GRAMMAR);
  const std::string bad_schema = R"({"type": "strin"})";
  failed(glrmask_constraint_from_json_schema(bad_schema.data(), bad_schema.size(), "s.json",
                                             tokenizer, nullptr, nullptr, &constraint),
         GLRMASK_SCHEMA);
  CHECK(std::string(glrmask_last_error_location().json_pointer) == "/type");
  failed(glrmask_constraint_any_json(nullptr, nullptr, nullptr, &constraint),
         GLRMASK_INVALID_ARGUMENT);
  const std::string bad_regex = "a(";
  failed(glrmask_constraint_from_regex(bad_regex.data(), bad_regex.size(), tokenizer, nullptr,
                                       &constraint),
         GLRMASK_GRAMMAR);
  glrmask_compile_options bad_engine = {static_cast<glrmask_engine>(7), 0, nullptr};
  failed(glrmask_constraint_from_lark(lark.data(), lark.size(), nullptr, tokenizer, nullptr,
                                      &bad_engine, &constraint),
         GLRMASK_INVALID_ARGUMENT);
  // An engine that refuses the grammar: kUnsupported, and kAuto serves it.
  const std::string indented =
      glrmask::testing::read_file(glrmask::testing::fixtures_dir() / "indenter" / "blocks.lark");
  glrmask_grammar_options python = {nullptr, GLRMASK_POLICY_GLR, nullptr, 0,
                                    GLRMASK_POSTLEX_PYTHON};
  glrmask_compile_options lazy = {GLRMASK_ENGINE_LAZY, 0, nullptr};
  failed(glrmask_constraint_from_lark(indented.data(), indented.size(), nullptr, tokenizer, &python,
                                      &lazy, &constraint),
         GLRMASK_UNSUPPORTED);

  constraint = lark_constraint(tokenizer, lark);
  CHECK(glrmask_constraint_engine(constraint) == GLRMASK_ENGINE_WFA);
  CHECK(glrmask_constraint_engine(nullptr) == GLRMASK_ENGINE_AUTO);
  const std::string unwritable =
      (std::filesystem::temp_directory_path() / "no_such_dir" / "x.glrmask").string();
  failed(glrmask_constraint_save(constraint, unwritable.c_str()), GLRMASK_IO);
  failed(glrmask_constraint_save(nullptr, unwritable.c_str()), GLRMASK_INVALID_ARGUMENT);
  glrmask_constraint* loaded = nullptr;
  failed(glrmask_constraint_load(unwritable.c_str(), tokenizer, &loaded), GLRMASK_ARTIFACT);
  const glrmask_limits defaults = glrmask_limits_default();
  CHECK(defaults.max_step_work > 0);
  glrmask_limits negative = defaults;
  negative.max_commit_seconds = -1;
  failed(glrmask_constraint_load_with_limits(unwritable.c_str(), tokenizer, &negative, &loaded),
         GLRMASK_INVALID_ARGUMENT);
  glrmask_constraint_free(constraint);
  glrmask_constraint_free(nullptr);
  glrmask_tokenizer_free(tokenizer);
}

TEST_CASE("C ABI: matcher entry points refuse bad input and report budgets") {
  glrmask_tokenizer* tokenizer = small_tokenizer();
  glrmask_constraint* constraint = lark_constraint(tokenizer, "start: \"a\" \"b\"\n");
  glrmask_matcher* matcher = nullptr;
  failed(glrmask_matcher_new(nullptr, 0, &matcher), GLRMASK_INVALID_ARGUMENT);
  REQUIRE(glrmask_matcher_new(constraint, 0, &matcher) == GLRMASK_OK);
  glrmask_matcher* clone = nullptr;
  failed(glrmask_matcher_clone(nullptr, &clone), GLRMASK_INVALID_ARGUMENT);
  REQUIRE(glrmask_matcher_clone(matcher, &clone) == GLRMASK_OK);
  glrmask_matcher_free(clone);
  glrmask_matcher_free(nullptr);
  int32_t row[1] = {0};
  failed(glrmask_matcher_fill_next_token_bitmask(matcher, row, 0), GLRMASK_INVALID_ARGUMENT);
  failed(glrmask_matcher_fill_next_token_bitmask(nullptr, row, 1), GLRMASK_INVALID_ARGUMENT);
  glrmask_matcher* batch[1] = {matcher};
  failed(glrmask_fill_next_token_bitmasks(batch, 1, row, 0), GLRMASK_INVALID_ARGUMENT);
  failed(glrmask_fill_next_token_bitmasks(nullptr, 1, row, 1), GLRMASK_INVALID_ARGUMENT);
  bool accepted = true;
  failed(glrmask_matcher_accept_token(matcher, 99, &accepted), GLRMASK_INVALID_ARGUMENT);
  CHECK(glrmask_matcher_accept_token(matcher, 1, &accepted) == GLRMASK_OK);  // "b" first: refused
  CHECK_FALSE(accepted);
  failed(glrmask_matcher_commit_token(matcher, 1), GLRMASK_REJECTED);
  CHECK(std::string(glrmask_last_error_expected()).find("A") != std::string::npos);
  failed(glrmask_matcher_accept_bytes(nullptr, "a", 1, &accepted), GLRMASK_INVALID_ARGUMENT);
  failed(glrmask_matcher_rollback(matcher, 5), GLRMASK_STATE);
  failed(glrmask_matcher_reset(nullptr), GLRMASK_INVALID_ARGUMENT);
  bool accepting = true;
  REQUIRE(glrmask_matcher_accepting(matcher, &accepting) == GLRMASK_OK);
  CHECK_FALSE(accepting);
  failed(glrmask_matcher_accepting(nullptr, &accepting), GLRMASK_INVALID_ARGUMENT);
  CHECK_FALSE(glrmask_matcher_is_accepting(nullptr));
  CHECK_FALSE(glrmask_matcher_is_terminated(nullptr));
  CHECK(glrmask_matcher_byte_offset(nullptr) == 0);
  char* forced = nullptr;
  size_t length = 0;
  REQUIRE(glrmask_matcher_jump_forward_string(matcher, &forced, &length) == GLRMASK_OK);
  CHECK(std::string(forced, length) == "ab");
  glrmask_free(forced);
  failed(glrmask_matcher_jump_forward_string(nullptr, &forced, &length), GLRMASK_INVALID_ARGUMENT);
  glrmask_matcher_free(matcher);
  glrmask_constraint_free(constraint);

  // is_accepting past the step budget: the status says kLimit, the bool is false and the failure
  // is recorded; nothing escapes.
  glrmask_limits limits = glrmask_limits_default();
  limits.max_step_work = 2'000;
  const glrmask_compile_options compile = {GLRMASK_ENGINE_ORACLE, 0, &limits};
  constraint = lark_constraint(tokenizer, "start: s\ns: s s | \"a\"\n", &compile);
  REQUIRE(glrmask_matcher_new(constraint, 0, &matcher) == GLRMASK_OK);
  glrmask_status status = GLRMASK_OK;
  for (int i = 0; i < 200 && status == GLRMASK_OK; ++i)
    status = glrmask_matcher_accept_bytes(matcher, "a", 1, &accepted);
  failed(status, GLRMASK_LIMIT);
  CHECK(std::string(glrmask_last_error()).find("Limits::max_step_work") != std::string::npos);
  glrmask_matcher_free(matcher);
  glrmask_constraint_free(constraint);
  glrmask_tokenizer_free(tokenizer);
}

TEST_CASE("C ABI: every exported function is made to fail or called in this file") {
  const std::string header =
      glrmask::testing::read_file(glrmask::testing::source_dir() / "api/include/glrmask/glrmask.h");
  const std::string self = glrmask::testing::read_file(glrmask::testing::source_dir() /
                                                       "tests/api/c_abi_guard_test.cpp");
  // Each "GLRMASK_EXPORT ... glrmask_name(" of the header: the first identifier starting with
  // glrmask_ that an opening parenthesis follows.
  std::size_t functions = 0;
  for (std::size_t at = header.find("GLRMASK_EXPORT "); at != std::string::npos;
       at = header.find("GLRMASK_EXPORT ", at + 1)) {
    const std::size_t paren = header.find('(', at);
    const std::size_t begin = header.rfind("glrmask_", paren);
    if (paren == std::string::npos || begin == std::string::npos || begin < at) continue;
    const std::string name = header.substr(begin, paren - begin);
    INFO(name);
    CHECK(self.find(name + "(") != std::string::npos);
    ++functions;
  }
  CHECK(functions > 45);
}
