// The library facade (api/): a matcher's bitmask against the oracle at every viable prefix of the
// project's fixture grammars, with each engine; accepting, refusing (state unchanged), rollback,
// reset, clone, stop ids, padded rows, batches and the typed errors.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "api/src/constraint_impl.h"
#include "api/src/tokenizer_impl.h"
#include "glr/session.h"
#include "glrmask/glrmask.hpp"
#include "harness/engine_constraint.h"
#include "harness/teacher_forcing.h"
#include "lib/core/file_io.h"
#include "lib/token_set/dense_mask.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/artifact_reseal.h"
#include "tests/support/facade_test_support.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_test_support.h"

namespace glrmask {
namespace {

using testing::fixtures_dir;

using testing::bit;
using testing::compare_with_oracle;
using testing::fixture_tokenizer;
using testing::fixture_vocab;
using testing::FixtureVocab;
using testing::oracle_mask;

TEST_CASE(
    "api: a staged constraint's matchers answer from the lazy engine, then from the wfa's "
    "automata built once for all of them, exactly") {
  const FixtureVocab vocab = fixture_vocab("12+ ");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const std::filesystem::path grammar = fixtures_dir() / "glr_session" / "ambiguous_sum.lark";
  const Constraint staged =
      Constraint::from_lark_file(grammar, tokenizer, {}, {.engine = Engine::kStaged});
  const Constraint wfa =
      Constraint::from_lark_file(grammar, tokenizer, {}, {.engine = Engine::kWfa});
  REQUIRE(staged.engine() == Engine::kStaged);
  // Nothing is built before a first mask has been answered.
  CHECK_FALSE(staged.impl().staged_build->ready());
  CHECK(staged.statistics().automaton_states == 0);
  auto rows_equal = [&](const std::string& prefix) {
    Matcher a(staged), b(wfa);
    REQUIRE(a.accept_bytes(prefix) == b.accept_bytes(prefix));
    std::vector<std::uint32_t> row_a(a.bitmask_words()), row_b(b.bitmask_words());
    a.fill_next_token_bitmask(row_a);
    b.fill_next_token_bitmask(row_b);
    return row_a == row_b;
  };
  CHECK(rows_equal("1+"));
  // One build for the constraint, whichever matcher started it; then every engine switches.
  const std::shared_ptr<const mask::CompiledMask> built = staged.impl().staged_build->wait();
  REQUIRE(built != nullptr);
  CHECK(built->parser_dwa().num_states() == wfa.impl().compiled->parser_dwa().num_states());
  for (const std::string prefix : {"", "1", "1+2", "12 + 1", "1+2+"}) {
    INFO("prefix \"" << prefix << "\"");
    CHECK(rows_equal(prefix));
  }
}

TEST_CASE(
    "api: a saved constraint loads with its engine, gives the same masks, and is refused "
    "for another tokenizer or grammar") {
  const FixtureVocab vocab = fixture_vocab("ab: \n");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Tokenizer other = fixture_tokenizer(fixture_vocab("abc: \n"));
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("glrmask_api_saved_" + std::to_string(::getpid()));
  for (const Engine engine :
       {Engine::kWfa, Engine::kSpanner, Engine::kOracle, Engine::kLazy, Engine::kStaged}) {
    INFO(static_cast<int>(engine));
    const Constraint constraint =
        Constraint::from_lark("start: \"a\"+ \" \"? \"b\"\n", tokenizer, {}, {.engine = engine});
    constraint.save(path);
    const Constraint loaded = Constraint::load(path, tokenizer);
    // A staged constraint is saved with the automata it switches to.
    CHECK(loaded.engine() == (engine == Engine::kStaged ? Engine::kWfa : engine));
    for (const std::string prefix : {"", "a", "aa ", "ab"}) {
      Matcher a(constraint), b(loaded);
      REQUIRE(a.accept_bytes(prefix));
      REQUIRE(b.accept_bytes(prefix));
      std::vector<std::uint32_t> row_a(a.bitmask_words()), row_b(b.bitmask_words());
      a.fill_next_token_bitmask(row_a);
      b.fill_next_token_bitmask(row_b);
      CHECK(row_a == row_b);
    }
    try {
      (void)Constraint::load(path, other);
      FAIL("an artifact loaded for another tokenizer");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::kArtifact);
      CHECK(std::string(e.what()).find("tokenizer") != std::string::npos);
    }
  }
  std::filesystem::remove(path);
}

TEST_CASE(
    "api: a JSON constraint keeps its property order through save and load, and a version 1 source "
    "reads as schema order") {
  std::vector<std::string> pieces;
  for (int b = 0; b < 256; ++b) pieces.emplace_back(1, static_cast<char>(b));
  pieces.push_back("<eos>");
  const Tokenizer tokenizer = Tokenizer::from_vocab(pieces, VocabType::kRaw, {256});
  const std::string schema =
      R"({"type": "object", "required": ["a", "b"],
          "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}})";
  const std::string reordered = R"({"b": 1, "a": 2})";
  const Constraint schema_order = Constraint::from_json_schema(schema, tokenizer);
  CHECK_FALSE(Matcher(schema_order).accept_bytes(reordered));
  const Constraint any_order =
      Constraint::from_json_schema(schema, tokenizer, {.property_order = JsonPropertyOrder::kAny});
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("glrmask_api_order_" + std::to_string(::getpid()));
  any_order.save(path);
  for (const Constraint& constraint : {any_order, Constraint::load(path, tokenizer)}) {
    CHECK(constraint.description().find("any order") != std::string::npos);
    Matcher matcher(constraint);
    CHECK(matcher.accept_bytes(reordered));
    CHECK(matcher.is_accepting());
    CHECK_FALSE(Matcher(constraint).accept_bytes(R"({"b": 1, "b": 2})"));
  }
  std::filesystem::remove(path);

  // What version 2 wrote: the same fields without the default draft, the format flag and the
  // registered documents (one byte, one byte and a count of 0); version 1 had no property order.
  ConstraintSource source = any_order.impl().source;
  std::string bytes = source.serialize();
  REQUIRE(bytes.substr(0, 4) == std::string("\x03\0\0\0", 4));
  bytes.resize(bytes.size() - 10);
  bytes[0] = 2;
  const ConstraintSource v2 = ConstraintSource::parse(bytes, "v2");
  CHECK(v2.json.property_order == JsonPropertyOrder::kAny);
  CHECK(v2.json.default_draft == JsonDraft::k2020_12);
  CHECK(v2.json.assert_format);
  CHECK(v2.json.documents.empty());
  bytes[0] = 1;
  bytes.pop_back();
  CHECK(ConstraintSource::parse(bytes, "v1").json.property_order == JsonPropertyOrder::kSchema);
  bytes.push_back(2);  // an order past kAny
  bytes[0] = 2;
  CHECK_THROWS_AS(ConstraintSource::parse(bytes, "v2"), Error);
}

TEST_CASE(
    "api: a JSON constraint keeps its default draft, format mode and registered documents through "
    "save and load") {
  std::vector<std::string> pieces;
  for (int b = 0; b < 256; ++b) pieces.emplace_back(1, static_cast<char>(b));
  pieces.push_back("<eos>");
  const Tokenizer tokenizer = Tokenizer::from_vocab(pieces, VocabType::kRaw, {256});
  // Draft 7 ignores `maximum` beside the `$ref`; the date format is an annotation.
  const std::string schema =
      R"({"type": "object", "required": ["n", "d"],
          "properties": {"n": {"$ref": "https://example.com/n.json", "maximum": 3},
                         "d": {"type": "string", "format": "date"}}})";
  JsonOptions options;
  options.default_draft = JsonDraft::k7;
  options.assert_format = false;
  options.documents = {{"https://example.com/n.json", R"({"type": "integer"})"}};
  const std::string instance = R"({"n": 5, "d": "x"})";
  CHECK_THROWS_AS(Constraint::from_json_schema(schema, tokenizer), Error);
  const Constraint constraint = Constraint::from_json_schema(schema, tokenizer, options);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("glrmask_api_draft_" + std::to_string(::getpid()));
  constraint.save(path);
  for (const Constraint& each : {constraint, Constraint::load(path, tokenizer)}) {
    const std::string description = each.description();
    CHECK(description.find("default draft 7") != std::string::npos);
    CHECK(description.find("format as annotation") != std::string::npos);
    CHECK(description.find("1 registered document") != std::string::npos);
    Matcher matcher(each);
    CHECK(matcher.accept_bytes(instance));
    CHECK(matcher.is_accepting());
  }
  std::filesystem::remove(path);
  options.default_draft = JsonDraft::k2020_12;
  CHECK_FALSE(
      Matcher(Constraint::from_json_schema(schema, tokenizer, options)).accept_bytes(instance));
  options.default_draft = JsonDraft::k7;
  options.assert_format = true;
  CHECK_FALSE(
      Matcher(Constraint::from_json_schema(schema, tokenizer, options)).accept_bytes(instance));

  // A stored draft past 2020-12 is refused.
  std::string bytes = constraint.impl().source.serialize();
  const std::size_t draft_at = bytes.size() - 8 - (8 + 26) - (8 + 19) - 2;
  REQUIRE(bytes[draft_at] == static_cast<char>(JsonDraft::k7));
  bytes[draft_at] = 9;
  CHECK_THROWS_AS(ConstraintSource::parse(bytes, "v3"), Error);
}

