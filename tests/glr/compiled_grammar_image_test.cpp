// Compiled grammar images (glr/compiled_grammar_image.h): a grammar read back from its image has
// the compiled grammar's tables (byte for byte where stored, accessor by accessor where
// recomputed) and a session over it accepts the same bytes at every step; a damaged image is
// refused or reads as an in-bounds grammar a session runs on; a truncated one is always refused;
// an image of another grammar or other options is refused.
#include "glr/compiled_grammar_image.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::read_file;

// A named namespace: the test folder is built as one unity file.
namespace grammar_image_test {
namespace {

struct Case {
  std::filesystem::path path;
  glr::ParseOptions options;
};

GrammarModel load_model(const Case& c) {
  LarkOptions lark;
  lark.start = c.options.start;
  lark.declared_terminals = c.options.postlex != glr::PostLexer::kNone;
  return load_lark_file(c.path, lark);
}

std::string image_of(const glr::CompiledGrammar& grammar) {
  BinaryWriter out;
  glr::write_compiled_grammar(grammar, out);
  return out.take();
}

std::shared_ptr<const glr::CompiledGrammar> read_image(const std::string& image, const Case& c) {
  BinaryReader in(image, "grammar image");
  auto grammar = glr::read_compiled_grammar(in, load_model(c), c.options);
  if (!in.at_end()) in.fail("bytes after the image");
  return grammar;
}

// What image bytes do not show: the parts read() recomputes, through their accessors.
void check_recomputed_parts(const glr::CompiledGrammar& a, const glr::CompiledGrammar& b) {
  const glr::LrGrammar& ga = a.lalr().grammar();
  const glr::LrGrammar& gb = b.lalr().grammar();
  REQUIRE(ga.num_symbols() == gb.num_symbols());
  REQUIRE(ga.num_rules() == gb.num_rules());
  for (glr::SymbolId s = ga.num_terminals(); s < ga.num_symbols(); ++s) {
    const auto ra = ga.rules_of(s);
    const auto rb = gb.rules_of(s);
    REQUIRE(std::vector<glr::RuleId>(ra.begin(), ra.end()) ==
            std::vector<glr::RuleId>(rb.begin(), rb.end()));
  }
  for (glr::SymbolId s = 0; s < ga.num_symbols(); ++s) {
    REQUIRE(a.lalr().sets().nullable(s) == b.lalr().sets().nullable(s));
    REQUIRE(a.lalr().sets().first(s) == b.lalr().sets().first(s));
    REQUIRE(a.lalr().sets().shortest_yield_length(s) == b.lalr().sets().shortest_yield_length(s));
  }
  const glr::Lr0Automaton& la = a.lalr().lr0();
  const glr::Lr0Automaton& lb = b.lalr().lr0();
  REQUIRE(la.num_states() == lb.num_states());
  for (glr::StateId s = 0; s < la.num_states(); ++s) {
    const auto pa = la.predecessors(s);
    const auto pb = lb.predecessors(s);
    REQUIRE(std::vector<glr::StateId>(pa.begin(), pa.end()) ==
            std::vector<glr::StateId>(pb.begin(), pb.end()));
  }
  for (const auto policy : {glr::ConflictPolicy::kKeepAll, glr::ConflictPolicy::kLark}) {
    const glr::LrTable& ta = a.lalr().table(policy);
    const glr::LrTable& tb = b.lalr().table(policy);
    REQUIRE(ta.policy() == tb.policy());
    REQUIRE(ta.num_conflict_cells() == tb.num_conflict_cells());
    REQUIRE(ta.size_in_bytes() == tb.size_in_bytes());
    for (glr::RuleId r = 0; r < ga.num_rules(); ++r) {
      REQUIRE(ta.rule_lhs(r) == tb.rule_lhs(r));
      REQUIRE(ta.rule_length(r) == tb.rule_length(r));
      REQUIRE(ta.rule_priority(r) == tb.rule_priority(r));
    }
  }
  REQUIRE(&a.table() != &b.table());
  REQUIRE(a.table().policy() == b.table().policy());

  const lexer::LexerDfa& da = a.dfa();
  const lexer::LexerDfa& db = b.dfa();
  REQUIRE(da.terminals().size() == db.terminals().size());
  for (std::size_t t = 0; t < da.terminals().size(); ++t) {
    const lexer::TerminalSpec& x = da.terminals()[t];
    const lexer::TerminalSpec& y = db.terminals()[t];
    REQUIRE(x.name == y.name);
    REQUIRE(x.regex == y.regex);
    REQUIRE(x.flags == y.flags);
    REQUIRE(x.priority == y.priority);
    REQUIRE(x.is_literal == y.is_literal);
    REQUIRE(x.ignored == y.ignored);
    REQUIRE(x.external == y.external);
    REQUIRE(x.origin == y.origin);
  }
  REQUIRE(da.has_tentative_states() == db.has_tentative_states());
  for (std::uint32_t s = 0; s < da.num_states(); ++s)
    for (int byte = 0; byte < 256; ++byte)
      REQUIRE(da.next(s, static_cast<std::uint8_t>(byte)) ==
              db.next(s, static_cast<std::uint8_t>(byte)));

  const lexer::ForkFutures& fa = a.fork_futures();
  const lexer::ForkFutures& fb = b.fork_futures();
  REQUIRE(fa.size() == fb.size());
  for (lexer::ForkFutures::Id id = 0; id < fa.size(); ++id) {
    REQUIRE(fb.find(fa.fork(id)) == std::optional<lexer::ForkFutures::Id>(id));
    REQUIRE(fa.can_end(id) == fb.can_end(id));
    for (std::uint32_t t = 0; t <= da.terminals().size(); ++t)
      REQUIRE(fa.lists(id, t) == fb.lists(id, t));
  }
  for (std::uint32_t s = 0; s < da.num_states(); ++s) {
    REQUIRE(fa.uninhibited(s) == fb.uninhibited(s));
    REQUIRE(fa.emitted_early(s) == fb.emitted_early(s));
  }

  REQUIRE(a.skippable_terminals() == b.skippable_terminals());
  REQUIRE((a.indenter() == nullptr) == (b.indenter() == nullptr));
  if (a.indenter() != nullptr) {
    REQUIRE(a.indenter()->newline == b.indenter()->newline);
    REQUIRE(a.indenter()->indent == b.indenter()->indent);
    REQUIRE(a.indenter()->dedent == b.indenter()->dedent);
    REQUIRE(a.indenter()->open_brackets == b.indenter()->open_brackets);
    REQUIRE(a.indenter()->close_brackets == b.indenter()->close_brackets);
    REQUIRE(a.indenter()->tab_len == b.indenter()->tab_len);
  }
  REQUIRE(a.unrealizable().describe(a.grammar()) == b.unrealizable().describe(b.grammar()));
  REQUIRE(a.normalization().describe() == b.normalization().describe());
  REQUIRE(a.end_of_input() == b.end_of_input());
}

// Bytes a session is asked about after every commit.
std::vector<std::string> probes_for(const std::string& text) {
  std::vector<std::string> probes = {"\n", "\t", "  ", "\n\n", "\"", "//", "/*"};
  for (char c = 0x20; c < 0x7f; ++c) probes.emplace_back(1, c);
  // Some words of the text itself, so that keywords and longer lexemes are tried too.
  for (std::size_t i = 0; i + 6 <= text.size() && probes.size() < 130; i += 37)
    probes.push_back(text.substr(i, 6));
  return probes;
}

// Commits `text` in chunks to a session over each grammar; before each commit both sessions must
// agree on every probe, on is_accepting() and can_continue(). Returns the bytes committed.
std::size_t check_same_sessions(const std::shared_ptr<const glr::CompiledGrammar>& compiled,
                                const std::shared_ptr<const glr::CompiledGrammar>& read,
                                const std::string& text, std::size_t chunk) {
  glr::Session a(compiled);
  glr::Session b(read);
  const std::vector<std::string> probes = probes_for(text);
  std::size_t at = 0;
  while (at < text.size()) {
    for (const std::string& probe : probes) {
      INFO("after " << at << " bytes, probe '" << probe << "'");
      REQUIRE(a.accepts_bytes(probe) == b.accepts_bytes(probe));
    }
    REQUIRE(a.is_accepting() == b.is_accepting());
    REQUIRE(a.can_continue() == b.can_continue());
    const std::string piece = text.substr(at, chunk);
    const bool accepted = a.try_commit_bytes(piece);
    REQUIRE(b.try_commit_bytes(piece) == accepted);
    if (!accepted) break;
    at += piece.size();
  }
  REQUIRE(a.is_accepting() == b.is_accepting());
  return at;
}

// The round trip: the image of the read grammar is the image, the recomputed parts agree, and the
// sessions agree over `text`.
void check_round_trip(const Case& c, const std::string& text, std::size_t chunk = 5) {
  INFO(c.path.string());
  const auto compiled = glr::CompiledGrammar::compile(load_model(c), c.options);
  const std::string image = image_of(*compiled);
  const auto read = read_image(image, c);
  REQUIRE(image_of(*read) == image);
  check_recomputed_parts(*compiled, *read);
  const std::size_t committed = check_same_sessions(compiled, read, text, chunk);
  // The texts are sentences: a refusal would leave most of the comparison out.
  REQUIRE(committed == text.size());
}

Case fixture(const std::string& name, glr::ParseOptions options = {}) {
  return {glrmask::testing::fixtures_dir() / name, std::move(options)};
}

// The smallest fixture, for the exhaustive damage tests.
Case small_case() {
  return fixture("glr/tiny_cc.lark");
}

// Runs a short session on a grammar read from damaged bytes; it must not crash (glrmask::Error is
// an allowed answer, anything else fails). `pieces` are committed one by one; each is also tried.
void exercise(const std::shared_ptr<const glr::CompiledGrammar>& grammar,
              const std::vector<std::string>& pieces) {
  try {
    glr::Session session(grammar);
    for (const std::string& piece : pieces) (void)session.accepts_bytes(piece);
    (void)session.accepts_bytes("\x01 x");
    for (const std::string& piece : pieces)
      if (!session.try_commit_bytes(piece)) break;
    (void)session.is_accepting();
    (void)session.can_continue();
  } catch (const Error&) {
  }
}

// Flips each byte of the grammar's image at a stride (xor 0x01, then xor 0xff), reads it and runs
// a session on what reads. Returns {refused, read}.
std::pair<std::size_t, std::size_t> damage(const Case& c, const std::vector<std::string>& pieces,
                                           std::size_t stride) {
  const std::string image = image_of(*glr::CompiledGrammar::compile(load_model(c), c.options));
  const GrammarModel model = load_model(c);
  std::size_t refused = 0;
  std::size_t read = 0;
  for (const std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0xff}}) {
    for (std::size_t at = 0; at < image.size(); at += stride) {
      std::string damaged = image;
      damaged[at] = static_cast<char>(static_cast<std::uint8_t>(damaged[at]) ^ mask);
      INFO(c.path.string() << ": byte " << at << " of " << image.size() << " xor " << int{mask});
      BinaryReader in(damaged, "damaged image");
      std::shared_ptr<const glr::CompiledGrammar> grammar;
      try {
        grammar = glr::read_compiled_grammar(in, model, c.options);
      } catch (const Error& e) {
        REQUIRE(e.code() == ErrorCode::kArtifact);
        ++refused;
        continue;
      }
      ++read;
      exercise(grammar, pieces);
    }
  }
  return {refused, read};
}

}  // namespace

