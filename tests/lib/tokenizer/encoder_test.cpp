// Encoder: pre-tokenizer corner cases, BPE merge order, byte fallback, added tokens, errors.
// Fixture tokenizers (tests/fixtures/tokenizers/*, written by make_fixtures.py) are small enough
// to derive each expected id by hand; the comments give the derivation. Spot checks of the real
// tokenizers use ids printed by the reference implementation (@lenml/tokenizers 3.7.2).
#include "lib/tokenizer/encoder.h"

#include <tbb/parallel_for.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/tokenizer/pretokenizer.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

using Ids = std::vector<TokenId>;
using Pieces = std::vector<std::string>;

Pieces pre_tokenize(std::vector<PreTokenizerStep> steps, std::string_view text) {
  const PreTokenizer pre_tokenizer(std::move(steps));
  std::string buffer;
  std::vector<TextSpan> spans, scratch;
  pre_tokenizer.split(text, buffer, spans, scratch);
  Pieces pieces;
  for (TextSpan span : spans) pieces.push_back(buffer.substr(span.begin, span.end - span.begin));
  return pieces;
}

Pieces split(SplitRegex regex, std::string_view text) {
  PreTokenizerStep step;
  step.kind = PreTokenizerStep::Kind::SplitRegex;
  step.regex = regex;
  return pre_tokenize({step}, text);
}

}  // namespace