TEST_CASE("api: teacher forcing counts each follower's differing steps and stops at a failure") {
  const FixtureVocab vocab = fixture_vocab("abc");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const auto id_of = [&](const std::string& piece) {
    const auto at = std::find(vocab.pieces.begin(), vocab.pieces.end(), piece);
    REQUIRE(at != vocab.pieces.end());
    return static_cast<std::int32_t>(at - vocab.pieces.begin());
  };
  const Constraint leader_constraint = Constraint::from_lark("start: \"a\"+ \"b\"\n", tokenizer);
  const Constraint same =
      Constraint::from_lark("start: \"a\"+ \"b\"\n", tokenizer, {}, {.engine = Engine::kOracle});
  // Also allows "c" wherever "b" may come: it differs at every step before the "b" ("ac" at the
  // start, "c" after each "a").
  const Constraint wider = Constraint::from_lark("start: \"a\"+ (\"b\" | \"c\")\n", tokenizer);
  const std::vector<std::int32_t> text = {id_of("a"), id_of("aa"), id_of("b")};
  Matcher leader(leader_constraint), agreeing(same), differing(wider);
  std::vector<Matcher*> followers = {&agreeing, &differing};
  std::size_t observed = 0;
  const ForcedRun run = teacher_force(leader, text, {}, followers, [&](const ForcedStep& step) {
    CHECK(step.step == observed++);
    CHECK(step.token == (step.step < text.size() ? text[step.step] : vocab.stop));
    return true;
  });
  CHECK_FALSE(run.failure);
  CHECK(run.steps == 4);  // three tokens and the stop id
  CHECK(observed == 4);
  REQUIRE(run.follower_mismatch_steps.size() == 2);
  CHECK(run.follower_mismatch_steps[0] == 0);
  CHECK(run.follower_mismatch_steps[1] == 3);  // at the start, after "a" and after "aaa"
  CHECK(run.mismatch_steps == 3);
  REQUIRE_FALSE(run.mismatches.empty());
  CHECK(run.mismatches.front().follower == 1);
  CHECK(run.mismatches.front().step == 0);
  CHECK(run.mismatches.size() == 3);
  const auto& first = run.mismatches.front().first;
  CHECK(std::any_of(first.begin(), first.end(), [&](const MaskMismatch::Token& token) {
    return token.id == id_of("ac") && !token.in_leader;
  }));
  const auto& second = run.mismatches[1].first;
  CHECK(std::any_of(second.begin(), second.end(), [&](const MaskMismatch::Token& token) {
    return token.id == id_of("c") && !token.in_leader;
  }));
  CHECK(leader.is_terminated());

  // A token the leader's mask lacks ends the run there, nothing committed at that step.
  Matcher fresh(leader_constraint);
  const std::vector<std::int32_t> wrong = {id_of("a"), id_of("c")};
  const ForcedRun failed = teacher_force(fresh, wrong);
  REQUIRE(failed.failure);
  CHECK(failed.failure->step == 1);
  CHECK(failed.failure->masked);
  CHECK(failed.failure->byte_offset == 1);
  CHECK(fresh.byte_offset() == 1);
}

