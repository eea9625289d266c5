// Vocabulary: id -> exact bytes, special tokens, EOS, and errors for bad tokenizer files.
// Expected ids of the real tokenizers are read off their tokenizer.json / tokenizer_config.json.
#include "lib/tokenizer/vocabulary.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

// The message of the glrmask::Error that loading `path` throws ("" when it loads).
std::string load_error(const std::filesystem::path& path) {
  try {
    Vocabulary::load(path);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("byte-level fixture: bytes decode the GPT-2 alphabet, added tokens are text") {
  const Vocabulary vocab = Vocabulary::load(testing::tokenizer_fixture("tiny_byte_level"));
  CHECK(vocab.kind() == VocabularyKind::ByteLevel);
  CHECK(vocab.name() == "tiny_byte_level");
  REQUIRE(vocab.size() == 272);  // 256 bytes + 14 merged tokens + 2 added tokens
  // Single-byte tokens have id = byte: the 68 moved bytes come back from U+0100..U+0143.
  for (TokenId byte = 0; byte < 256; ++byte) {
    INFO("byte " << byte);
    REQUIRE(vocab.bytes(byte) == std::string(1, static_cast<char>(byte)));
  }
  CHECK(vocab.piece(32) == "Ġ");
  CHECK(vocab.piece(10) == "Ċ");
  CHECK(vocab.bytes(258) == " the");      // "Ġthe"
  CHECK(vocab.bytes(265) == "  ");        // "ĠĠ"
  CHECK(vocab.bytes(266) == "\n\n");      // "ĊĊ"
  CHECK(vocab.bytes(268) == "\xC3\xA9");  // "Ã©" is the UTF-8 of 'é'
  CHECK(vocab.bytes(270) == "<|end|>");
  CHECK(vocab.bytes(271) == "<x>");
  CHECK(vocab.is_special(270));
  CHECK_FALSE(vocab.is_special(271));  // an added token not marked special is ordinary
  CHECK_FALSE(vocab.is_special(258));
  CHECK(vocab.special_ids() == std::vector<TokenId>{270});
  CHECK(vocab.eos() == TokenId{270});
  for (TokenId id = 0; id < vocab.size(); ++id) CHECK(vocab.contains(id));
  CHECK(vocab.decode(std::vector<TokenId>{258, 32, 268}) == " the \xC3\xA9");
}

TEST_CASE("SentencePiece fixture: '▁' is a space, <0xNN> is a byte, holes are absent") {
  const Vocabulary vocab = Vocabulary::load(testing::tokenizer_fixture("tiny_sentencepiece"));
  CHECK(vocab.kind() == VocabularyKind::SentencePiece);
  REQUIRE(vocab.size() == 273);
  CHECK(vocab.bytes(3 + 0x0A) == "\n");  // <0x0A>
  CHECK(vocab.bytes(3 + 0xFF) == "\xFF");
  CHECK(vocab.bytes(3) == std::string(1, '\0'));
  CHECK(vocab.piece(3 + 0x0A) == "<0x0A>");
  CHECK(vocab.bytes(259) == " ");    // "▁"
  CHECK(vocab.bytes(268) == " he");  // "▁he"
  CHECK(vocab.bytes(269) == "llo");
  CHECK_FALSE(vocab.contains(271));
  CHECK(vocab.bytes(271).empty());
  CHECK(vocab.contains(272));
  CHECK_FALSE(vocab.contains(273));
  CHECK(vocab.special_ids() == std::vector<TokenId>{0, 1, 2});
  CHECK(vocab.eos() == TokenId{2});  // given as an AddedToken object in the config
  CHECK(vocab.description().find("EOS \"</s>\" = 2") != std::string::npos);
}

TEST_CASE("SentencePiece fixture without byte_fallback keeps <0xNN> as text") {
  const Vocabulary vocab = Vocabulary::load(testing::tokenizer_fixture("tiny_sentencepiece_unk"));
  CHECK(vocab.bytes(3 + 0x0A) == "<0x0A>");
  CHECK(vocab.bytes(268) == " he");
}

TEST_CASE("a missing tokenizer_config.json leaves EOS unknown and says so") {
  const Vocabulary vocab = Vocabulary::load(testing::tokenizer_fixture("no_config"));
  CHECK_FALSE(vocab.eos().has_value());
  CHECK(vocab.description().find("no tokenizer_config.json") != std::string::npos);
}

TEST_CASE("bad tokenizer files give errors naming the file and the problem") {
  const auto expect_error = [](const std::string& name, std::vector<std::string> parts) {
    const auto path = testing::tokenizer_fixture(name);
    const std::string message = load_error(path);
    INFO(name << ": " << message);
    REQUIRE_FALSE(message.empty());
    CHECK(message.find(path.parent_path().string()) != std::string::npos);
    for (const auto& part : parts) CHECK(message.find(part) != std::string::npos);
  };
  expect_error("does_not_exist", {"no such file"});
  expect_error("bad_truncated", {"invalid JSON"});
  expect_error("bad_wordpiece", {"/model/type", "unsupported model type \"WordPiece\""});
  expect_error("bad_metaspace", {"/pre_tokenizer/type", "unsupported pre-tokenizer \"Metaspace\""});
  expect_error("bad_regex", {"/pre_tokenizer/pretokenizers/0/pattern", "unsupported Split regex"});
  expect_error("bad_vocab_id", {"/model/vocab/\"a\"", "expected a token id"});
  expect_error("bad_eos", {"tokenizer_config.json", "/eos_token", "<|missing|>"});
}

TEST_CASE("an id out of range is an error naming the id") {
  const Vocabulary vocab = Vocabulary::load(testing::tokenizer_fixture("tiny_sentencepiece"));
  try {
    vocab.bytes(273);
    FAIL("no error");
  } catch (const Error& error) {
    CHECK(std::string(error.what()).find("token id 273") != std::string::npos);
  }
  CHECK_THROWS_AS(vocab.piece(1000000), Error);
}

namespace {

struct RealVocabulary {
  const char* name;
  std::size_t size;
  VocabularyKind kind;
  TokenId eos;
  TokenId the;          // " the" ("Ġthe" or "▁the")
  std::size_t special;  // added tokens marked special (+ additional special tokens)
};

// Sizes, ids and counts as tokenizer.json and tokenizer_config.json give them.
constexpr RealVocabulary kRealVocabularies[] = {
    {"llama2", 32000, VocabularyKind::SentencePiece, 2, 272, 3},
    {"llama3", 128256, VocabularyKind::ByteLevel, 128001, 279, 256},
    {"qwen3", 151669, VocabularyKind::ByteLevel, 151645, 279, 14},
    {"gemma3", 262145, VocabularyKind::SentencePiece, 106, 506, 9},
    {"gptoss", 200019, VocabularyKind::ByteLevel, 200002, 290, 21},
};

}  // namespace

TEST_CASE("real vocabularies: sizes, known tokens, EOS, specials") {
  for (const RealVocabulary& expected : kRealVocabularies) {
    if (!testing::require_tokenizer(expected.name)) continue;
    INFO("tokenizer " << expected.name);
    {
      const Vocabulary vocab = Vocabulary::load(resolve_tokenizer(expected.name));
      CHECK(vocab.name() == expected.name);
      CHECK(vocab.size() == expected.size);
      CHECK(vocab.kind() == expected.kind);
      CHECK(vocab.eos() == expected.eos);
      CHECK(vocab.bytes(expected.the) == " the");
      CHECK(vocab.special_ids().size() == expected.special);
      std::size_t present = 0;
      for (TokenId id = 0; id < vocab.size(); ++id) {
        if (!vocab.contains(id)) continue;
        ++present;
        INFO("token id " << id << " piece " << vocab.piece(id));
        if (!vocab.is_special(id)) REQUIRE_FALSE(vocab.bytes(id).empty());
      }
      CHECK(present == expected.size);  // none of them has holes
      for (TokenId id : vocab.special_ids()) CHECK(vocab.is_special(id));
    }
  }
}

TEST_CASE("real vocabularies: byte fallback, spaces and added tokens") {
  if (testing::require_tokenizer("llama2")) {
    const Vocabulary vocab = Vocabulary::load(resolve_tokenizer("llama2"));
    CHECK(vocab.piece(13) == "<0x0A>");
    CHECK(vocab.bytes(13) == "\n");
    CHECK(vocab.bytes(28705) == " ");  // "▁"
    CHECK(vocab.bytes(259) == "  ");   // "▁▁"
    CHECK(vocab.special_ids() == std::vector<TokenId>{0, 1, 2});
  }
  if (testing::require_tokenizer("gemma3")) {
    const Vocabulary vocab = Vocabulary::load(resolve_tokenizer("gemma3"));
    CHECK(vocab.bytes(248) == "\n");  // <0x0A>
    CHECK(vocab.bytes(107) == "\n");  // the added token "\n", not special
    CHECK_FALSE(vocab.is_special(107));
    CHECK(vocab.bytes(138) == "  ");  // the added token "▁▁"
    CHECK(vocab.is_special(105));     // <start_of_turn>
    CHECK(vocab.is_special(262144));  // <image_soft_token>, beyond the model's vocab
    CHECK(vocab.bytes(6) == "<unused0>");
    CHECK_FALSE(vocab.is_special(6));
  }
  if (testing::require_tokenizer("llama3")) {
    const Vocabulary vocab = Vocabulary::load(resolve_tokenizer("llama3"));
    CHECK(vocab.bytes(198) == "\n");  // "Ċ"
    CHECK(vocab.bytes(271) == "\n\n");
    CHECK(vocab.bytes(978) == "\xC3\xA9");  // "Ã©" = 'é'
    CHECK(vocab.bytes(128000) == "<|begin_of_text|>");
    for (TokenId id = 128000; id < 128256; ++id) CHECK(vocab.is_special(id));
    CHECK_FALSE(vocab.is_special(127999));
  }
  if (testing::require_tokenizer("qwen3")) {
    const Vocabulary vocab = Vocabulary::load(resolve_tokenizer("qwen3"));
    CHECK(vocab.bytes(151667) == "<think>");
    CHECK_FALSE(vocab.is_special(151667));  // added, but not special
    CHECK(vocab.is_special(151643));        // <|endoftext|>
  }
}

TEST_CASE("a padded vocabulary keeps every id and appends the donors' new ordinary tokens") {
  const Vocabulary base = Vocabulary::load(testing::tokenizer_fixture("tiny_byte_level"));
  const Vocabulary donor = Vocabulary::load(testing::tokenizer_fixture("tiny_sentencepiece"));
  const std::vector<const Vocabulary*> donors = {&donor};

  // What the donor can add: its ordinary, non-empty tokens whose bytes the base does not have,
  // first occurrence only, in id order.
  std::set<std::string> known;
  for (TokenId id = 0; id < base.size(); ++id)
    if (base.contains(id) && !base.is_special(id)) known.insert(std::string(base.bytes(id)));
  std::vector<TokenId> new_ids;
  for (TokenId id = 0; id < donor.size(); ++id)
    if (donor.contains(id) && !donor.is_special(id) && !donor.bytes(id).empty() &&
        known.insert(std::string(donor.bytes(id))).second)
      new_ids.push_back(id);
  REQUIRE(new_ids.size() >= 3);  // the fixture's words are not all in the byte-level fixture

  const std::size_t size = base.size() + new_ids.size();
  const Vocabulary grown = base.padded(donors, size);
  CHECK(grown.size() == size);
  CHECK(grown.name() == fmt::format("tiny_byte_level+tiny_sentencepiece@{}", size));
  CHECK(grown.kind() == base.kind());
  CHECK(grown.eos() == base.eos());
  CHECK(grown.special_ids() == base.special_ids());
  for (TokenId id = 0; id < base.size(); ++id) {
    INFO("base id " << id);
    CHECK(grown.contains(id) == base.contains(id));
    CHECK(grown.is_special(id) == base.is_special(id));
    CHECK(grown.bytes(id) == base.bytes(id));
    CHECK(grown.piece(id) == base.piece(id));
  }
  for (std::size_t i = 0; i < new_ids.size(); ++i) {
    const TokenId id = static_cast<TokenId>(base.size() + i);
    INFO("appended id " << id << ", donor id " << new_ids[i]);
    CHECK(grown.contains(id));
    CHECK_FALSE(grown.is_special(id));
    CHECK(grown.bytes(id) == donor.bytes(new_ids[i]));
    CHECK(grown.piece(id) == donor.bytes(new_ids[i]));
  }

  // Fewer ids take a prefix of the same order; the base's own size is the base.
  const Vocabulary partial = base.padded(donors, base.size() + 2);
  REQUIRE(partial.size() == base.size() + 2);
  CHECK(partial.bytes(static_cast<TokenId>(base.size() + 1)) == donor.bytes(new_ids[1]));
  CHECK(base.padded(donors, base.size()).decode(std::vector<TokenId>{258}) == " the");

  // Too small or too large a size is refused with the numbers.
  const auto error_of = [&](std::size_t wanted) -> std::string {
    try {
      base.padded(donors, wanted);
    } catch (const Error& error) {
      return error.what();
    }
    return "";
  };
  const std::string below = error_of(base.size() - 1);
  CHECK(below.find("cannot pad the tiny_byte_level vocabulary down from 272 to 271 ids") !=
        std::string::npos);
  const std::string short_of = error_of(size + 5);
  CHECK(short_of.find(fmt::format("the donors have only {} new tokens, 5 short of {} ids",
                                  new_ids.size(), size + 5)) != std::string::npos);
}

}  // namespace glrmask

namespace glrmask {
namespace {

// The byte-level fixture with `edit` applied to its JSON, written to `scratch`.
std::filesystem::path edited_fixture(const testing::ScratchDir& scratch, const std::string& from,
                                     const std::string& to) {
  std::string text = testing::read_file(testing::tokenizer_fixture("tiny_byte_level"));
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return scratch.write("tokenizer.json", text);
}

}  // namespace

TEST_CASE("a vocabulary refuses merges of tokens it lacks, as HF's tokenizers does") {
  // The vocabulary alone never resolves the merges, so only the file's check can catch this.
  const testing::ScratchDir scratch;
  CHECK_THAT(load_error(edited_fixture(scratch, "\"h e\"", "\"h q\"")),
             Catch::Contains("/model/merges/1") && Catch::Contains("\"h\" + \"q\"") &&
                 Catch::Contains("the merged token is not in the vocabulary"));
  CHECK_THAT(load_error(edited_fixture(scratch, "\"h e\"", "\"h \\u4e00\"")),
             Catch::Contains("/model/merges/1") && Catch::Contains("the right part"));
  CHECK_THAT(load_error(testing::tokenizer_fixture("bad_merge")),
             Catch::Contains("/model/merges/6") && Catch::Contains("not in the vocabulary"));
}

TEST_CASE("a vocabulary refuses an id that two tokens of the file spell differently") {
  const testing::ScratchDir scratch;
  // An added token on an id of the model's vocab with another content.
  CHECK_THAT(load_error(edited_fixture(scratch, "\"id\": 271", "\"id\": 5")),
             Catch::Contains("/added_tokens/1/id") && Catch::Contains("token id 5") &&
                 Catch::Contains("\"<x>\""));
  // Two added tokens on one id.
  CHECK_THAT(load_error(edited_fixture(scratch, "\"id\": 271", "\"id\": 270")),
             Catch::Contains("/added_tokens/1/id") && Catch::Contains("token id 270") &&
                 Catch::Contains("\"<|end|>\"") && Catch::Contains("\"<x>\""));
}

}  // namespace glrmask

namespace glrmask {

TEST_CASE("a vocabulary refuses one token id far beyond the others, naming it") {
  // One added token at id 67,108,863 made every mask, table and bitmask 2^26 ids wide.
  const testing::ScratchDir scratch;
  CHECK_THAT(load_error(edited_fixture(scratch, "\"id\": 271", "\"id\": 67108863")),
             Catch::Contains("/added_tokens/1/id") && Catch::Contains("token id 67108863") &&
                 Catch::Contains("unused"));
  // A gap below the slack loads (real files leave a few ids unused).
  CHECK(load_error(edited_fixture(scratch, "\"id\": 271", "\"id\": 4000")).empty());
}

}  // namespace glrmask