TEST_CASE("grammar image: fixture grammars round trip with identical tables and sessions",
          "[glr][image]") {
  glr::ParseOptions lark;
  lark.policy = glr::ConflictPolicy::kLark;
  check_round_trip(small_case(), "ccdcd");
  check_round_trip(fixture("glr/expr_ambiguous.lark"), "(id+id)*id+id");
  check_round_trip(fixture("glr/dangling_else.lark", lark), "iiaea");
  // Normalized (hidden left recursion) under the GLR policy; refused and kept under Lark's.
  check_round_trip(fixture("glr_session/hidden_left_recursion.lark"), "n n y x x");
  check_round_trip(fixture("glr_session/cyclic.lark", lark), "a a a");
  check_round_trip(fixture("glr_session/cyclic.lark"), "a a a");
  // An unrealizable rule (a shadowed keyword).
  check_round_trip(fixture("glr_session/shadowed_keyword.lark"), "@ a join b as c");
  glr::ParseOptions skippable = lark;
  skippable.skippable = {"EOS"};
  check_round_trip(fixture("glr_session/skippable_eos.lark", skippable), "a;{b\n}\nc\n");
  glr::ParseOptions python;
  python.postlex = glr::PostLexer::kPythonIndenter;
  check_round_trip(fixture("indenter/blocks.lark", python), "a:\n  b\n  c\nd\n");
}

