// Token terminals (lib/core/token_terminal.h, api/src/token_terminals.h): GBNF's `<[id]>`,
// `<name>` and `(!<...>)*`, and the same spellings in Lark rules, matched by token id, never by
// text, in every engine of the registry. Each engine's mask equals the oracle's at every step of
// teacher-forced token sequences and of random walks; the tokens' texts are refused where only the
// token may stand; llama.cpp's own token cases (the data folder) pass through every engine; names
// that no token has, stop ids and a lone negation are refused naming their place.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "api/src/engine_registry.h"
#include "glrmask/glrmask.hpp"
#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "tests/support/test_support.h"

namespace glrmask::token_terminal_test {
namespace {

// A raw vocabulary: specials first (each a token the grammars may name), one token per printable
// ASCII byte, a few longer tokens (one of them spells "<think>" as text, one holds the byte 0xFF
// that only a token's stand-in may start with), then the stop id and a padding special.
struct TokenVocab {
  std::vector<std::string> pieces;
  std::vector<std::int32_t> specials;
  std::int32_t think = 0, end_think = 0, tool_call = 0, end_tool_call = 0, other_special = 0;
  std::int32_t think_text = 0, lead_byte = 0, stop = 0, pad = 0;
  std::int32_t byte_token[128] = {};

  std::int32_t add(std::string piece, bool special = false) {
    pieces.push_back(std::move(piece));
    const auto id = static_cast<std::int32_t>(pieces.size() - 1);
    if (special) specials.push_back(id);
    return id;
  }
};

TokenVocab token_vocab() {
  TokenVocab v;
  // Ids 0..29 special, as llama.cpp's token cases need ids 10..21 (their texts are invented).
  for (int id = 0; id < 30; ++id) v.add("<|t" + std::to_string(id) + "|>", true);
  v.think = v.add("<think>", true);
  v.end_think = v.add("</think>", true);
  v.tool_call = v.add("<tool_call>", true);
  v.end_tool_call = v.add("</tool_call>", true);
  v.other_special = v.add("<|image|>", true);
  for (int c = 0x20; c < 0x7F; ++c) v.byte_token[c] = v.add(std::string(1, static_cast<char>(c)));
  v.byte_token['\n'] = v.add("\n");
  v.think_text = v.add("<think>");
  v.lead_byte = v.add("\xFF");
  for (const char* piece : {"hello", " world", "answer", ": ", "ab", "{\"", "\"}", "\":"})
    v.add(piece);
  v.stop = v.add("</s>", true);
  v.pad = v.add("<pad>", true);
  return v;
}

Tokenizer tokenizer_of(const TokenVocab& v) {
  return Tokenizer::from_vocab(v.pieces, VocabType::kRaw, {v.stop}, v.specials);
}

std::vector<std::uint32_t> mask_of(Matcher& matcher) {
  const std::span<const std::uint32_t> view = matcher.next_token_mask();
  return {view.begin(), view.end()};
}

bool allows(const std::vector<std::uint32_t>& mask, std::int32_t token) {
  return ((mask[static_cast<std::size_t>(token) / 32] >> (token % 32)) & 1u) != 0;
}

std::vector<std::int32_t> allowed_ids(const std::vector<std::uint32_t>& mask) {
  std::vector<std::int32_t> ids;
  for (std::size_t w = 0; w < mask.size(); ++w)
    for (int b = 0; b < 32; ++b)
      if ((mask[w] >> b) & 1u) ids.push_back(static_cast<std::int32_t>(w * 32 + b));
  return ids;
}

// Feeds `tokens` to a matcher of `engine` and one of the oracle, comparing their masks before
// every token; returns whether every token was accepted and the text then complete.
bool run_against_oracle(const Grammar& grammar, const Tokenizer& tokenizer, Engine engine,
                        const std::vector<std::int32_t>& tokens) {
  const Constraint under_test = Constraint::compile(grammar, tokenizer, {.engine = engine});
  const Constraint oracle = Constraint::compile(grammar, tokenizer, {.engine = Engine::kOracle});
  Matcher matcher(under_test);
  Matcher reference(oracle);
  for (std::size_t step = 0; step < tokens.size(); ++step) {
    INFO("step " << step << ", token " << tokens[step]);
    const std::vector<std::uint32_t> expected = mask_of(reference);
    REQUIRE(mask_of(matcher) == expected);
    const bool accepted = matcher.accept_token(tokens[step]);
    REQUIRE(accepted == reference.accept_token(tokens[step]));
    CHECK(accepted == allows(expected, tokens[step]));
    if (!accepted) return false;
  }
  REQUIRE(mask_of(matcher) == mask_of(reference));
  REQUIRE(matcher.is_accepting() == reference.is_accepting());
  return matcher.is_accepting();
}

// Random walks: each step a token drawn from the oracle's mask; the engine's mask must equal it.
std::size_t random_walks(const Grammar& grammar, const Tokenizer& tokenizer, Engine engine,
                         std::size_t walks, std::size_t steps, std::int32_t stop) {
  const Constraint under_test = Constraint::compile(grammar, tokenizer, {.engine = engine});
  const Constraint oracle = Constraint::compile(grammar, tokenizer, {.engine = Engine::kOracle});
  std::mt19937 random(20261207);
  std::size_t compared = 0;
  for (std::size_t walk = 0; walk < walks; ++walk) {
    Matcher matcher(under_test);
    Matcher reference(oracle);
    for (std::size_t step = 0; step < steps; ++step) {
      INFO("walk " << walk << ", step " << step);
      const std::vector<std::uint32_t> expected = mask_of(reference);
      REQUIRE(mask_of(matcher) == expected);
      ++compared;
      std::vector<std::int32_t> ids = allowed_ids(expected);
      std::erase(ids, stop);
      if (ids.empty()) break;
      const std::int32_t token = ids[random() % ids.size()];
      REQUIRE(matcher.accept_token(token));
      REQUIRE(reference.accept_token(token));
    }
  }
  return compared;
}

std::vector<std::int32_t> spell(const TokenVocab& v, std::string_view text) {
  std::vector<std::int32_t> ids;
  for (const char c : text) ids.push_back(v.byte_token[static_cast<unsigned char>(c)]);
  return ids;
}

std::vector<std::int32_t> join(std::initializer_list<std::vector<std::int32_t>> parts) {
  std::vector<std::int32_t> ids;
  for (const auto& part : parts) ids.insert(ids.end(), part.begin(), part.end());
  return ids;
}

std::string refusal(std::string_view format, std::string_view text, const Tokenizer& tokenizer) {
  try {
    Constraint::compile(Grammar::from_source(format, text), tokenizer);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

constexpr const char* kReasoning = "root ::= <think> (!</think>)* </think> \"answer: \" [a-z]+\n";

}  // namespace

TEST_CASE("token terminals: the token, never its text, and every other token inside a negation") {
  const TokenVocab v = token_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Constraint constraint = Constraint::compile(Grammar::from_source("gbnf", kReasoning),
                                                    tokenizer, {.engine = Engine::kOracle});
  Matcher matcher(constraint);
  std::vector<std::uint32_t> mask = mask_of(matcher);
  // Only the special token opens: not the ordinary token spelling "<think>", not "<".
  CHECK(allowed_ids(mask) == std::vector<std::int32_t>{v.think});
  CHECK_FALSE(matcher.accept_token(v.think_text));
  REQUIRE(matcher.accept_token(v.think));
  mask = mask_of(matcher);
  // Inside: any text, any token but </think> (other specials too, as in llama.cpp), never the
  // stop id or the ordinary token holding 0xFF.
  for (const std::int32_t id : {v.byte_token['a'], v.think, v.think_text, v.tool_call,
                                v.other_special, v.end_tool_call, v.pad, std::int32_t{12}})
    CHECK(allows(mask, id));
  CHECK_FALSE(allows(mask, v.stop));
  CHECK_FALSE(allows(mask, v.lead_byte));
  CHECK(allows(mask, v.end_think));
  for (const std::int32_t id : join({spell(v, "I <think> hard"), {v.tool_call, v.think}}))
    REQUIRE(matcher.accept_token(id));
  REQUIRE(matcher.accept_token(v.end_think));
  mask = mask_of(matcher);
  CHECK(allowed_ids(mask).size() == 2);  // "a" and "answer"
  for (const std::int32_t id : spell(v, "answer: ok")) REQUIRE(matcher.accept_token(id));
  CHECK(matcher.is_accepting());
  // The token's stand-in is not text: raw bytes holding 0xFF are refused, naming the offset.
  Matcher raw(constraint);
  CHECK_FALSE(raw.accept_bytes(constraint.tokenizer().token_bytes(v.think)));
  CHECK_THROWS_WITH(raw.commit_bytes("\xFF"), Catch::Contains("byte offset 0"));
}

TEST_CASE("token terminals: every engine equals the oracle on teacher-forced and random tokens") {
  const TokenVocab v = token_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Grammar reasoning = Grammar::from_source("gbnf", kReasoning);
  const Grammar tools = Grammar::from_source(
      "gbnf",
      "root ::= (text | call)*\ntext ::= [a-z ]+\n"
      "call ::= <tool_call> \"{\\\"\" [a-z]+ \"\\\":\" [0-9]+ \"}\" </tool_call>\n");
  const Grammar lark = Grammar::from_source(
      "lark", "start: <think> WORD <[31]> \"!\" | <[12]> WORD\nWORD: /[a-z ]+/\n");
  const std::vector<std::int32_t> reasoning_text = join({{v.think},
                                                         spell(v, "hm "),
                                                         {v.tool_call, v.end_tool_call},
                                                         {v.end_think},
                                                         spell(v, "answer: ab")});
  const std::vector<std::int32_t> tools_text = join({spell(v, "hello "),
                                                     {v.tool_call},
                                                     spell(v, "{\"ab\":12}"),
                                                     {v.end_tool_call},
                                                     spell(v, " ok")});
  const std::vector<std::int32_t> lark_text =
      join({{v.think}, spell(v, "a b"), {31}, spell(v, "!")});
  std::size_t engines = 0;
  for (const EngineEntry& entry : engine_registry()) {
    INFO("engine " << engine_name(entry.engine));
    ++engines;
    CHECK(run_against_oracle(reasoning, tokenizer, entry.engine, reasoning_text));
    CHECK(run_against_oracle(tools, tokenizer, entry.engine, tools_text));
    CHECK(run_against_oracle(lark, tokenizer, entry.engine, lark_text));
    // The token's text where only the token may stand.
    CHECK_FALSE(run_against_oracle(reasoning, tokenizer, entry.engine, {v.think_text}));
    CHECK_FALSE(
        run_against_oracle(tools, tokenizer, entry.engine, join({spell(v, "<tool_call>{")})));
    CHECK(random_walks(reasoning, tokenizer, entry.engine, 6, 40, v.stop) > 100);
    CHECK(random_walks(tools, tokenizer, entry.engine, 6, 40, v.stop) > 100);
  }
  CHECK(engines >= 4);
}

TEST_CASE("token terminals: llama.cpp's token cases pass in every engine") {
  if (!testing::require_data_dir("token terminals: llama.cpp's token cases"))
    return testing::skip_test_case();
  const TokenVocab v = token_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const auto path = data_dir() / "grammars" / "llama.cpp" / "grammar_integration.json";
  const json_schema::JsonValue cases =
      json_schema::parse_json(testing::read_file(path), path.string());
  const auto tokens_of = [&](const json_schema::JsonValue& input) {
    std::vector<std::int32_t> ids;
    for (const json_schema::JsonValue& part : input.find("parts")->items) {
      if (part.is_string()) {
        const std::vector<std::int32_t> text = spell(v, part.string);
        ids.insert(ids.end(), text.begin(), text.end());
      } else {
        ids.push_back(static_cast<std::int32_t>(part.find("token")->number));
      }
    }
    return ids;
  };
  std::size_t grammars = 0, passing = 0, failing = 0;
  for (const json_schema::JsonValue& c : cases.find("cases")->items) {
    const json_schema::JsonValue* text = c.find("grammar");
    if (text == nullptr || text->string.find("<[") == std::string::npos) continue;
    INFO(c.find("description")->string);
    SourceOptions options;
    options.grammar.start = c.find("root")->string;
    const Grammar grammar = Grammar::from_source("gbnf", text->string, options);
    ++grammars;
    for (const EngineEntry& entry : engine_registry()) {
      INFO("engine " << engine_name(entry.engine));
      for (const json_schema::JsonValue& input : c.find("passing")->items) {
        CHECK(run_against_oracle(grammar, tokenizer, entry.engine, tokens_of(input)));
        ++passing;
      }
      for (const json_schema::JsonValue& input : c.find("failing")->items) {
        CHECK_FALSE(run_against_oracle(grammar, tokenizer, entry.engine, tokens_of(input)));
        ++failing;
      }
    }
  }
  CHECK(grammars == 2);
  CHECK(passing >= 40);
  CHECK(failing >= 40);
}

TEST_CASE("token terminals: refused with the place and the reason") {
  const TokenVocab v = token_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  CHECK_THAT(refusal("gbnf", "root ::= \"a\" <nothere>\n", tokenizer),
             Catch::Contains("1:14") && Catch::Contains("no token of the"));
  CHECK_THAT(refusal("gbnf", "root ::= <[99999]>\n", tokenizer),
             Catch::Contains("1:10") && Catch::Contains("is not a token"));
  CHECK_THAT(refusal("gbnf", "root ::= \"a\" |\n  </s>\n", tokenizer),
             Catch::Contains("2:3") && Catch::Contains("stop id"));
  CHECK_THAT(refusal("gbnf", "root ::= <think> !</think> </think>\n", tokenizer),
             Catch::Contains("1:18") && Catch::Contains("cannot count"));
  CHECK_THAT(refusal("gbnf", "root ::= < think>\n", tokenizer), Catch::Contains("blank"));
  CHECK_THAT(refusal("gbnf", "root ::= <[12", tokenizer), Catch::Contains("unterminated"));
  CHECK_THAT(refusal("lark", "start: A\nA: \"x\" <think>\n", tokenizer),
             Catch::Contains("2:8") && Catch::Contains("only in rules"));
  // A token named both by id and by text is one token: both spellings match it.
  const Grammar both =
      Grammar::from_source("gbnf", "root ::= <think> <[" + std::to_string(v.think) + "]>\n");
  CHECK(run_against_oracle(both, tokenizer, Engine::kWfa, {v.think, v.think}));
}

TEST_CASE("token terminals: saved and loaded, jump-forward stops before a token") {
  const TokenVocab v = token_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Grammar grammar = Grammar::from_source("gbnf", "root ::= \"ab\" <think> \"c\"\n");
  const Constraint constraint = Constraint::compile(grammar, tokenizer);
  Matcher matcher(constraint);
  CHECK(matcher.find_jump_forward_string() == "ab");
  REQUIRE(matcher.accept_tokens(std::vector<std::int32_t>{v.byte_token['a'], v.byte_token['b']}));
  CHECK(matcher.find_jump_forward_string().empty());
  const Constraint loaded = Constraint::deserialize(constraint.serialize(), tokenizer);
  Matcher again(loaded);
  REQUIRE(again.accept_tokens(
      std::vector<std::int32_t>{v.byte_token['a'], v.byte_token['b'], v.think}));
  CHECK(again.find_jump_forward_string() == "c");
  REQUIRE(again.accept_token(v.byte_token['c']));
  CHECK(again.is_accepting());
}

}  // namespace glrmask::token_terminal_test
