// Python's indenter post-lexer in the decoding session: hand-checked texts of a small fixture
// language (tests/fixtures/indenter/blocks.lark) with the viability of every prefix, the errors,
// the option that enables it, and SynCode's Python grammar on the real Python programs.
#include "glr/indenter.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/test_support.h"

using namespace glrmask;

namespace {

glr::ParseOptions python_options() {
  glr::ParseOptions options;
  options.postlex = glr::PostLexer::kPythonIndenter;
  return options;
}

const glr::ParseOptions kPython = python_options();

std::filesystem::path blocks_path() {
  return testing::fixtures_dir() / "indenter" / "blocks.lark";
}

std::shared_ptr<const glr::IncrementalRecognizer> blocks() {
  static const auto recognizer = std::make_shared<const glr::IncrementalRecognizer>(
      glr::CompiledGrammar::load_lark(blocks_path(), kPython));
  return recognizer;
}

bool viable(const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer,
            std::string_view text) {
  glr::Session session(recognizer);
  return session.try_commit_bytes(text);
}

bool accepted(const std::shared_ptr<const glr::IncrementalRecognizer>& recognizer,
              std::string_view text) {
  glr::Session session(recognizer);
  return session.try_commit_bytes(text) && session.is_accepting();
}

struct Case {
  std::string text;
  bool accepted;
  // The length of the longest viable prefix (text.size() when every prefix is viable).
  std::size_t viable_up_to;
  const char* why;
};

const std::size_t kAll = std::string::npos;

// Each verdict follows from the indenter's rules (glr/indenter.h) and the fixture's grammar.
const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"a\n", true, kAll, "a simple statement"},
      {"a:\n  b\n", true, kAll, "a block; its _DEDENT comes at the end of input"},
      {"a:\n  b\nc\n", true, kAll, "back to width 0 pops the block"},
      {"a:\n  b:\n    c\n  d\ne\n", true, kAll, "two levels, left one at a time"},
      {"a:\n  b:\n    c\n", true, kAll, "two _DEDENTs at the end of input"},
      {"a:\n\tb\n    c\n", true, kAll, "a tab is 4 spaces: same level"},
      {"a:\n\tb\n        c\n", false, 14,
       "8 spaces are wider than a tab: an _INDENT no rule takes"},
      {"a:\n    b\n  c\n", false, 11,
       "width 2 is not on the stack {0, 4}, known once 'c' ends the newline"},
      {"a:\nb\n", false, 3, "the block needs an _INDENT, the newline has width 0"},
      {"a\n  b\n", false, 4, "an _INDENT after a simple statement at the top"},
      {"(a,\nb)\n", true, kAll, "newlines inside brackets are dropped"},
      {"(a,\n      b)\n", true, kAll, "their width does not matter either"},
      {"a:\n  [b,\nc]\n", true, kAll, "even at width 0 inside a block"},
      {"a:\n  # note\n  b\n", true, kAll, "a comment line is part of the newline"},
      {"a:\n  b\n # odd\n  c\n", true, kAll, "only the width after the last '\\n' counts"},
      {"a  # c\nb\n", true, kAll, "a comment after code: the newline reading of the tie"},
      {"a:  # c\n  b\n", true, kAll, "the tie's newline reading opens the block"},
      {"(a # c\n, b)\n", true, kAll, "inside brackets both readings of the tie agree"},
      {"a:\n  b", false, kAll, "viable, but the statement lacks its newline"},
      {"a:\n    b\n  ", false, kAll, "viable (more can follow), but ending here dedents to 2"},
      {"a:\n  b\n  ", true, kAll, "trailing blanks at the block's width"},
      {"[a\n", false, kAll, "an open bracket: the newline is dropped, the text goes on"},
      {"a\n# c", false, kAll, "a comment needs its '\\n'"},
      {")\n", false, 0, "a closing bracket with none open"},
  };
  return all;
}

