// What a serving stack asks of the facade beyond one mask per step: a model's padded vocabulary,
// tokenizers and constraints as bytes (to reach worker processes), a request's own stop ids, a
// text that ends without a stop id, several tokens accepted at once or not at all, draft tokens
// validated without a change, and the "needs apply" result of a fill.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "glrmask/glrmask.hpp"
#include "lib/core/file_io.h"
#include "tests/support/facade_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

using testing::bit;
using testing::fixture_tokenizer;
using testing::fixture_vocab;
using testing::FixtureVocab;

std::vector<std::uint32_t> mask_of(Matcher& matcher) {
  std::vector<std::uint32_t> row(matcher.bitmask_words());
  matcher.fill_next_token_bitmask(row);
  return row;
}

std::vector<std::int32_t> allowed(Matcher& matcher, std::size_t vocab_size) {
  const std::vector<std::uint32_t> row = mask_of(matcher);
  std::vector<std::int32_t> ids;
  for (std::size_t id = 0; id < vocab_size; ++id)
    if (bit(row, static_cast<std::int32_t>(id))) ids.push_back(static_cast<std::int32_t>(id));
  return ids;
}

std::int32_t id_of(const FixtureVocab& vocab, const std::string& piece) {
  for (std::size_t i = 0; i < vocab.pieces.size(); ++i)
    if (vocab.pieces[i] == piece) return static_cast<std::int32_t>(i);
  FAIL("no token " << piece);
  return -1;
}

ErrorCode code_of(const auto& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.code();
  }
  FAIL("no error");
  return ErrorCode::kInternal;
}

TEST_CASE("api: a padded vocabulary covers the model's logits and never allows the padding") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const std::size_t padded = vocab.pieces.size() + 45;
  const Tokenizer tokenizer = Tokenizer::from_vocab(
      vocab.pieces, VocabType::kRaw, {vocab.stop, vocab.second_stop}, {vocab.pad}, padded);
  CHECK(tokenizer.vocab_size() == padded);
  CHECK(tokenizer.bitmask_words() == (padded + 31) / 32);
  for (std::size_t id = vocab.pieces.size(); id < padded; ++id)
    CHECK(tokenizer.is_special(static_cast<std::int32_t>(id)));
  const Constraint constraint = Constraint::from_regex("(ab)+", tokenizer);
  Matcher matcher(constraint);
  const std::vector<std::int32_t> ids = allowed(matcher, padded);
  CHECK_FALSE(ids.empty());
  for (const std::int32_t id : ids) CHECK(static_cast<std::size_t>(id) < vocab.pieces.size());
  // The same masks as without padding, id for id.
  const Tokenizer plain = fixture_tokenizer(vocab);
  Matcher unpadded(Constraint::from_regex("(ab)+", plain));
  CHECK(allowed(unpadded, vocab.pieces.size()) == ids);
  CHECK(code_of([&] {
          (void)Tokenizer::from_vocab(vocab.pieces, VocabType::kRaw, {vocab.stop}, {},
                                      vocab.pieces.size() - 1);
        }) == ErrorCode::kInvalidArgument);
}