TEST_CASE("api: a constraint over the caller's engine serves its masks through a matcher") {
  const FixtureVocab vocab = fixture_vocab("ab ");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint reference = Constraint::from_lark("start: \"a\"+ \" \"? \"b\"\n", tokenizer, {},
                                                     {.engine = Engine::kOracle});
  const Constraint over = constraint_over_engine(
      tokenizer, reference.impl().grammar,
      std::make_unique<mask::OracleEngine>(tokenizer.impl().vocabulary,
                                           mask::OracleOptions{.sequential = true}));
  for (const std::string prefix : {"", "a", "aa ", "ab"}) {
    Matcher matcher(over);
    REQUIRE(matcher.accept_bytes(prefix));
    const std::span<const std::uint32_t> view = matcher.next_token_mask();
    CHECK(std::vector<std::uint32_t>(view.begin(), view.end()) ==
          oracle_mask(reference, vocab, prefix));
  }
  // One engine: a second matcher's call while the first holds the view is refused cleanly.
  Matcher holder(over), other(over);
  (void)holder.next_token_mask();
  std::vector<std::uint32_t> row(other.bitmask_words());
  CHECK_THROWS_AS(other.fill_next_token_bitmask(row), Error);
  try {
    over.save(std::filesystem::temp_directory_path() / "glrmask_api_never_written");
    FAIL("a constraint over the caller's engine was saved");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kUnsupported);
  }
}

