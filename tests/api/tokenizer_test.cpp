// glrmask::Tokenizer: made from token strings in each spelling, and from the real tokenizer.json
// files of the setup cache with several stop ids; the errors name the token id.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "glrmask/glrmask.hpp"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

TEST_CASE("tokenizer: token strings in the three spellings decode to their bytes") {
  const std::vector<std::string> raw = {"a", " b", "\n", "<s>", "</s>"};
  const Tokenizer plain = Tokenizer::from_vocab(raw, VocabType::kRaw, {4}, {3});
  CHECK(plain.vocab_size() == 5);
  CHECK(plain.bitmask_words() == 1);
  CHECK(plain.token_bytes(1) == " b");
  CHECK(plain.is_special(3));
  CHECK(plain.is_special(4));
  CHECK(plain.is_stop(4));
  CHECK_FALSE(plain.is_stop(3));
  CHECK_FALSE(plain.can_encode());
  CHECK_THROWS_AS(plain.encode("a"), Error);

  const std::vector<std::string> sentencepiece = {"\u2581the", "<0x0A>", "a\u2581b", "</s>"};
  const Tokenizer sp = Tokenizer::from_vocab(sentencepiece, VocabType::kByteFallback, {3});
  CHECK(sp.token_bytes(0) == " the");
  CHECK(sp.token_bytes(1) == "\n");
  CHECK(sp.token_bytes(2) == "a b");
  CHECK(sp.token_bytes(3) == "</s>");

  const std::vector<std::string> byte_level = {"\u0120the", "\u010a", "x", "<|end|>"};
  const Tokenizer bl = Tokenizer::from_vocab(byte_level, VocabType::kByteLevel, {3});
  CHECK(bl.token_bytes(0) == " the");
  CHECK(bl.token_bytes(1) == "\n");
  CHECK(bl.decode(std::vector<std::int32_t>{2, 0}) == "x the");
}

TEST_CASE("tokenizer: bad ids and spellings are errors that name the token") {
  const std::vector<std::string> raw = {"a", "</s>"};
  try {
    (void)Tokenizer::from_vocab(raw, VocabType::kRaw, {2});
    FAIL("a stop id past the vocabulary was taken");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kInvalidArgument);
    CHECK(e.where().token == 2);
  }
  CHECK_THROWS_AS(Tokenizer::from_vocab(raw, VocabType::kRaw, {}), Error);
  const std::vector<std::string> not_byte_level = {"a", "\u4e00",
                                                   "</s>"};  // CJK: not in GPT-2's alphabet
  try {
    (void)Tokenizer::from_vocab(not_byte_level, VocabType::kByteLevel, {2});
    FAIL("a piece outside the byte alphabet was taken");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("token id 1") != std::string::npos);
  }
  const Tokenizer plain = Tokenizer::from_vocab(raw, VocabType::kRaw, {1});
  try {
    (void)plain.token_bytes(5);
    FAIL("token 5 of 2 was read");
  } catch (const Error& e) {
    CHECK(e.where().token == 5);
  }
}

TEST_CASE("tokenizer: Llama-3 from its tokenizer.json, with both of its stop ids") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Tokenizer llama3 = Tokenizer::load("llama3");
  CHECK(llama3.vocab_size() == 128256);
  REQUIRE(llama3.stop_ids().size() == 1);
  CHECK(llama3.stop_ids()[0] == 128001);  // <|end_of_text|>, tokenizer_config.json's EOS
  CHECK(llama3.can_encode());
  const std::vector<std::int32_t> ids = llama3.encode("{\"a\": 1}");
  CHECK(llama3.decode(ids) == "{\"a\": 1}");

  const Tokenizer instruct = Tokenizer::load("llama3", {128009, 128001});  // <|eot_id|> first
  REQUIRE(instruct.stop_ids().size() == 2);
  CHECK(instruct.is_stop(128009));
  CHECK(instruct.is_stop(128001));
  CHECK_FALSE(instruct.is_stop(128000));
  try {
    (void)Tokenizer::load("llama3", {1000});  // an ordinary token cannot end a text
    FAIL("an ordinary token became a stop id");
  } catch (const Error& e) {
    CHECK(e.where().token == 1000);
  }
  try {
    (void)Tokenizer::load("/nonexistent/tokenizer.json");
    FAIL("a missing file loaded");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::kIo);
  }
}

}  // namespace
}  // namespace glrmask
