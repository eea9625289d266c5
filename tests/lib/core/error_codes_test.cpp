// The ErrorCode and the ErrorLocation fields of the errors the library throws: each kind of
// failure (a refused grammar, schema, tokenizer or artifact, a file that cannot be read, a budget
// exceeded, an engine refusing a grammar, a bad argument, a misuse of a session, a refused text,
// a broken invariant) provoked through the library's own entry points, with the code a caller
// dispatches on and the place as fields, not only in the message.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/regex/regex_parser.h"
#include "lexer/runtime/terminal_spec.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/pattern.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/tokenizer_spec.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/artifact/mask_artifact.h"
#include "mask/post_lexer_refusal.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

// The glrmask::Error `call` throws (as an Error: a subclass is sliced, its code and place stay).
template <typename Call>
Error error_of(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no glrmask::Error was thrown");
  return Error("not thrown", ErrorCode::kInternal);
}

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("glrmask_error_codes_test_" + name);
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

glr::ParseOptions python_indenter() {
  glr::ParseOptions options;
  options.postlex = glr::PostLexer::kPythonIndenter;
  return options;
}

std::filesystem::path indenter_fixture() {
  return testing::fixtures_dir() / "indenter" / "blocks.lark";
}

}  // namespace

TEST_CASE("error codes: a Lark syntax error is kGrammar at its line and column") {
  const Error e = error_of([] { (void)load_lark_text("start: \"a\" $\n", "syntax.lark"); });
  CHECK(e.code() == ErrorCode::kGrammar);
  CHECK(e.where().file == "syntax.lark");
  CHECK(e.where().line == 1);
  CHECK(e.where().column == 12);
  CHECK(std::string(e.what()).starts_with("syntax.lark:1:12: "));
}

TEST_CASE("error codes: an undefined symbol is kGrammar at the rule that uses it") {
  const Error e =
      error_of([] { (void)load_lark_text("start: \"a\" missing\n", "undefined.lark"); });
  CHECK(e.code() == ErrorCode::kGrammar);
  CHECK(e.where().file == "undefined.lark");
  CHECK(e.where().line == 1);
}

TEST_CASE("error codes: a terminal whose regex cannot be compiled is kGrammar at its definition") {
  const Error e = error_of([] {
    (void)glr::CompiledGrammar::compile(load_lark_text("start: A\nA: /a(/\n", "regex.lark"));
  });
  CHECK(e.code() == ErrorCode::kGrammar);
  CHECK(e.where().file == "regex.lark");
  CHECK(e.where().line == 2);
}

TEST_CASE("error codes: the regex parser names the place of the terminal as fields") {
  const Error e = error_of([] { (void)lexer::parse_regex("(ab", "", "g.lark:3:7: terminal T"); });
  CHECK(e.code() == ErrorCode::kGrammar);
  CHECK(e.where().file == "g.lark");
  CHECK(e.where().line == 3);
  CHECK(e.where().column == 7);
  CHECK_THAT(e.what(), Catch::Contains("missing ), unterminated subpattern"));
}

TEST_CASE("error codes: a declared terminal without a post-lexer is kGrammar") {
  const Error e = error_of([] { (void)glr::CompiledGrammar::load_lark(indenter_fixture()); });
  CHECK(e.code() == ErrorCode::kGrammar);
  CHECK(e.where().file == indenter_fixture().string());
  CHECK(e.where().line > 0);
  CHECK_THAT(e.what(), Catch::Contains("GrammarOptions::postlex"));
  CHECK_THAT(e.what(), !Catch::Contains("--postlex"));
}

TEST_CASE("error codes: a lexer DFA over its state budget is kLimit naming the limit") {
  lexer::TerminalSpec spec;
  spec.name = "T";
  spec.regex = "(a|b)*a(a|b)(a|b)(a|b)(a|b)(a|b)(a|b)";  // 2^7 subset states
  spec.origin = "budget.lark:4:1";
  lexer::LexerDfaLimits limits;
  limits.max_dfa_states = 8;
  const Error e = error_of([&] { (void)lexer::compile_lexer_dfa(std::vector{spec}, limits); });
  CHECK(e.code() == ErrorCode::kLimit);
  CHECK_THAT(e.what(), Catch::Contains("Limits::max_lexer_states"));
  CHECK(e.where().file == "budget.lark");
  CHECK(e.where().line == 4);
  CHECK(e.where().column == 1);
}

