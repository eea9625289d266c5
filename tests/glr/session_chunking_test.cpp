// Chunking invariance: committing a text in one piece, byte by byte, in arbitrary pieces, or as
// the real Llama-3 tokens of the text gives the same verdict and the same error offset.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/glr_session_support.h"

using namespace glrmask;
using glrmask::testing::read_file;
using glrmask::testing::Verdict;
using glrmask::testing::verdict_byte_by_byte;
using glrmask::testing::verdict_of;
using glrmask::testing::verdict_of_pieces;

namespace {

using RecognizerPtr = std::shared_ptr<const glr::IncrementalRecognizer>;

RecognizerPtr fixture_recognizer(const std::string& name, glr::ParseOptions options = {}) {
  return std::make_shared<const glr::IncrementalRecognizer>(
      glrmask::testing::load_session_fixture(name, options));
}

// Pieces of 1 to 7 bytes, deterministic per seed.
std::vector<std::string_view> random_pieces(std::string_view text, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> length(1, 7);
  std::vector<std::string_view> pieces;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = std::min(length(random), text.size() - at);
    pieces.push_back(text.substr(at, n));
    at += n;
  }
  return pieces;
}

void check_invariance(const RecognizerPtr& recognizer, const std::string& text) {
  INFO("text: " << text.substr(0, 200));
  const Verdict whole = verdict_of(recognizer, text);
  INFO("whole: " << whole);
  CHECK(verdict_byte_by_byte(recognizer, text) == whole);
  for (unsigned seed = 1; seed <= 3; ++seed)
    CHECK(verdict_of_pieces(recognizer, random_pieces(text, seed)) == whole);
}

Verdict verdict_of_tokens(const RecognizerPtr& recognizer, const Vocabulary& vocabulary,
                          const std::vector<TokenId>& ids) {
  glr::Session session(recognizer, &vocabulary, {.max_rollback = 0});
  try {
    for (const TokenId id : ids) session.commit(id);
    session.commit(*vocabulary.eos());
  } catch (const Error& error) {
    return {false, glrmask::testing::error_offset(error.what()), error.what()};
  }
  return {true, -1, ""};
}

}  // namespace

TEST_CASE("fixtures: one piece, bytes and random pieces agree") {
  struct Case {
    const char* fixture;
    std::vector<std::string> texts;
    std::vector<std::string> skippable;
  };
  const Case cases[] = {
      {"ambiguous_sum.lark", {"1 + 22 + 3", "1 + + 2", "12 3", "1 +", "+"}, {}},
      {"keyword_ties.lark", {"if a b = c if x", "if = if", "if if", "a = b c", "iff x"}, {}},
      {"fallback_dots.lark", {"a.b ...c", "a..b", "a . . b", "...", "a...b", "a....b"}, {}},
      {"ignored_tie.lark", {"a #b c;", "#x a;", "a ;#", "a b # ;"}, {}},
      {"skippable_eos.lark", {"{\na\n{\nb\n}\n}\n", "a\n\n}\n", "{a}\n", "{\n"}, {"EOS"}},
      {"hidden_left_recursion.lark", {"n n y x x", "n y x x", "y", "n n y x"}, {}},
  };
  for (const Case& c : cases) {
    const auto recognizer = fixture_recognizer(c.fixture, {.skippable = c.skippable});
    for (const std::string& text : c.texts) check_invariance(recognizer, text);
  }
}

TEST_CASE("real programs: one piece, bytes, random pieces and Llama-3 tokens agree") {
  if (!glrmask::testing::require_data_dir("glr_session_chunking_test (real programs)"))
    return glrmask::testing::skip_test_case();
  const bool have_tokenizer = glrmask::testing::require_tokenizer("llama3");
  std::optional<Vocabulary> vocabulary;
  std::optional<Encoder> encoder;
  if (have_tokenizer) {
    vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
    encoder = Encoder::load(resolve_tokenizer("llama3"));
  }
  const auto syncode = data_dir() / "grammars" / "syncode";
  const auto programs = data_dir() / "programs";
  struct Corpus {
    std::string grammar;
    std::vector<std::string> skippable;
    std::vector<std::string> texts;
  };
  std::vector<Corpus> corpora;
  {
    Corpus go{"go_grammar.lark", {"EOS"}, {}};
    for (const auto& entry : std::filesystem::directory_iterator(programs / "go"))
      if (entry.path().extension() == ".go") go.texts.push_back(read_file(entry.path()));
    corpora.push_back(std::move(go));
    Corpus sql{"sql_grammar.lark", {}, {}};
    for (const auto* file : {"queries.sql", "rejected_by_grammar.sql"}) {
      std::istringstream in(read_file(programs / "sql" / file));
      for (std::string line; std::getline(in, line);) sql.texts.push_back(line);
    }
    corpora.push_back(std::move(sql));
  }
  for (Corpus& corpus : corpora) {
    const auto recognizer = std::make_shared<const glr::IncrementalRecognizer>(
        glr::CompiledGrammar::load_lark(syncode / corpus.grammar, {.skippable = corpus.skippable}));
    // Each text, and the text with its middle byte deleted (mostly an error somewhere inside).
    std::vector<std::string> texts;
    for (const std::string& text : corpus.texts) {
      texts.push_back(text);
      texts.push_back(text.substr(0, text.size() / 2) + text.substr(text.size() / 2 + 1));
    }
    std::size_t rejected = 0;
    for (const std::string& text : texts) {
      INFO(corpus.grammar << ": " << text.substr(0, 120));
      const Verdict whole = verdict_of(recognizer, text);
      INFO("whole: " << whole);
      rejected += whole.accepted ? 0 : 1;
      CHECK(verdict_byte_by_byte(recognizer, text) == whole);
      CHECK(verdict_of_pieces(recognizer, random_pieces(text, 7)) == whole);
      if (have_tokenizer)
        CHECK(verdict_of_tokens(recognizer, *vocabulary, encoder->encode(text)) == whole);
    }
    CHECK(rejected > 0);
    CHECK(rejected < texts.size());
  }
}