TEST_CASE("indenter fixture: hand-checked texts and the viability of every prefix") {
  const auto recognizer = blocks();
  for (const Case& c : cases()) {
    INFO("text: \"" << c.text << "\" (" << c.why << ")");
    const std::size_t viable_up_to = c.viable_up_to == kAll ? c.text.size() : c.viable_up_to;
    for (std::size_t n = 1; n <= c.text.size(); ++n) {
      INFO("prefix of " << n << " bytes");
      CHECK(viable(recognizer, c.text.substr(0, n)) == (n <= viable_up_to));
    }
    CHECK(accepted(recognizer, c.text) == c.accepted);
    // Byte by byte gives the same as one piece.
    glr::Session session(recognizer);
    std::size_t committed = 0;
    while (committed < c.text.size() && session.try_commit_bytes(c.text.substr(committed, 1)))
      ++committed;
    CHECK(committed == viable_up_to);
    if (committed == c.text.size()) CHECK(session.is_accepting() == c.accepted);
  }
}

TEST_CASE("indenter fixture: clones and rollback carry the indentation stack") {
  glr::Session session(blocks());
  session.commit_bytes("a:\n  b:\n    c");
  glr::Session copy = session.clone();
  session.commit_bytes("\n  d\n");
  CHECK(session.is_accepting());
  CHECK_FALSE(copy.accepts_bytes("\n   d\n"));  // the clone still has {0, 2, 4}
  CHECK(copy.accepts_bytes("\nd\n"));
  session.rollback(1);
  CHECK_FALSE(session.accepts_bytes("\n d"));  // width 1 is on no level
  CHECK(session.accepts_bytes("\n "));         // still open: it may grow to any width
}

TEST_CASE("indenter errors name the place and the reason") {
  glr::Session session(blocks());
  try {
    session.commit_bytes("a:\n    b\n  c\n");
    FAIL("accepted");
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK_THAT(message, Catch::Contains("syntax error at byte offset 11"));
    CHECK_THAT(message,
               Catch::Contains("the newline dedents to width 2, which is not on the indentation "
                               "stack {0, 4}"));
  }
  glr::Session open(blocks());
  open.commit_bytes("a:\n    b\n  ");
  CHECK_FALSE(open.is_accepting());
  CHECK_THROWS_WITH(open.commit_end(), Catch::Contains("byte offset 11 (end of input)"));
}

TEST_CASE("%declare'd terminals need --postlex python, and it needs its terminals") {
  CHECK_THROWS_WITH(
      glr::CompiledGrammar::load_lark(blocks_path()),
      Catch::Contains("terminal _INDENT is %declare'd: only a post-lexer can produce it; glrmask "
                      "has Python's indenter, enabled with the post-lexer option "
                      "(GrammarOptions::postlex python)"));
  const auto compile_text = [](const std::string& text) {
    LarkOptions lark;
    lark.declared_terminals = true;
    return glr::CompiledGrammar::compile(load_lark_text(text, "inline.lark", lark), kPython);
  };
  CHECK_THROWS_WITH(
      compile_text("start: A _INDENT\nA: \"a\"\n%declare _INDENT\n"),
      Catch::Contains("(GrammarOptions::postlex python): the grammar has no terminal _NL"));
  CHECK_THROWS_WITH(
      compile_text("start: A _NL _INDENT _DEDENT _OTHER\nA: \"a\"\n_NL: /\\n/\n"
                   "%declare _INDENT _DEDENT _OTHER\n"),
      Catch::Contains("terminal _OTHER is %declare'd, but Python's indenter produces only"));
  // The loader itself: the declared terminals come through without a pattern.
  LarkOptions lark;
  lark.declared_terminals = true;
  const GrammarModel grammar = load_lark_file(blocks_path(), lark);
  CHECK(grammar.terminal(*grammar.find_symbol("_INDENT")).declared);
  CHECK_FALSE(grammar.terminal(*grammar.find_symbol("_NL")).declared);
}

