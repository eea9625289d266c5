// Bit-for-bit comparison of a mask engine with the oracle (the definition of a mask), shared by
// the engine tests: at every viable short prefix of a small grammar with a hand-made vocabulary,
// and at every teacher-forced step of a real text with a real tokenizer.
#pragma once

#include <catch2/catch.hpp>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/wfa_test_support.h"
#include "wfa/mask_engine.h"
#include "wfa/oracle_engine.h"
#include "wfa/wfa_engine.h"

namespace glrmask::testing {

using EngineFactory = std::function<std::unique_ptr<wfa::MaskEngine>(
    const std::shared_ptr<const glr::CompiledGrammar>&, const Vocabulary&)>;

// Checks that the masks agree token for token; names the first few differing tokens.
inline void require_equal_masks(const DenseMask& actual, const DenseMask& expected,
                                const Vocabulary& vocabulary) {
  if (actual != expected) {
    int shown = 0;
    for (TokenId id = 0; id < vocabulary.size() && shown < 5; ++id) {
      if (actual.test(id) == expected.test(id)) continue;
      INFO("token " << id << " \"" << vocabulary.bytes(id) << "\" oracle " << expected.test(id));
      CHECK(actual.test(id) == expected.test(id));
      ++shown;
    }
  }
  REQUIRE(actual == expected);
}

// Every string of 1 or 2 alphabet bytes and the runs of three, so tokens cross lexeme
// boundaries, emit several labels and end inside lexemes.
inline Vocabulary prefix_vocabulary(const std::string& alphabet) {
  std::vector<std::string> tokens;
  for (const std::string& s : strings_up_to(alphabet, 2))
    if (!s.empty()) tokens.push_back(s);
  for (const char c : alphabet) tokens.push_back(std::string(3, c));
  return tiny_vocabulary(tokens);
}

// Compares the engine with the oracle after every viable prefix of length <= max_prefix, over
// prefix_vocabulary(alphabet). Returns the prefixes compared.
inline std::size_t compare_on_prefixes(const EngineFactory& make, const std::string& fixture,
                                       const std::string& alphabet, std::size_t max_prefix,
                                       glr::ParseOptions options = {}) {
  INFO("fixture " << fixture);
  const auto grammar = load_session_fixture(fixture, options);
  const Vocabulary vocabulary = prefix_vocabulary(alphabet);
  wfa::OracleEngine oracle(vocabulary, {.sequential = true});
  const std::unique_ptr<wfa::MaskEngine> engine = make(grammar, vocabulary);
  std::size_t prefixes = 0;
  std::size_t allowed = 0;
  std::size_t refused = 0;
  for (const std::string& prefix : strings_up_to(alphabet, max_prefix)) {
    glr::Session session(grammar, &vocabulary);
    if (!session.try_commit_bytes(prefix)) continue;
    INFO("prefix \"" << prefix << "\"");
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    // The view first, so it meets the steps as they come (cached or not); fill_mask() then
    // answers the same step again, from the cache where the engine keeps one.
    require_equal_masks(engine_mask_view(*engine, session, vocabulary), expected, vocabulary);
    require_equal_masks(engine_mask(*engine, session, vocabulary), expected, vocabulary);
    allowed += expected.count();
    refused += vocabulary.size() - expected.count();
    ++prefixes;
  }
  CHECK(prefixes > 5);
  CHECK(allowed > 0);
  CHECK(refused > 0);
  return prefixes;
}

// The wfa engine, in the factory shape compare_on_prefixes() takes.
inline std::unique_ptr<wfa::MaskEngine> make_wfa(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary) {
  return std::make_unique<wfa::WfaEngine>(grammar, vocabulary);
}

// Teacher-forces `text` and compares each of `engines` with the oracle at every step, the final
// one (EOS) included, or at the first `max_steps` steps when that is smaller; each engine answers
// a step through mask_view() and then fill_mask(). One oracle mask serves every engine, so a
// slow oracle is paid once a step. Returns the steps compared.
inline std::size_t compare_teacher_forced(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar,
    std::initializer_list<wfa::MaskEngine*> engines, wfa::MaskEngine& oracle,
    const Vocabulary& vocabulary, const Encoder& encoder, const std::string& text,
    std::size_t max_steps = static_cast<std::size_t>(-1)) {
  INFO("text " << text.substr(0, 200));
  std::vector<TokenId> ids = encoder.encode(text);
  const bool whole = ids.size() < max_steps;
  if (!whole) ids.resize(max_steps);
  glr::Session session(grammar, &vocabulary);
  std::string committed;
  for (std::size_t step = 0; step <= ids.size(); ++step) {
    INFO("step " << step << " of " << ids.size() << ", after \""
                 << committed.substr(committed.size() > 80 ? committed.size() - 80 : 0) << "\"");
    const DenseMask expected = engine_mask(oracle, session, vocabulary);
    for (wfa::MaskEngine* engine : engines) {
      require_equal_masks(engine_mask_view(*engine, session, vocabulary), expected, vocabulary);
      require_equal_masks(engine_mask(*engine, session, vocabulary), expected, vocabulary);
    }
    if (step == ids.size()) {
      if (whole)
        if (const auto eos = vocabulary.eos()) CHECK(expected.test(*eos));
      break;
    }
    REQUIRE(expected.test(ids[step]));
    session.commit(ids[step]);
    committed += vocabulary.bytes(ids[step]);
  }
  return ids.size() + 1;
}

inline std::size_t compare_teacher_forced(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, wfa::MaskEngine& engine,
    wfa::MaskEngine& oracle, const Vocabulary& vocabulary, const Encoder& encoder,
    const std::string& text, std::size_t max_steps = static_cast<std::size_t>(-1)) {
  return compare_teacher_forced(grammar, {&engine}, oracle, vocabulary, encoder, text, max_steps);
}

}  // namespace glrmask::testing