TEST_CASE("grammar image: the SynCode grammars round trip with identical sessions over programs",
          "[glr][image]") {
  if (!glrmask::testing::require_data_dir("grammar image round trip of the SynCode grammars"))
    return glrmask::testing::skip_test_case();
  const std::filesystem::path grammars = data_dir() / "grammars" / "syncode";
  const std::filesystem::path programs = data_dir() / "programs";
  // The first program the corpus says the grammar accepts (parses.txt), cut after `limit` bytes
  // (a prefix of a sentence is viable, so every commit must succeed).
  const auto first_program = [&](const std::string& language, std::size_t limit) {
    const std::string parses = read_file(programs / language / "parses.txt");
    return read_file(programs / language / parses.substr(0, parses.find('\n'))).substr(0, limit);
  };
  check_round_trip({grammars / "java_grammar.lark", {}}, first_program("java", 400), 7);
  glr::ParseOptions python;
  python.postlex = glr::PostLexer::kPythonIndenter;
  check_round_trip({grammars / "python_grammar.lark", python}, first_program("python", 400), 7);
  glr::ParseOptions go;
  go.policy = glr::ConflictPolicy::kLark;
  go.skippable = {"EOS"};
  check_round_trip({grammars / "go_grammar.lark", go}, first_program("go", 400), 7);
  check_round_trip({grammars / "json_grammar.lark", {}},
                   "{\"name\": [1, -2.5e3, true, null, {\"x\": \"y\\n\"}], \"b\": {}}", 3);
  // The first query the corpus says the grammar accepts.
  std::string sql;
  {
    const std::string parses = read_file(programs / "sql" / "parses.txt");
    const std::string first = parses.substr(0, parses.find('\n'));
    const std::size_t line = std::stoul(first.substr(first.find(':') + 1));
    std::istringstream queries(read_file(programs / "sql" / "queries.sql"));
    for (std::size_t i = 0; i < line; ++i) std::getline(queries, sql);
  }
  check_round_trip({grammars / "sql_grammar.lark", {}}, sql, 5);
}