TEST_CASE("the indenter's state machine follows Lark's Indenter") {
  glr::IndenterSpec spec;
  spec.newline = 0;
  spec.indent = 1;
  spec.dedent = 2;
  spec.open_brackets = {3};
  spec.close_brackets = {4};
  spec.tab_len = 4;
  glr::IndenterState state;
  std::vector<glr::SymbolId> out;
  const auto newline = [&](std::string_view text) {
    out.clear();
    return glr::indenter_step(spec, state, 0, glr::scan_indent({}, text, 4), out);
  };
  CHECK(newline("\n    ") == glr::IndenterError::kNone);
  CHECK(out == std::vector<glr::SymbolId>{0, 1});
  CHECK(newline("\n\t \t") == glr::IndenterError::kNone);  // 4 + 1 + 4
  CHECK(state.levels == std::vector<std::uint32_t>{4, 9});
  // Lark counts every space and tab after the last '\n', not only the leading ones.
  CHECK(glr::scan_indent({}, "\n  x y", 4).width == 3);
  CHECK(newline("\n") == glr::IndenterError::kNone);
  CHECK(out == std::vector<glr::SymbolId>{0, 2, 2});
  CHECK(newline("\"\"\"doc\"\"\"") == glr::IndenterError::kNoNewline);
  state = {};
  CHECK(newline("\n  ") == glr::IndenterError::kNone);
  CHECK(newline("\n ") == glr::IndenterError::kUnknownDedent);
  state = {};
  out.clear();
  CHECK(glr::indenter_step(spec, state, 3, {}, out) == glr::IndenterError::kNone);
  CHECK(state.bracket_depth == 1);
  CHECK(newline("\n      ") == glr::IndenterError::kNone);
  CHECK(out.empty());  // dropped inside brackets
  CHECK(glr::indenter_step(spec, state, 4, {}, out) == glr::IndenterError::kNone);
  CHECK(glr::indenter_step(spec, state, 4, {}, out) == glr::IndenterError::kUnbalancedClose);
}

std::filesystem::path python_dir() {
  return data_dir() / "programs" / "python";
}

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::istringstream in(testing::read_file(path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

TEST_CASE("SynCode's Python grammar accepts exactly the programs Lark parses") {
  if (!testing::require_data_dir("glr_indenter_test (Python programs)"))
    return glrmask::testing::skip_test_case();
  const auto recognizer =
      std::make_shared<const glr::IncrementalRecognizer>(glr::CompiledGrammar::load_lark(
          data_dir() / "grammars" / "syncode" / "python_grammar.lark", kPython));
  const bool have_tokenizer = testing::require_tokenizer("llama3");
  std::optional<Vocabulary> vocabulary;
  std::optional<Encoder> encoder;
  if (have_tokenizer) {
    vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
    encoder = Encoder::load(resolve_tokenizer("llama3"));
  }
  const std::vector<std::string> parses = lines_of(python_dir() / "parses.txt");
  REQUIRE(parses.size() == 47);
  for (const std::string& name : parses) {
    INFO(name);
    const std::string text = testing::read_file(python_dir() / name);
    glr::Session whole(recognizer);
    REQUIRE_NOTHROW(whole.commit_bytes(text));
    CHECK(whole.is_accepting());
    if (have_tokenizer) {
      glr::Session tokens(recognizer, &*vocabulary, {.max_rollback = 0});
      for (const TokenId id : encoder->encode(text)) tokens.commit(id);
      CHECK_NOTHROW(tokens.commit(*vocabulary->eos()));
    }
  }
  // SOURCE.md: digit separators (1_000) and the walrus operator are not in the grammar.
  for (const char* name :
       {"cellular_automata__langtons_ant.py", "conversions__energy_conversions.py",
        "scripts__validate_solutions.py"}) {
    INFO(name);
    glr::Session session(recognizer);
    const std::string text = testing::read_file(python_dir() / name);
    CHECK_FALSE((session.try_commit_bytes(text) && session.is_accepting()));
  }
}

}  // namespace
