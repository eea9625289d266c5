// Bit-for-bit comparison of a mask engine with the oracle (the definition of a mask), shared by
// the engine tests: at every viable short prefix of a small grammar with a hand-made vocabulary,
// and at every teacher-forced step of a real text with a real tokenizer (through the library's
// teacher-forcing loop, as the studies and `glrmask mask` run it).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "glrmask/glrmask.hpp"
#include "harness/engine_constraint.h"
#include "harness/teacher_forcing.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/glr_session_support.h"
#include "tests/support/wfa_test_support.h"

namespace glrmask::testing {

using EngineFactory = std::function<std::unique_ptr<mask::MaskEngine>(
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
  mask::OracleEngine oracle(vocabulary, {.sequential = true});
  const std::unique_ptr<mask::MaskEngine> engine = make(grammar, vocabulary);
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
inline std::unique_ptr<mask::MaskEngine> make_wfa(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, const Vocabulary& vocabulary) {
  return std::make_unique<mask::WfaEngine>(grammar, vocabulary);
}

// Teacher-forces `text` through the library's teacher-forcing loop (harness/teacher_forcing.h)
// and compares each of `engines` with the oracle at every step, the final one (EOS) included, or
// at the first `max_steps` + 1 steps when the text is longer: the oracle's matcher leads, a matcher
// per engine follows and answers each step through fill_mask() (compared by the loop) and then
// through its view (compared here; from the engine's cache where it keeps one). One oracle mask
// serves every engine, so a slow oracle is paid once a step. Returns the steps compared.
inline std::size_t compare_teacher_forced(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar,
    std::initializer_list<mask::MaskEngine*> engines, mask::MaskEngine& oracle,
    const Vocabulary& vocabulary, const Encoder& encoder, const std::string& text,
    std::size_t max_steps = static_cast<std::size_t>(-1)) {
  INFO("text " << text.substr(0, 200));
  const std::vector<TokenId> encoded = encoder.encode(text);
  const std::vector<std::int32_t> ids(encoded.begin(), encoded.end());
  const Tokenizer tokenizer = tokenizer_over(vocabulary);
  const Constraint reference = constraint_over_engine(tokenizer, grammar, oracle);
  std::vector<Constraint> constraints;
  for (mask::MaskEngine* engine : engines)
    constraints.push_back(constraint_over_engine(tokenizer, grammar, *engine));
  Matcher leader(reference);
  std::vector<Matcher> matchers(constraints.begin(), constraints.end());
  std::vector<Matcher*> followers;
  for (Matcher& matcher : matchers) followers.push_back(&matcher);
  TeacherForcingOptions options;
  options.mask_call = MaskCall::kFill;
  if (max_steps < ids.size()) options.max_steps = max_steps + 1;
  std::uint64_t view_mismatches = 0;
  std::string first_view_mismatch;
  const ForcedRun run = teacher_force(leader, ids, options, followers, [&](const ForcedStep& step) {
    for (std::size_t f = 0; f < followers.size(); ++f) {
      const std::span<const std::uint32_t> view = followers[f]->next_token_mask();
      if (std::equal(view.begin(), view.end(), step.mask.begin(), step.mask.end())) continue;
      if (view_mismatches++ == 0)
        first_view_mismatch = "the view of engine " + std::to_string(f) + " at step " +
                              std::to_string(step.step) + ", byte " +
                              std::to_string(step.byte_offset);
    }
    return true;
  });
  for (const MaskMismatch& mismatch : run.mismatches) {
    std::string tokens;
    for (const MaskMismatch::Token& token : mismatch.first)
      tokens += " " + std::to_string(token.id) + " \"" +
                std::string(vocabulary.bytes(static_cast<TokenId>(token.id))) + "\" (" +
                (token.in_leader ? "oracle only" : "engine only") + ")";
    INFO("engine " << mismatch.follower << " at step " << mismatch.step << ", byte "
                   << mismatch.byte_offset << ": " << mismatch.differing
                   << " tokens differ:" << tokens);
    CHECK(mismatch.differing == 0);
  }
  CHECK(run.mismatch_steps == 0);
  INFO(first_view_mismatch);
  CHECK(view_mismatches == 0);
  if (run.failure)
    FAIL("step " << run.failure->step << ", byte " << run.failure->byte_offset << ", token "
                 << run.failure->token << ": " << run.failure->reason);
  return run.steps;
}

inline std::size_t compare_teacher_forced(
    const std::shared_ptr<const glr::CompiledGrammar>& grammar, mask::MaskEngine& engine,
    mask::MaskEngine& oracle, const Vocabulary& vocabulary, const Encoder& encoder,
    const std::string& text, std::size_t max_steps = static_cast<std::size_t>(-1)) {
  return compare_teacher_forced(grammar, {&engine}, oracle, vocabulary, encoder, text, max_steps);
}

}  // namespace glrmask::testing