TEST_CASE("Llama-3 split: contractions, letters, digits in threes, whitespace") {
  const auto llama3 = [](std::string_view text) { return split(SplitRegex::Llama3, text); };
  // (?i:'s|...) is the first alternative and, as the reference rewrites it, ASCII-case-blind.
  CHECK(llama3("it's") == Pieces{"it", "'s"});
  CHECK(llama3("IT'S") == Pieces{"IT", "'S"});
  CHECK(llama3("we'll've") == Pieces{"we", "'ll", "'ve"});
  CHECK(llama3("'sa") == Pieces{"'s", "a"});  // the contraction wins over "'sa" as a word
  CHECK(llama3("x'q") == Pieces{"x", "'q"});  // not a contraction: "'" leads the word "q"
  // [^\r\n\p{L}\p{N}]?\p{L}+: one non-letter may lead a word, but never a line break.
  CHECK(llama3(" hello\tworld") == Pieces{" hello", "\tworld"});
  CHECK(llama3("\nhello") == Pieces{"\n", "hello"});
  CHECK(llama3("héllo wörld") == Pieces{"héllo", " wörld"});
  // \p{N}{1,3}
  CHECK(llama3("12345") == Pieces{"123", "45"});
  CHECK(llama3("a1b") == Pieces{"a", "1", "b"});
  CHECK(llama3(" 1") == Pieces{" ", "1"});  // the space cannot lead a number
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`: punctuation takes one leading space and trailing line breaks.
  CHECK(llama3("x !?;\n\ny") == Pieces{"x", " !?;\n\n", "y"});
  CHECK(llama3("hi 👋👋") == Pieces{"hi", " 👋👋"});
  // \s*[\r\n]+ ends at the last line break of a whitespace run.
  CHECK(llama3("x  \n\ny") == Pieces{"x", "  \n\n", "y"});
  CHECK(llama3("a\r\n\r\n  b") == Pieces{"a", "\r\n\r\n", " ", " b"});
  // \s+(?!\S) leaves the last space to the next word; at the end of text it takes all.
  CHECK(llama3("a   b") == Pieces{"a", "  ", " b"});
  CHECK(llama3("end  ") == Pieces{"end", "  "});
  // JavaScript's \s has NBSP but not U+0085 (NEL), which therefore leads a word like a symbol.
  CHECK(llama3("a\u00a0b") == Pieces{"a", "\u00a0b"});
  CHECK(llama3("x\u0085y") == Pieces{"x", "\u0085y"});
}

TEST_CASE("Qwen-2 split takes digits one at a time") {
  CHECK(split(SplitRegex::Qwen2, "x=123") == Pieces{"x", "=", "1", "2", "3"});
}

TEST_CASE("o200k split: case-aware words with their contractions") {
  const auto o200k = [](std::string_view text) { return split(SplitRegex::O200k, text); };
  CHECK(o200k("HelloWorld") == Pieces{"Hello", "World"});
  CHECK(o200k("HELLOworld") == Pieces{"HELLOworld"});
  CHECK(o200k("HELLO world") == Pieces{"HELLO", " world"});
  CHECK(o200k("don't") == Pieces{"don't"});
  CHECK(o200k("DON'T stop") == Pieces{"DON'T", " stop"});
  CHECK(o200k("12345") == Pieces{"123", "45"});
  CHECK(o200k("a/b//\nc") == Pieces{"a", "/b", "//\n", "c"});
  CHECK(o200k("x  \ny") == Pieces{"x", "  \n", "y"});
}

TEST_CASE("GPT-2 split (ByteLevel's own regex) is case-sensitive") {
  CHECK(split(SplitRegex::Gpt2, "it's  fun") == Pieces{"it", "'s", " ", " fun"});
  CHECK(split(SplitRegex::Gpt2, "X'S") == Pieces{"X", "'", "S"});
  CHECK(split(SplitRegex::Gpt2, "a 123") == Pieces{"a", " 123"});
}

TEST_CASE("ByteLevel adds a prefix space, and literal and inverted splits") {
  PreTokenizerStep byte_level;
  byte_level.kind = PreTokenizerStep::Kind::ByteLevel;
  byte_level.add_prefix_space = true;
  CHECK(pre_tokenize({byte_level}, "hello world") == Pieces{" hello", " world"});
  CHECK(pre_tokenize({byte_level}, " hi") == Pieces{" hi"});

  PreTokenizerStep literal;
  literal.kind = PreTokenizerStep::Kind::SplitLiteral;
  literal.literal = " ";
  CHECK(pre_tokenize({literal}, "a b  c") == Pieces{"a", " ", "b", " ", " ", "c"});
  literal.invert = true;
  CHECK(pre_tokenize({literal}, "a b  c") == Pieces{" ", " ", " "});
}

TEST_CASE("byte-level fixture: merge order, pre-token boundaries, added tokens") {
  const Encoder encoder = Encoder::load(testing::tokenizer_fixture("tiny_byte_level"));
  // Single bytes have id = byte. Merges, by rank: 0 Ġ+t=256, 1 h+e=257, 2 Ġt+he=258,
  // 3 a+a=259, 4 b+c=260, 5 a+b=261, 6 t+'=262, 7 T+'=263, 8 3+4=264, 9 Ġ+Ġ=265, 10 Ċ+Ċ=266,
  // 11 Ġ+b=267, 12 Ã+©=268 (the UTF-8 of 'é').
  CHECK(encoder.encode("").empty());
  CHECK(encoder.encode("the") == Ids{'t', 257});  // no t+h merge
  CHECK(encoder.encode(" the") == Ids{258});      // Ġt, then he, then Ġt+he
  CHECK(encoder.encode("the the") == Ids{'t', 257, 258});
  CHECK(encoder.encode("aaa") == Ids{259, 'a'});  // equal ranks: the leftmost pair first
  CHECK(encoder.encode("aaaa") == Ids{259, 259});
  CHECK(encoder.encode("abc") == Ids{'a', 260});        // b+c (rank 4) before a+b (rank 5)
  CHECK(encoder.encode("it'") == Ids{'i', 't', '\''});  // "it" | "'": t+' is never tried
  CHECK(encoder.encode("IT'") == Ids{'I', 'T', '\''});
  CHECK(encoder.encode("345") == Ids{264, '5'});
  CHECK(encoder.encode("12345") == Ids{'1', '2', '3', '4', '5'});  // "123" | "45"
  CHECK(encoder.encode("a  \n\nb  ") == Ids{'a', 265, 266, 'b', 265});
  CHECK(encoder.encode("a   b") == Ids{'a', 265, 267});  // "a" | "  " | " b"
  CHECK(encoder.encode("héllo") == Ids{'h', 268, 'l', 'l', 'o'});
  CHECK(encoder.encode("hi 👋") == Ids{'h', 'i', ' ', 0xF0, 0x9F, 0x91, 0x8B});
  // Added tokens are cut out first, special (270) or not (271).
  CHECK(encoder.encode("a<|end|>b<x>") == Ids{'a', 270, 'b', 271});
  CHECK(encoder.encode("<|end|<x>") == Ids{'<', '|', 'e', 'n', 'd', '|', 271});
}

TEST_CASE("ignore_merges takes a pre-token that is a whole vocabulary entry as is") {
  const Encoder plain = Encoder::load(testing::tokenizer_fixture("tiny_byte_level"));
  const Encoder ignoring =
      Encoder::load(testing::tokenizer_fixture("tiny_byte_level_ignore_merges"));
  CHECK(plain.encode("abc") == Ids{'a', 260});
  CHECK(ignoring.encode("abc") == Ids{269});  // "abc" is in the vocab, though no merge makes it
  CHECK(ignoring.encode("abcabc") == Ids{'a', 260, 'a', 260});  // not an entry: merged as usual
}

TEST_CASE("SentencePiece fixture: prepended '▁', byte fallback, sections") {
  const Encoder encoder = Encoder::load(testing::tokenizer_fixture("tiny_sentencepiece"));
  // <0xNN> = 3 + NN; "▁"=259 "a"=260 "h"=263 "▁h"=266 "ll"=267 "▁he"=268 "llo"=269 "▁a"=270
  // "▁b"=272. Merges: ▁+h, l+l, ▁h+e, ll+o, ▁+a, ▁+b.
  CHECK(encoder.encode("hello") == Ids{268, 269});  // "▁hello"
  CHECK(encoder.encode("hello hello") == Ids{268, 269, 268, 269});
  CHECK(encoder.encode("a b") == Ids{270, 272});                // " " -> "▁"
  CHECK(encoder.encode("hé") == Ids{266, 3 + 0xC3, 3 + 0xA9});  // 'é' is not in the vocab
  CHECK(encoder.encode("  ") == Ids{259, 259, 259});
  // Each section between added tokens gets its own "▁".
  CHECK(encoder.encode("<s>a") == Ids{1, 270});
  CHECK(encoder.encode("a</s>a") == Ids{270, 2, 270});
}

TEST_CASE("without byte fallback unknown characters become one fused <unk>") {
  const Encoder encoder = Encoder::load(testing::tokenizer_fixture("tiny_sentencepiece_unk"));
  CHECK(encoder.encode("hé€") == Ids{266, 0});  // é and € fuse into one <unk>
  CHECK(encoder.encode("éh") == Ids{259, 0, 263});
}

TEST_CASE("encode gives the same ids from several threads at once") {
  const Encoder encoder = Encoder::load(testing::tokenizer_fixture("tiny_sentencepiece"));
  std::vector<std::string> texts;
  for (int i = 0; i < 2000; ++i)
    texts.push_back(std::string(static_cast<std::size_t>(i % 7), ' ') + "hello a b" +
                    std::string(static_cast<std::size_t>(i % 3), 'l') + "é");
  std::vector<Ids> sequential;
  for (const auto& text : texts) sequential.push_back(encoder.encode(text));
  std::vector<Ids> parallel(texts.size());
  tbb::parallel_for(std::size_t{0}, texts.size(),
                    [&](std::size_t i) { parallel[i] = encoder.encode(texts[i]); });
  CHECK(parallel == sequential);
  CHECK(sequential[1] ==
        Ids{259, 268, 269, 270, 272, 264, 3 + 0xC3, 3 + 0xA9});  // " hello a bl" + "é"
}

TEST_CASE("invalid UTF-8 input is an error naming the byte offset") {
  const Encoder encoder = Encoder::load(testing::tokenizer_fixture("tiny_byte_level"));
  const auto error_of = [&](std::string_view text) -> std::string {
    try {
      encoder.encode(text);
    } catch (const Error& error) {
      return error.what();
    }
    return "";
  };
  CHECK(error_of("ab\xFF"
                 "cd")
            .find("invalid UTF-8 at byte offset 2") != std::string::npos);
  CHECK(error_of("x\xC0\xAF").find("byte offset 1") != std::string::npos);       // overlong
  CHECK(error_of("xy\xED\xA0\x80").find("byte offset 2") != std::string::npos);  // surrogate
  CHECK(error_of("abc\xE2\x96").find("byte offset 3") != std::string::npos);     // truncated
}

TEST_CASE("an encoder refuses merges of tokens that are not in the vocabulary") {
  try {
    Encoder::load(testing::tokenizer_fixture("bad_merge"));
    FAIL("no error");
  } catch (const Error& error) {
    const std::string message = error.what();
    CHECK(message.find("/model/merges/6") != std::string::npos);
    CHECK(message.find("not in the vocabulary") != std::string::npos);
  }
}

namespace {

struct SpotCheck {
  const char* tokenizer;
  const char* text;
  Ids ids;  // printed by the reference: tokenizer.encode(text, {add_special_tokens: false})
};

const std::vector<SpotCheck>& spot_checks() {
  static const std::vector<SpotCheck> checks = {
      {"llama3",
       "Hello, world! It's 2024-06-01.\n",
       {9906, 11, 1917, 0, 1102, 596, 220, 2366, 19, 12, 2705, 12, 1721, 627}},
      {"llama3",
       "naïve café — 日本語 👋🏽",
       {3458, 38672, 588, 53050, 2001, 105180, 102158, 62904, 233, 9468, 237, 121}},
      {"llama3", "DON'T we'll I'M", {85741, 17773, 584, 3358, 358, 28703}},
      {"llama3",
       "a<|endoftext|>b <s> c",
       {64, 27, 91, 8862, 728, 428, 91, 29, 65, 366, 82, 29, 272}},
      {"qwen3",
       "Hello, world! It's 2024-06-01.\n",
       {9707, 11, 1879, 0, 1084, 594, 220, 17, 15, 17, 19, 12, 15, 21, 12, 15, 16, 624}},
      {"qwen3", "a<|endoftext|>b <s> c", {64, 151643, 65, 366, 82, 29, 272}},
      {"qwen3", "tab\there\r\nnbsp\u00a0x", {6192, 197, 6739, 319, 5674, 4102, 87}},
      {"gptoss", "DON'T we'll I'M", {134882, 51532, 22782, 3413, 44}},
      {"gptoss",
       "def f(x):\n    return x  \n\n\n",
       {1314, 285, 4061, 1883, 271, 622, 1215, 145331}},
      {"llama2", "  leading and trailing  ", {259, 5374, 304, 27166, 259}},
      {"llama2",
       "naïve café — 日本語 👋🏽",
       {1879, 28920, 333, 28345, 1040, 28705, 29142, 29119, 30321, 28705, 243, 162, 148, 142,
        31007}},
      {"llama2",
       "a<|endoftext|>b <s> c",
       {264, 28789, 28766, 416, 1009, 772, 28766, 28767, 28726, 28705, 1, 28705, 277}},
      {"gemma3",
       "def f(x):\n    return x  \n\n\n",
       {2063, 517, 236769, 236781, 1473, 107, 140, 2060, 1123, 138, 109}},
      {"gemma3",
       "tab\there\r\nnbsp\u00a0x",
       {4823, 255968, 8472, 251, 107, 11539, 432, 398, 236781}},
      {"gemma3",
       "a<|endoftext|>b <s> c",
       {236746, 236820, 236909, 643, 1340, 1005, 111038, 236763, 236743, 203, 505}},
  };
  return checks;
}

}  // namespace

TEST_CASE("real tokenizers agree with ids from the reference") {
  for (const char* name : {"llama2", "llama3", "qwen3", "gemma3", "gptoss"}) {
    if (!testing::require_tokenizer(name)) continue;
    const Encoder encoder = Encoder::load(resolve_tokenizer(name));
    for (const SpotCheck& check : spot_checks()) {
      if (std::string_view(check.tokenizer) != name) continue;
      INFO(name << ": " << check.text);
      CHECK(encoder.encode(check.text) == check.ids);
    }
  }
}

}  // namespace glrmask