TEST_CASE("error codes: a JSON Schema that is truncated JSON is kSchema") {
  const Error e = error_of(
      [] { (void)json_schema::compile_json_schema_text("{\"type\": ", "truncated.json"); });
  CHECK(e.code() == ErrorCode::kSchema);
  CHECK(e.where().file == "truncated.json");
}

TEST_CASE("error codes: a JSON Schema with a wrong type value is kSchema at its pointer") {
  const Error e = error_of(
      [] { (void)json_schema::compile_json_schema_text(R"({"type": "strng"})", "types.json"); });
  CHECK(e.code() == ErrorCode::kSchema);
  CHECK(e.where().file == "types.json");
  CHECK(e.where().json_pointer == "/type");
  CHECK_THAT(e.what(), Catch::Contains("types.json#/type"));
}

TEST_CASE("error codes: a JSON Schema pattern that is not a regex is kSchema at its pointer") {
  const Error e = error_of([] { (void)json_schema::translate_pattern("(ab", "s.json#/pattern"); });
  CHECK(e.code() == ErrorCode::kSchema);
  CHECK(e.where().file == "s.json");
  CHECK(e.where().json_pointer == "/pattern");
}

TEST_CASE("error codes: a broken tokenizer.json is kTokenizer") {
  const auto path = temp_path("broken_tokenizer.json");
  write_file(path, "{\"model\": ");
  const Error invalid = error_of([&] { (void)TokenizerSpec::load(path); });
  CHECK(invalid.code() == ErrorCode::kTokenizer);
  CHECK(invalid.where().file == path.string());

  write_file(path, R"({"model": {"type": "WordPiece", "vocab": {}}})");
  const Error unsupported = error_of([&] { (void)Vocabulary::load(path); });
  CHECK(unsupported.code() == ErrorCode::kTokenizer);
  CHECK(unsupported.where().file == path.string());
  CHECK(unsupported.where().json_pointer == "/model/type");
  std::filesystem::remove(path);
}

TEST_CASE("error codes: a missing input file is kIo") {
  const auto path = temp_path("no_such_file.lark");
  std::filesystem::remove(path);
  const Error grammar = error_of([&] { (void)load_lark_file(path); });
  CHECK(grammar.code() == ErrorCode::kIo);
  CHECK(grammar.where().file == path.string());
  const Error schema = error_of([&] { (void)json_schema::load_json_schema_file(path); });
  CHECK(schema.code() == ErrorCode::kIo);
  CHECK(schema.where().file == path.string());
  const Error tokenizer = error_of([&] { (void)TokenizerSpec::load(path); });
  CHECK(tokenizer.code() == ErrorCode::kIo);
  CHECK(tokenizer.where().file == path.string());
}

TEST_CASE("error codes: a corrupt or missing artifact is kArtifact") {
  const auto path = temp_path("corrupt.glrmask");
  write_file(path, "{\"not\": \"an artifact\"}");
  const Error corrupt = error_of([&] { (void)mask::ArtifactFile::open(path); });
  CHECK(corrupt.code() == ErrorCode::kArtifact);
  CHECK(corrupt.where().file == path.string());
  std::filesystem::remove(path);
  const Error missing = error_of([&] { (void)mask::ArtifactFile::open(path); });
  CHECK(missing.code() == ErrorCode::kArtifact);
  CHECK(missing.where().file == path.string());

  // A section reader past the end of its bytes: the byte offset is a field too.
  const Error truncated = error_of([] {
    BinaryReader in(std::string_view("\x01\x02", 2), "short.glrmask");
    (void)in.get<std::uint16_t>("first field");
    (void)in.get<std::uint32_t>("second field");
  });
  CHECK(truncated.code() == ErrorCode::kArtifact);
  CHECK(truncated.where().file == "short.glrmask");
  CHECK(truncated.where().byte_offset == 2);
}

