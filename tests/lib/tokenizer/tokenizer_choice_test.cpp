// What a --tokenizer argument names (lib/tokenizer/tokenizer_choice.h): plain names and paths pass
// through, BASE+DONOR@SIZE asks for a padded vocabulary served by the base's encoder, and a
// malformed padded name is an error that says how to write one.
#include "lib/tokenizer/tokenizer_choice.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/core/error.h"
#include "lib/tokenizer/encoder.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

std::string parse_error(const std::string& name) {
  try {
    parse_padded_tokenizer_name(name);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("padded tokenizer names: the form, and everything else left alone") {
  CHECK_FALSE(parse_padded_tokenizer_name("llama3").has_value());
  CHECK_FALSE(parse_padded_tokenizer_name("/models/tok@v2/tokenizer.json").has_value());
  CHECK_FALSE(parse_padded_tokenizer_name("models/llama+extra/tokenizer.json").has_value());

  const auto one = parse_padded_tokenizer_name("llama2+gemma3@262144");
  REQUIRE(one.has_value());
  CHECK(one->base == "llama2");
  CHECK(one->donors == std::vector<std::string>{"gemma3"});
  CHECK(one->size == 262144);
  const auto two = parse_padded_tokenizer_name("a/tokenizer.json+qwen3+gemma3@300000");
  REQUIRE(two.has_value());
  CHECK(two->base == "a/tokenizer.json");
  CHECK(two->donors == std::vector<std::string>{"qwen3", "gemma3"});
  CHECK(two->size == 300000);

  CHECK_THAT(parse_error("llama2+gemma3@"), Catch::Contains("the size after '@' is not a number") &&
                                                Catch::Contains("llama2+gemma3@262144"));
  CHECK_THAT(parse_error("llama2+gemma3@12k"),
             Catch::Contains("the size after '@' is not a number"));
  CHECK_THAT(parse_error("llama2+gemma3@1234567890"),
             Catch::Contains("the size after '@' is not a number"));
  CHECK_THAT(parse_error("llama2@1000"), Catch::Contains("no donor tokenizer after the base"));
  CHECK_THAT(parse_error("llama2++gemma3@1000"), Catch::Contains("a tokenizer name is empty"));
  CHECK_THAT(parse_error("+gemma3@1000"), Catch::Contains("a tokenizer name is empty"));
  CHECK_THAT(parse_error("llama2+@1000"), Catch::Contains("a tokenizer name is empty"));
}

TEST_CASE("a padded name loads the base's encoder and the padded vocabulary") {
  const std::string base = testing::tokenizer_fixture("tiny_byte_level").string();
  const std::string padded =
      base + "+" + testing::tokenizer_fixture("tiny_sentencepiece").string() + "@275";
  CHECK(resolve_encoder_tokenizer(padded) == resolve_encoder_tokenizer(base));
  const Vocabulary plain = load_vocabulary(base);
  const Vocabulary grown = load_vocabulary(padded);
  REQUIRE(grown.size() == 275);
  CHECK(grown.name() == "tiny_byte_level+tiny_sentencepiece@275");
  CHECK(grown.eos() == plain.eos());
  for (TokenId id = 0; id < plain.size(); ++id) CHECK(grown.bytes(id) == plain.bytes(id));

  // The base's encoder gives every id of the plain vocabulary, none of the appended ones.
  const Encoder encoder = Encoder::load(resolve_encoder_tokenizer(padded));
  for (const TokenId id : encoder.encode("the quick brown fox, the lazy dog\n")) {
    CHECK(id < plain.size());
    CHECK(grown.bytes(id) == plain.bytes(id));
  }

  CHECK(load_vocabulary(base).size() == plain.size());
  CHECK_THROWS_WITH(
      load_vocabulary(base + "+" + testing::tokenizer_fixture("tiny_sentencepiece").string() +
                      "@100"),
      Catch::Contains("cannot pad the tiny_byte_level vocabulary down"));
}

}  // namespace glrmask