TEST_CASE("api: a saved constraint damaged behind valid checksums is refused or stays in bounds") {
  // Every 5th byte of a small saved constraint (header, source, grammar image, token sets,
  // automata, export records) changed, the checksums recomputed (each token set's and the
  // file's): Constraint::load refuses it with a kArtifact error, or what it loads fills masks and
  // accepts bytes without reading out of bounds (the sanitizer build runs this too); a damaged
  // token set or lexer state may throw on its use. The masks of such a constraint may differ:
  // only the checksums guard against a change that keeps everything well formed.
  const FixtureVocab vocab = fixture_vocab("ab: \n");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("glrmask_api_damaged_" + std::to_string(::getpid()));
  Constraint::from_lark("start: \"a\"+ \" \"? \"b\"\n", tokenizer, {}, {.engine = Engine::kWfa})
      .save(path);
  const std::string good = read_text_file(path);
  std::size_t refused = 0, loaded = 0, threw_in_use = 0;
  for (std::size_t at = 0; at < good.size(); at += 5) {
    std::string bytes = good;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x5a);
    testing::reseal_artifact_images(bytes);
    testing::reseal_artifact_file(bytes);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    INFO("byte " << at);
    std::optional<Constraint> constraint;
    try {
      constraint.emplace(Constraint::load(path, tokenizer));
    } catch (const Error& e) {
      // kArtifact, or the stored grammar text's own error where the damage hit the source.
      INFO(e.what());
      CHECK((e.code() == ErrorCode::kArtifact || e.code() == ErrorCode::kGrammar));
      ++refused;
      continue;
    }
    ++loaded;
    try {
      Matcher matcher(*constraint);
      std::vector<std::uint32_t> row(matcher.bitmask_words());
      for (const std::string piece : {"", "a", "a", " ", "b"}) {
        if (!matcher.accept_bytes(piece)) break;
        matcher.fill_next_token_bitmask(row);
      }
    } catch (const Error& e) {
      CHECK(e.code() != ErrorCode::kInternal);
      ++threw_in_use;
    }
  }
  std::filesystem::remove(path);
  INFO(refused << " refused, " << loaded << " loaded, " << threw_in_use << " threw in use");
  CHECK(refused > 0);
  CHECK(loaded > 0);
}

TEST_CASE("api: accepting, refusing without a change, rollback, reset and clone") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  // Exactly "ab" or "aab".
  const Constraint constraint = Constraint::from_lark("start: \"a\" \"a\"? \"b\"\n", tokenizer);
  const auto id = [&](std::string_view piece) {
    for (std::size_t i = 0; i < vocab.pieces.size(); ++i)
      if (vocab.pieces[i] == piece) return static_cast<std::int32_t>(i);
    FAIL("no piece " << piece);
    return -1;
  };
  Matcher matcher(constraint);
  CHECK_FALSE(matcher.is_accepting());
  CHECK_FALSE(matcher.accept_token(id("b")));  // refused: nothing changes
  CHECK(matcher.byte_offset() == 0);
  CHECK(matcher.steps() == 0);
  CHECK_FALSE(matcher.accept_token(vocab.stop));  // not complete yet
  CHECK_FALSE(matcher.accept_token(vocab.pad));   // special
  CHECK(matcher.accept_token(id("a")));
  Matcher branch = matcher.clone();
  CHECK(matcher.accept_token(id("b")));
  CHECK(matcher.is_accepting());
  CHECK(branch.accept_token(id("ab")));  // the clone went on independently: "aab"
  CHECK(branch.is_accepting());
  CHECK(branch.byte_offset() == 3);
  CHECK(matcher.byte_offset() == 2);

  // The second stop id ends the text like the first.
  CHECK(matcher.accept_token(vocab.second_stop));
  CHECK(matcher.is_terminated());
  CHECK_FALSE(matcher.is_accepting());
  std::vector<std::int32_t> row(matcher.bitmask_words());
  matcher.fill_next_token_bitmask(row);
  CHECK(std::all_of(row.begin(), row.end(), [](std::int32_t w) { return w == 0; }));
  CHECK_FALSE(matcher.accept_token(id("a")));

  matcher.rollback(2);  // the stop id and "b"
  CHECK(matcher.byte_offset() == 1);
  CHECK_FALSE(matcher.is_terminated());
  CHECK(matcher.accept_token(id("ab")));
  CHECK(matcher.is_accepting());
  CHECK_THROWS_AS(matcher.rollback(matcher.rollback_capacity() + 1), Error);
  matcher.reset();
  CHECK(matcher.byte_offset() == 0);
  CHECK(matcher.rollback_capacity() == 0);

  // Out-of-range ids are the caller's error, not a refusal.
  CHECK_THROWS_AS(matcher.accept_token(static_cast<std::int32_t>(vocab.pieces.size())), Error);
  CHECK_THROWS_AS(matcher.accept_token(-1), Error);
}