TEST_CASE("api: a tokenizer and a constraint survive serialize and deserialize") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer =
      Tokenizer::from_vocab(vocab.pieces, VocabType::kRaw, {vocab.second_stop, vocab.stop},
                            {vocab.pad}, vocab.pieces.size() + 3);
  const Tokenizer copy = Tokenizer::deserialize(tokenizer.serialize());
  REQUIRE(copy.vocab_size() == tokenizer.vocab_size());
  for (std::size_t id = 0; id < tokenizer.vocab_size(); ++id) {
    const auto i = static_cast<std::int32_t>(id);
    CHECK(copy.token_bytes(i) == tokenizer.token_bytes(i));
    CHECK(copy.is_special(i) == tokenizer.is_special(i));
  }
  CHECK(std::vector<std::int32_t>(copy.stop_ids().begin(), copy.stop_ids().end()) ==
        std::vector<std::int32_t>{vocab.second_stop, vocab.stop});

  // A tokenizer.json read from its file travels as its text, with its encoder.
  const auto json_path =
      testing::fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json";
  const Tokenizer loaded = Tokenizer::load(json_path.string());
  const Tokenizer from_text =
      Tokenizer::from_json(read_text_file(json_path), {}, "tiny",
                           read_text_file(json_path.parent_path() / "tokenizer_config.json"));
  const Tokenizer travelled = Tokenizer::deserialize(loaded.serialize());
  for (const Tokenizer* t : {&from_text, &travelled}) {
    REQUIRE(t->vocab_size() == loaded.vocab_size());
    CHECK(t->can_encode());
    CHECK(t->encode("hello world") == loaded.encode("hello world"));
    CHECK(std::vector<std::int32_t>(t->stop_ids().begin(), t->stop_ids().end()) ==
          std::vector<std::int32_t>(loaded.stop_ids().begin(), loaded.stop_ids().end()));
  }

  // Damaged bytes are refused with the place named, never read past.
  const std::string bytes = tokenizer.serialize();
  for (const std::size_t cut :
       {std::size_t{0}, std::size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
    INFO("cut at " << cut);
    try {
      (void)Tokenizer::deserialize(std::string_view(bytes).substr(0, cut));
      FAIL("a truncated tokenizer was read");
    } catch (const Error& error) {
      CHECK(std::string(error.what()).find("byte offset") != std::string::npos);
    }
  }

  // A constraint's bytes give the same masks, and only over the tokenizer it was compiled for.
  const Constraint constraint = Constraint::from_regex("a(ab)*b?", tokenizer);
  const std::string stored = constraint.serialize();
  const Constraint back = Constraint::deserialize(stored, copy);
  Matcher original(constraint);
  Matcher restored(back);
  for (const std::string step : {"", "a", "ab", "a"}) {
    REQUIRE(original.accept_bytes(step));
    REQUIRE(restored.accept_bytes(step));
    CHECK(mask_of(original) == mask_of(restored));
  }
  const Tokenizer other = fixture_tokenizer(fixture_vocab("abc"));
  CHECK(code_of([&] { (void)Constraint::deserialize(stored, other); }) == ErrorCode::kArtifact);
  CHECK(code_of([&] {
          (void)Constraint::deserialize(std::string_view(stored).substr(0, stored.size() / 3),
                                        copy);
        }) == ErrorCode::kArtifact);
}

TEST_CASE("api: a matcher's own stop ids end its text in place of the tokenizer's") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint = Constraint::from_regex("(ab)+", tokenizer);
  // "aaa" is an ordinary token; as this request's stop id it is allowed exactly when the text is
  // complete, and never as text.
  const std::int32_t aaa = id_of(vocab, "aaa");
  MatcherOptions options;
  options.stop_ids = {aaa, vocab.pad};
  Matcher matcher(constraint, options);
  CHECK(std::vector<std::int32_t>(matcher.stop_ids().begin(), matcher.stop_ids().end()) ==
        options.stop_ids);
  std::vector<std::uint32_t> row = mask_of(matcher);
  CHECK_FALSE(bit(row, aaa));
  CHECK_FALSE(bit(row, vocab.stop));
  REQUIRE(matcher.accept_bytes("ab"));
  row = mask_of(matcher);
  CHECK(bit(row, aaa));
  CHECK(bit(row, vocab.pad));
  CHECK_FALSE(bit(row, vocab.stop));  // the tokenizer's stop ids are not this request's
  CHECK_FALSE(bit(row, vocab.second_stop));
  CHECK_FALSE(matcher.accept_token(vocab.stop));
  Matcher copy = matcher.clone();  // the options go with a clone
  CHECK(mask_of(copy) == row);
  REQUIRE(matcher.accept_token(aaa));
  CHECK(matcher.is_terminated());
  // An id outside the vocabulary is refused when the matcher is made.
  options.stop_ids = {static_cast<std::int32_t>(tokenizer.vocab_size())};
  CHECK(code_of([&] { Matcher bad(constraint, options); }) == ErrorCode::kInvalidArgument);
}

