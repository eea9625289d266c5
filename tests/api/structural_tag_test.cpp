// Structural tags (api/src/structural_tag.h): free text, triggers as strings and as tokens,
// tags whose contents are JSON Schemas, regexes, GBNF and fixed strings. Every engine of the
// registry equals the oracle at every step of teacher-forced token sequences and of random walks;
// the language is checked directly (free text holding quotes and braces, a trigger forcing its
// tag, at_least_one and stop_after_first); refusals name the JSON pointer.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "api/src/engine_registry.h"
#include "glrmask/glrmask.hpp"

namespace glrmask::structural_tag_test {
namespace {

// Printable ASCII and newline one byte per token, a few longer tokens (one spells "<call>" as
// text), the special token <call> and </call>, the stop id.
struct TagVocab {
  std::vector<std::string> pieces;
  std::int32_t call = 0, end_call = 0, call_text = 0, stop = 0;
  std::int32_t byte_token[128] = {};
};

TagVocab tag_vocab() {
  TagVocab v;
  v.call = 0;
  v.pieces.push_back("<call>");
  v.end_call = 1;
  v.pieces.push_back("</call>");
  for (int c = 0x20; c < 0x7F; ++c) {
    v.byte_token[c] = static_cast<std::int32_t>(v.pieces.size());
    v.pieces.emplace_back(1, static_cast<char>(c));
  }
  v.byte_token['\n'] = static_cast<std::int32_t>(v.pieces.size());
  v.pieces.push_back("\n");
  v.call_text = static_cast<std::int32_t>(v.pieces.size());
  v.pieces.push_back("<call>");
  for (const char* piece : {"{\"", "\": ", "\"}", "hello", " the", "<ca", "ll>", "ab"})
    v.pieces.push_back(piece);
  v.stop = static_cast<std::int32_t>(v.pieces.size());
  v.pieces.push_back("</s>");
  return v;
}

Tokenizer tokenizer_of(const TagVocab& v) {
  return Tokenizer::from_vocab(v.pieces, VocabType::kRaw, {v.stop}, {v.call, v.end_call, v.stop});
}

std::vector<std::int32_t> spell(const TagVocab& v, std::string_view text) {
  std::vector<std::int32_t> ids;
  for (const char c : text) ids.push_back(v.byte_token[static_cast<unsigned char>(c)]);
  return ids;
}

std::vector<std::int32_t> join(std::initializer_list<std::vector<std::int32_t>> parts) {
  std::vector<std::int32_t> ids;
  for (const auto& part : parts) ids.insert(ids.end(), part.begin(), part.end());
  return ids;
}

std::vector<std::uint32_t> mask_of(Matcher& matcher) {
  const std::span<const std::uint32_t> view = matcher.next_token_mask();
  return {view.begin(), view.end()};
}

std::vector<std::int32_t> allowed_ids(const std::vector<std::uint32_t>& mask) {
  std::vector<std::int32_t> ids;
  for (std::size_t w = 0; w < mask.size(); ++w)
    for (int b = 0; b < 32; ++b)
      if ((mask[w] >> b) & 1u) ids.push_back(static_cast<std::int32_t>(w * 32 + b));
  return ids;
}

Grammar tag_grammar(const std::string& json) {
  return Grammar::from_source("structural_tag", json);
}

// The tool-calling shape with two tools: a JSON Schema's arguments and a GBNF one, triggered by
// `trigger` (a JSON string or token object), begins made of `open` and the tool's name.
std::string two_tools(const std::string& trigger, const std::string& open, bool at_least_one,
                      bool stop_after_first) {
  return R"({"type": "structural_tag", "format": {"type": "triggered_tags", "triggers": [)" +
         trigger + R"(], "tags": [
    {"begin": [)" +
         open + R"(, "{\"name\": \"weather\", \"arguments\": "],
     "content": {"type": "json_schema", "json_schema": {"type": "object",
       "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
       "required": ["city"], "additionalProperties": false}},
     "end": ["}", {"token": "</call>"}]},
    {"begin": [)" +
         open + R"(, "{\"name\": \"sum\", \"arguments\": "],
     "content": {"type": "grammar", "grammar": "root ::= \"[\" [0-9]+ (\",\" [0-9]+)* \"]\"\n"},
     "end": ["}", {"token": "</call>"}]}],
  "at_least_one": )" +
         (at_least_one ? "true" : "false") + R"(, "stop_after_first": )" +
         (stop_after_first ? "true" : "false") + "}}";
}