TEST_CASE("grammar image: an image of another grammar or other options is refused",
          "[glr][image]") {
  const auto compiled = glr::CompiledGrammar::compile(load_model(small_case()));
  const std::string image = image_of(*compiled);
  const auto refused = [&](const Case& c) {
    INFO(c.path.string());
    REQUIRE_THROWS_AS(read_image(image, c), Error);
    try {
      read_image(image, c);
    } catch (const Error& e) {
      REQUIRE(e.code() == ErrorCode::kArtifact);
    }
  };
  refused(fixture("glr/dragon_lalr.lark"));
  glr::ParseOptions lark;
  lark.policy = glr::ConflictPolicy::kLark;
  refused(fixture("glr/tiny_cc.lark", lark));
  REQUIRE_NOTHROW(read_image(image, small_case()));
}

TEST_CASE("grammar image: a truncated image is refused at every length", "[glr][image]") {
  const Case c = small_case();
  const std::string image = image_of(*glr::CompiledGrammar::compile(load_model(c)));
  const GrammarModel model = load_model(c);
  for (std::size_t length = 0; length < image.size(); ++length) {
    BinaryReader in(std::string_view(image).substr(0, length), "truncated image");
    INFO("length " << length << " of " << image.size());
    REQUIRE_THROWS_AS(glr::read_compiled_grammar(in, model, c.options), Error);
  }
}

TEST_CASE("grammar image: a damaged image is refused or reads as an in-bounds grammar",
          "[glr][image]") {
  // Every byte of the smallest fixture's image (about 6 kB).
  const auto [refused, read] = damage(small_case(), {"c", "c", "d", "cd"}, 1);
  // Both outcomes occur: statistics, strings and some table entries read as another grammar,
  // offsets and ids out of range are refused.
  CHECK(refused > 0);
  CHECK(read > 0);
  // A grammar with the indenter, ignored terminals and a lexer tie, at a stride.
  glr::ParseOptions python;
  python.postlex = glr::PostLexer::kPythonIndenter;
  const auto [refused_python, read_python] =
      damage(fixture("indenter/blocks.lark", python), {"a:\n", "  b # c\n", "  (d,\ne)\n"}, 31);
  CHECK(refused_python > 0);
  CHECK(read_python > 0);
}

}  // namespace grammar_image_test