TEST_CASE("api: terminate_without_stop_token ends a text that nothing may follow") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint = Constraint::from_regex("ab(ab)?", tokenizer);
  MatcherOptions options;
  options.terminate_without_stop_token = true;
  Matcher matcher(constraint, options);
  REQUIRE(matcher.accept_bytes("ab"));
  CHECK_FALSE(matcher.is_terminated());  // complete, but "ab" may still follow
  CHECK(bit(mask_of(matcher), vocab.stop));
  REQUIRE(matcher.accept_bytes("ab"));
  CHECK(matcher.is_terminated());
  std::vector<std::int32_t> row(matcher.bitmask_words(), -1);
  CHECK(matcher.fill_next_token_bitmask(row));
  CHECK(std::all_of(row.begin(), row.end(), [](std::int32_t w) { return w == 0; }));
  CHECK_FALSE(matcher.accept_token(vocab.stop));
  matcher.rollback(1);  // back before the second "ab": open again
  CHECK_FALSE(matcher.is_terminated());
  // Without the option the same text waits for its stop id.
  Matcher plain(constraint);
  REQUIRE(plain.accept_bytes("abab"));
  CHECK_FALSE(plain.is_terminated());
  CHECK(plain.accept_token(vocab.stop));
}

TEST_CASE("api: accept_tokens takes all or none, validate_tokens changes nothing") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  const Constraint constraint = Constraint::from_regex("(ab)+", tokenizer);
  Matcher matcher(constraint);
  const std::int32_t a = id_of(vocab, "a"), b = id_of(vocab, "b"), ab = id_of(vocab, "ab");
  const std::vector<std::uint32_t> before = mask_of(matcher);
  const std::vector<std::int32_t> refused{a, b, b};  // "abb"
  CHECK(matcher.validate_tokens(refused) == 2);
  CHECK_FALSE(matcher.accept_tokens(refused));
  CHECK(matcher.byte_offset() == 0);
  CHECK(mask_of(matcher) == before);
  const std::vector<std::int32_t> drafts{a, b, ab, vocab.stop};
  CHECK(matcher.validate_tokens(drafts) == 4);
  CHECK(matcher.byte_offset() == 0);
  REQUIRE(matcher.accept_tokens(drafts));
  CHECK(matcher.is_terminated());
  // The tokens count one step each for rollback (speculative decoding undoes drafts).
  matcher.rollback(2);
  CHECK(matcher.byte_offset() == 2);
  CHECK(matcher.accept_token(ab));
}

TEST_CASE("api: a fill says whether its mask leaves any token out") {
  // A vocabulary without special tokens and a pattern that, after its first byte, allows every
  // continuation: every id, the stop id included, is allowed, so applying the mask would change
  // nothing.
  const std::vector<std::string> pieces{"a", "b", "ab", "</s>"};
  const Tokenizer tokenizer = Tokenizer::from_vocab(pieces, VocabType::kRaw, {3});
  Matcher open(Constraint::from_regex("[ab]+", tokenizer));
  std::vector<std::int32_t> row(open.bitmask_words());
  CHECK(open.fill_next_token_bitmask(row));  // the stop id must wait for a byte
  REQUIRE(open.accept_token(0));
  CHECK_FALSE(open.fill_next_token_bitmask(row));
  Matcher narrow(Constraint::from_regex("a[ab]*b", tokenizer));
  REQUIRE(narrow.accept_token(0));
  CHECK(narrow.fill_next_token_bitmask(row));
  // A row wider than the vocabulary: its padding is zero, which does restrict the logits there.
  std::vector<std::int32_t> wide(open.bitmask_words() + 1, -1);
  CHECK(open.fill_next_token_bitmask(wide));
  CHECK(wide.back() == 0);
}

TEST_CASE("api: a batch with the same matcher in two rows is refused") {
  const FixtureVocab vocab = fixture_vocab("ab");
  const Tokenizer tokenizer = fixture_tokenizer(vocab);
  Matcher matcher(Constraint::from_regex("(ab)+", tokenizer));
  Matcher other = matcher.clone();
  const std::size_t words = matcher.bitmask_words();
  std::vector<std::int32_t> bitmask(3 * words);
  const std::vector<Matcher*> twice{&matcher, &other, &matcher};
  CHECK(code_of([&] { fill_next_token_bitmasks(twice, bitmask, words); }) ==
        ErrorCode::kInvalidArgument);
  const std::vector<Matcher*> gap{&matcher, nullptr, &other};  // a row left as it is
  std::fill(bitmask.begin(), bitmask.end(), 7);
  fill_next_token_bitmasks(gap, bitmask, words);
  CHECK(bitmask[words] == 7);
  CHECK(std::vector<std::int32_t>(bitmask.begin(), bitmask.begin() + words) ==
        std::vector<std::int32_t>(bitmask.begin() + 2 * words, bitmask.end()));
}

}  // namespace
}  // namespace glrmask