TEST_CASE("error codes: an engine that cannot serve a grammar refuses it with kUnsupported") {
  const auto grammar = glr::CompiledGrammar::load_lark(indenter_fixture(), python_indenter());
  const Error e = error_of([&] { mask::refuse_post_lexer(*grammar, "lazy"); });
  CHECK(e.code() == ErrorCode::kUnsupported);
  CHECK_THAT(e.what(), Catch::Contains("GrammarOptions::postlex"));
}

TEST_CASE("error codes: a session misused is kState, a refused text kRejected at its byte") {
  const auto grammar = glr::CompiledGrammar::compile(
      load_lark_text("start: e\ne: e \"+\" e | NUMBER\nNUMBER: /[0-9]+/\n", "sum.lark"));
  glr::Session session(grammar);
  const Error rollback = error_of([&] { session.rollback(1); });
  CHECK(rollback.code() == ErrorCode::kState);
  const Error no_vocabulary = error_of([&] { session.commit(TokenId{0}); });
  CHECK(no_vocabulary.code() == ErrorCode::kState);
  CHECK(no_vocabulary.where().token == 0);

  session.commit_bytes("1+");
  const Error rejected = error_of([&] { session.commit_bytes("+"); });
  CHECK(rejected.code() == ErrorCode::kRejected);
  CHECK(rejected.where().byte_offset == 2);
}

TEST_CASE("error codes: bad arguments are kInvalidArgument, chosen explicitly") {
  const std::vector<std::string> pieces = {"a", "b"};
  const Vocabulary vocabulary =
      Vocabulary::from_pieces("two", pieces, VocabularyKind::Raw, {}, std::nullopt);
  const Error token = error_of([&] { (void)vocabulary.bytes(TokenId{99}); });
  CHECK(token.code() == ErrorCode::kInvalidArgument);
  CHECK(token.where().token == 99);
  const Error universe = error_of([] { (void)TokenSetPool(0); });
  CHECK(universe.code() == ErrorCode::kInvalidArgument);
  const Error whitespace = error_of([] { (void)json_schema::parse_whitespace("roomy"); });
  CHECK(whitespace.code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("error codes: a broken invariant of a front end is kInternal, not kGrammar") {
  const Error e = internal_grammar_error(SourceLocation{"g.lark", 2, 5}, "not a literal");
  CHECK(e.code() == ErrorCode::kInternal);
  CHECK(std::string(e.what()) == "g.lark:2:5: internal error: not a literal");
  CHECK(e.where().file == "g.lark");
  CHECK(e.where().line == 2);
  CHECK(e.where().column == 5);
  const Error nowhere = internal_grammar_error(SourceLocation{}, "terminal 'A' has no body");
  CHECK(nowhere.code() == ErrorCode::kInternal);
  CHECK(std::string(nowhere.what()) == "internal error: terminal 'A' has no body");
}

TEST_CASE("error codes: a file:line:col prefix becomes the location fields") {
  const ErrorLocation terminal = parse_source_location("dir/g.lark:12:34: terminal NAME");
  CHECK(terminal.file == "dir/g.lark");
  CHECK(terminal.line == 12);
  CHECK(terminal.column == 34);
  const ErrorLocation bare = parse_source_location("g.lark:3:1");
  CHECK(bare.file == "g.lark");
  CHECK(bare.line == 3);
  CHECK(bare.column == 1);
  const ErrorLocation unknown = parse_source_location("<unknown>: terminal T");
  CHECK(unknown.file == "<unknown>");
  CHECK(unknown.line == 0);
  CHECK(unknown.column == 0);
  const ErrorLocation schema = parse_source_location("s.json#/properties/a");
  CHECK(schema.file == "s.json#/properties/a");
  CHECK(schema.line == 0);
}

}  // namespace glrmask