// Whether every token is accepted and the text then complete, comparing the engine's mask with
// the oracle's before every token.
bool run_against_oracle(const Grammar& grammar, const Tokenizer& tokenizer, Engine engine,
                        const std::vector<std::int32_t>& tokens) {
  const Constraint under_test = Constraint::compile(grammar, tokenizer, {.engine = engine});
  const Constraint oracle = Constraint::compile(grammar, tokenizer, {.engine = Engine::kOracle});
  Matcher matcher(under_test);
  Matcher reference(oracle);
  for (std::size_t step = 0; step < tokens.size(); ++step) {
    INFO("step " << step << ", token " << tokens[step]);
    REQUIRE(mask_of(matcher) == mask_of(reference));
    const bool accepted = matcher.accept_token(tokens[step]);
    REQUIRE(accepted == reference.accept_token(tokens[step]));
    if (!accepted) return false;
  }
  REQUIRE(mask_of(matcher) == mask_of(reference));
  return matcher.is_accepting();
}

std::size_t random_walks(const Grammar& grammar, const Tokenizer& tokenizer, Engine engine,
                         std::int32_t stop, std::uint32_t seed) {
  const Constraint under_test = Constraint::compile(grammar, tokenizer, {.engine = engine});
  const Constraint oracle = Constraint::compile(grammar, tokenizer, {.engine = Engine::kOracle});
  std::mt19937 random(seed);
  std::size_t compared = 0;
  for (int walk = 0; walk < 8; ++walk) {
    Matcher matcher(under_test);
    Matcher reference(oracle);
    for (int step = 0; step < 60; ++step) {
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

std::string refusal(const std::string& json) {
  try {
    tag_grammar(json);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("structural tags: free text, a trigger forcing its tag, the tag's content and end") {
  const TagVocab v = tag_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Grammar text_trigger = tag_grammar(two_tools(R"("<call>")", R"("<call>")", false, false));
  const Constraint constraint = Constraint::compile(text_trigger, tokenizer);
  // Free text holds quotes, braces, a lone '<' and "<ca" that does not go on to the trigger.
  for (const char* free : {"", "say \"hi\" {x} a < b", "<ca", "<cal", "x<call"}) {
    Matcher matcher(constraint);
    INFO(free);
    CHECK(matcher.accept_tokens(spell(v, free)));
    CHECK(matcher.is_accepting());
  }
  // The trigger forces a tag: after "<call>" only the tags' begins may follow.
  Matcher matcher(constraint);
  REQUIRE(matcher.accept_tokens(spell(v, "ok <call>")));
  CHECK_FALSE(matcher.is_accepting());
  CHECK(allowed_ids(mask_of(matcher)) ==
        std::vector<std::int32_t>{v.byte_token['{'], v.call_text + 1});  // "{" and "{\""
  REQUIRE(matcher.accept_tokens(spell(v, "{\"name\": \"sum\", \"arguments\": [1,22]}")));
  CHECK_FALSE(matcher.accept_token(v.byte_token['x']));  // only the end token
  REQUIRE(matcher.accept_token(v.end_call));
  CHECK(matcher.is_accepting());
  REQUIRE(matcher.accept_tokens(spell(v, " more \"text\"")));
  CHECK(matcher.is_accepting());
  // Arguments outside the schema are refused where they leave it.
  Matcher wrong(constraint);
  REQUIRE(wrong.accept_tokens(spell(v, "<call>{\"name\": \"weather\", \"arguments\": {\"")));
  CHECK_FALSE(wrong.accept_tokens(spell(v, "days\": 3}")));  // "city" is required
}

TEST_CASE("structural tags: every engine equals the oracle, triggers as text and as a token") {
  const TagVocab v = tag_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Grammar text_trigger = tag_grammar(two_tools(R"("<call>")", R"("<call>")", false, false));
  const Grammar token_trigger =
      tag_grammar(two_tools(R"({"token": "<call>"})", R"({"token": "<call>"})", false, false));
  const Grammar first_only = tag_grammar(two_tools(R"("<call>")", R"("<call>")", true, true));
  const auto call = [&](std::initializer_list<std::vector<std::int32_t>> opening,
                        std::string_view rest) {
    std::vector<std::int32_t> ids = join(opening);
    const std::vector<std::int32_t> tail = spell(v, rest);
    ids.insert(ids.end(), tail.begin(), tail.end());
    ids.push_back(v.end_call);
    return ids;
  };
  const std::string weather = "{\"name\": \"weather\", \"arguments\": {\"city\": \"Rome\"}}";
  const std::string sum = "{\"name\": \"sum\", \"arguments\": [4,5]}";
  for (const EngineEntry& entry : engine_registry()) {
    INFO("engine " << engine_name(entry.engine));
    // As text: the trigger's text, spelled by one token or by several.
    CHECK(run_against_oracle(text_trigger, tokenizer, entry.engine,
                             join({spell(v, "Hi \"x\". "), call({{v.call_text}}, weather),
                                   spell(v, " then "), call({spell(v, "<call>")}, sum)})));
    CHECK(run_against_oracle(
        text_trigger, tokenizer, entry.engine,
        join({{v.call_text + 6, v.call_text + 7}, spell(v, weather), {v.end_call}})));
    // As a token: the text "<call>" is free text, the token opens the tag.
    CHECK(run_against_oracle(token_trigger, tokenizer, entry.engine,
                             join({spell(v, "<call> "), call({{v.call}}, sum)})));
    CHECK_FALSE(run_against_oracle(token_trigger, tokenizer, entry.engine,
                                   join({{v.call}, spell(v, "hello")})));
    // at_least_one and stop_after_first: one tag, then the end.
    CHECK(run_against_oracle(first_only, tokenizer, entry.engine,
                             join({spell(v, "a "), call({spell(v, "<call>")}, sum)})));
    CHECK_FALSE(run_against_oracle(first_only, tokenizer, entry.engine, spell(v, "no call")));
    CHECK_FALSE(run_against_oracle(first_only, tokenizer, entry.engine,
                                   join({call({spell(v, "<call>")}, sum), spell(v, " x")})));
    CHECK(random_walks(text_trigger, tokenizer, entry.engine, v.stop, 7) > 300);
    CHECK(random_walks(token_trigger, tokenizer, entry.engine, v.stop, 8) > 300);
  }
}

TEST_CASE("structural tags: regex and fixed-string contents, the older shape") {
  const TagVocab v = tag_vocab();
  const Tokenizer tokenizer = tokenizer_of(v);
  const Grammar regex = tag_grammar(R"({"type": "structural_tag", "format": {"type":
      "triggered_tags", "triggers": ["<"], "tags": [
      {"begin": "<n>", "content": {"type": "regex", "pattern": "[0-9]{1,3}"}, "end": "</n>"},
      {"begin": "<hr>", "content": {"type": "const_string", "value": ""}, "end": ""}]}})");
  const Grammar older = tag_grammar(R"({"type": "structural_tag", "triggers": ["<f="],
      "structures": [{"begin": "<f=ab>", "schema": {"type": "integer"}, "end": "</f>"}]})");
  for (const EngineEntry& entry : engine_registry()) {
    INFO("engine " << engine_name(entry.engine));
    CHECK(run_against_oracle(regex, tokenizer, entry.engine, spell(v, "a <n>12</n> b <hr>")));
    CHECK_FALSE(run_against_oracle(regex, tokenizer, entry.engine, spell(v, "a <n>1234")));
    CHECK_FALSE(run_against_oracle(regex, tokenizer, entry.engine, spell(v, "a < b")));
    CHECK(run_against_oracle(older, tokenizer, entry.engine, spell(v, "x <f=ab>-7</f> <f")));
    CHECK(random_walks(regex, tokenizer, entry.engine, v.stop, 9) > 300);
  }
}

TEST_CASE("structural tags: refusals name the JSON pointer") {
  CHECK_THAT(refusal("[]"), Catch::Contains("at /:") && Catch::Contains("expected an object"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "or"}})"),
             Catch::Contains("/format/type") && Catch::Contains("triggered_tags"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "triggered_tags",
      "triggers": ["<a"], "tags": [{"begin": "<b>", "content": {"type": "regex", "pattern":
      "x"}, "end": ""}]}})"),
             Catch::Contains("/format/tags/0/begin") && Catch::Contains("any trigger"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "triggered_tags",
      "triggers": ["<a", "<z"], "tags": [{"begin": "<a>", "content": {"type": "regex",
      "pattern": "x"}, "end": ""}]}})"),
             Catch::Contains("/triggers/1") && Catch::Contains("begins no tag"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "triggered_tags",
      "triggers": ["<a"], "tags": [{"begin": "<a>", "content": {"type": "any_text"},
      "end": ""}]}})"),
             Catch::Contains("/format/tags/0/content/type") && Catch::Contains("any_text"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "triggered_tags",
      "triggers": ["<a"], "tags": [{"begin": "<a>", "content": {"type": "json_schema",
      "json_schema": {"type": 7}}, "end": ""}]}})"),
             Catch::Contains("/format/tags/0/content/json_schema"));
  CHECK_THAT(refusal(R"({"type": "structural_tag", "format": {"type": "triggered_tags",
      "triggers": [{"token": 3.5}], "tags": []}})"),
             Catch::Contains("/format/tags"));
}

}  // namespace glrmask::structural_tag_test