TEST_CASE("api: a refused token throws a RejectionError with its offset, token and expectations") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint =
      Constraint::from_lark("start: \"a\" \"a\"? B\nB: \"b\"\n", tokenizer);
  Matcher matcher(constraint);
  matcher.commit_token(0);  // "a"
  const std::int32_t bb = [&] {
    for (std::size_t i = 0; i < vocab.pieces.size(); ++i)
      if (vocab.pieces[i] == "bb") return static_cast<std::int32_t>(i);
    return -1;
  }();
  try {
    matcher.commit_token(bb);
    FAIL("\"abb\" was accepted");
  } catch (const RejectionError& e) {
    CHECK(e.code() == ErrorCode::kRejected);
    CHECK(e.where().token == bb);
    CHECK(e.where().byte_offset == 2);  // the second "b" is the first byte that cannot be
    CHECK(std::string(e.what()).find("byte offset 2") != std::string::npos);
  }
  CHECK(matcher.byte_offset() == 1);  // unchanged
  try {
    matcher.commit_token(vocab.stop);
    FAIL("the stop id was accepted after \"a\"");
  } catch (const RejectionError& e) {
    CHECK(e.where().byte_offset == 1);
    CHECK(e.where().token == vocab.stop);
    REQUIRE_FALSE(e.expected().empty());
    CHECK(std::find(e.expected().begin(), e.expected().end(), "B") != e.expected().end());
  }
}

TEST_CASE("api: a batch fills each row as the single matcher does") {
  const FixtureVocab vocab = fixture_vocab("12+ ");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint =
      Constraint::from_lark_file(fixtures_dir() / "glr_session" / "ambiguous_sum.lark", tokenizer);
  std::vector<Matcher> matchers;
  const std::vector<std::string> texts = {"", "1", "1 +", "12+2", "1+2+", "2 "};
  // Enough rows that the batch outlasts its serial budget and spreads the rest over threads.
  for (std::size_t copy = 0; copy < 500; ++copy) {
    for (const std::string& text : texts) {
      matchers.emplace_back(constraint);
      REQUIRE(matchers.back().accept_bytes(text));
    }
  }
  std::vector<Matcher*> pointers;
  for (Matcher& m : matchers) pointers.push_back(&m);
  pointers.push_back(nullptr);  // a null matcher's row is left as it was
  const std::size_t row_words = matchers.front().bitmask_words() + 1;
  std::vector<std::int32_t> batch(pointers.size() * row_words, 7);
  fill_next_token_bitmasks(pointers, batch, row_words);
  std::vector<std::int32_t> single(row_words);
  for (std::size_t i = 0; i < matchers.size(); ++i) {
    matchers[i].fill_next_token_bitmask(single);
    REQUIRE(std::equal(single.begin(), single.end(), batch.begin() + i * row_words));
  }
  CHECK(std::all_of(batch.end() - static_cast<std::ptrdiff_t>(row_words), batch.end(),
                    [](std::int32_t w) { return w == 7; }));
  CHECK_THROWS_AS(fill_next_token_bitmasks(pointers, batch, row_words - 2), Error);
  CHECK_THROWS_AS(fill_next_token_bitmasks(
                      pointers, std::span<std::int32_t>(batch).first(row_words), row_words),
                  Error);
}

TEST_CASE("api: apply_token_bitmask_inplace masks the logits outside the row") {
  std::vector<float> logits(40, 1.0f);
  const std::vector<std::int32_t> row = {0b101, static_cast<std::int32_t>(0x80000000u)};
  apply_token_bitmask_inplace(logits, row);
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const bool allowed = i == 0 || i == 2 || i == 63;
    CHECK((logits[i] == 1.0f) == allowed);
    if (!allowed) CHECK(std::isinf(logits[i]));
  }
}

}  // namespace
}  // namespace glrmask
