// Fuzz target: a decoding session on small grammars (fixtures of tests/fixtures/glr_session/ with
// ambiguity, cycles, ε-rules, hidden recursion, lexical ties and fall-back) over a small raw
// vocabulary (single bytes, tokens that span lexemes, partial UTF-8), fed a fuzzed token stream.
// At every step the wfa engine's and the spanner engine's masks must equal the oracle's, bit for
// bit, and a committed token must be accepted exactly when the oracle allows it.
//
// Input: the first byte picks the grammar; each further byte picks the next token: below 0xC0 an
// allowed token (the byte modulo their number), otherwise any token, which the session must
// refuse exactly when the oracle's mask leaves it out.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/spanner/spanner_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using glrmask::TokenId;

constexpr const char* kGrammars[] = {
    "ambiguous_sum",         "cyclic",
    "epsilon_rules",         "fallback_dots",
    "hidden_left_recursion", "hidden_right_recursion",
    "ignored_tie",           "indirect_hidden_left_recursion",
    "keyword_ties",          "nullable_cycles",
    "start_state_lookalike", "unit_cycle",
};
constexpr std::size_t kGrammarCount = sizeof kGrammars / sizeof kGrammars[0];

glrmask::Vocabulary make_vocabulary() {
  std::vector<std::string> pieces;
  for (int c = 0x20; c < 0x7f; ++c) pieces.emplace_back(1, static_cast<char>(c));
  pieces.emplace_back("\n");
  for (const char* piece : {"ab",
                            "..",
                            "...",
                            "1+",
                            "+1",
                            " +",
                            "+ ",
                            "12",
                            "if",
                            "if ",
                            "x=",
                            "aab",
                            "ba",
                            "#a",
                            "a;",
                            "yx",
                            "nn",
                            "\xc3",
                            "\xa9",
                            "\xc3\xa9",
                            "a\xc3",
                            "\xa9"
                            "a",
                            "  "})
    pieces.emplace_back(piece);
  const auto eos = static_cast<TokenId>(pieces.size());
  pieces.emplace_back("</s>");
  const std::vector<TokenId> special{eos};
  return glrmask::Vocabulary::from_pieces("fuzz", pieces, glrmask::VocabularyKind::Raw, special,
                                          eos);
}

struct Engines {
  std::shared_ptr<const glrmask::glr::CompiledGrammar> grammar;
  std::unique_ptr<glrmask::mask::WfaEngine> wfa;
  std::unique_ptr<glrmask::mask::SpannerEngine> spanner;
};

const glrmask::Vocabulary& vocabulary() {
  static const glrmask::Vocabulary instance = make_vocabulary();
  return instance;
}

// Built on first use: each grammar compiled once per process.
Engines& engines(std::size_t index) {
  static std::vector<std::optional<Engines>> all(kGrammarCount);
  std::optional<Engines>& slot = all[index];
  if (!slot) {
    slot.emplace();
    slot->grammar = glrmask::glr::CompiledGrammar::load_lark(
        std::string(GLRMASK_FIXTURES_DIR) + "/glr_session/" + kGrammars[index] + ".lark");
    slot->wfa = std::make_unique<glrmask::mask::WfaEngine>(slot->grammar, vocabulary());
    slot->spanner = std::make_unique<glrmask::mask::SpannerEngine>(slot->grammar, vocabulary());
  }
  return *slot;
}

std::vector<std::uint32_t> mask_of(glrmask::mask::MaskEngine& engine,
                                   const glrmask::glr::Session& session) {
  std::vector<std::uint32_t> words((vocabulary().size() + 31) / 32);
  engine.fill_mask(session, words);
  return words;
}

bool test_bit(const std::vector<std::uint32_t>& words, TokenId id) {
  return ((words[id / 32] >> (id % 32)) & 1u) != 0;
}

}  // namespace

// libFuzzer calls this once before the first input: every grammar is compiled here, so that an
// input's time, which -timeout bounds, is its own and not the first compile of the grammar it
// picks (under the sanitizers at a low priority that compile took over 20 seconds).
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  for (std::size_t index = 0; index < kGrammarCount; ++index) engines(index);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 64) return 0;
  Engines& e = engines(data[0] % kGrammarCount);
  const glrmask::Vocabulary& v = vocabulary();
  static glrmask::mask::OracleEngine oracle(v, {.sequential = true});
  glrmask::glr::Session session(e.grammar, &v);
  for (std::size_t i = 1; i < size; ++i) {
    const std::vector<std::uint32_t> expected = mask_of(oracle, session);
    if (mask_of(*e.wfa, session) != expected)
      glrmask::fuzz::fail("wfa", "mask differs from the oracle's");
    if (mask_of(*e.spanner, session) != expected)
      glrmask::fuzz::fail("spanner", "mask differs from the oracle's");
    std::vector<TokenId> allowed;
    for (TokenId id = 0; id < v.size(); ++id)
      if (test_bit(expected, id)) allowed.push_back(id);
    TokenId token;
    if (data[i] < 0xc0) {
      if (allowed.empty()) glrmask::fuzz::fail("oracle", "no token allowed before EOS");
      token = allowed[data[i] % allowed.size()];
    } else {
      token = static_cast<TokenId>((data[i] - 0xc0u) * v.size() / 0x40u);
    }
    if (token == *v.eos()) {
      if (test_bit(expected, token) != session.is_accepting())
        glrmask::fuzz::fail("oracle", "EOS in the mask differs from the session's is_accepting()");
      if (session.is_accepting()) break;
      continue;
    }
    if (session.try_commit_bytes(v.bytes(token)) != test_bit(expected, token))
      glrmask::fuzz::fail("session", "a token's commit disagrees with the oracle's mask");
  }
  return 0;
}
