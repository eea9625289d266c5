// The wfa engine against the oracle at every teacher-forced step of GBNF grammars with Llama-3:
// llama.cpp's json.gbnf on MaskBench instances, c.gbnf on C programs of its subset, and the
// arithmetic, list and chess grammars on texts of the project's own (tests/fixtures/gbnf/),
// besides a grammar of the project's own that needs no data folder. The whole MaskBench sweep is
// the `exactness` study on the gbnf-json corpus (docs/experiments.md).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "lib/json_schema/value.h"
#include "lib/tokenizer/encoder.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/gbnf_test_support.h"
#include "tests/support/wfa_engine_comparison.h"

namespace glrmask {
namespace {

struct GbnfCorpus {
  Vocabulary vocabulary;
  Encoder encoder;
};

const GbnfCorpus& llama3() {
  static const GbnfCorpus corpus{Vocabulary::load(resolve_tokenizer("llama3")),
                                 Encoder::load(resolve_tokenizer("llama3"))};
  return corpus;
}

// Every step of every text; the texts must be sentences (the loop fails on a refused token).
std::size_t compare_gbnf_texts(const std::string& grammar_text,
                               const std::vector<std::string>& texts) {
  const auto grammar = testing::compile_gbnf(grammar_text);
  const GbnfCorpus& corpus = llama3();
  mask::OracleEngine oracle(corpus.vocabulary);
  mask::WfaEngine engine(grammar, corpus.vocabulary);
  std::size_t steps = 0;
  for (const std::string& text : texts)
    steps += testing::compare_teacher_forced(grammar, engine, oracle, corpus.vocabulary,
                                             corpus.encoder, text);
  return steps;
}

std::string llama_cpp_grammar(const std::string& name) {
  return testing::read_file(data_dir() / "grammars" / "llama.cpp" / name);
}

std::string gbnf_fixture(const std::string& name) {
  return testing::read_file(testing::fixtures_dir() / "gbnf" / name);
}

}  // namespace

TEST_CASE("wfa = oracle on a GBNF grammar of the project's own (Llama-3)") {
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  // Keys and values with optional spaces around '=', nested sections, numbers that an optional
  // space separates: maximal munch's traps, in one small grammar.
  const std::string grammar =
      "root ::= line+\n"
      "line ::= key ws \"=\" ws value \"\\n\" | \"[\" key (\".\" key)* \"]\\n\"\n"
      "key ::= [a-z_] [a-z0-9_-]*\n"
      "value ::= number (\" \"? number)* | \"\\\"\" [^\"\\n]* \"\\\"\" | \"{\" ws (key ws \"=\" ws "
      "value (\",\" ws key ws \"=\" ws value)*)? ws \"}\"\n"
      "number ::= \"-\"? [0-9]+ (\".\" [0-9]+)?\n"
      "ws ::= [ \\t]*\n";
  const std::vector<std::string> texts = {
      "[server.http]\nport = 8080\nhosts=\"a.example b.example\"\nweights = 1 2 3.5 -4\n",
      "limits = { cpu = 2, memory_mb=512, nested = {x = 1} }\nratio=0.25 1\n",
  };
  CHECK(compare_gbnf_texts(grammar, texts) >= 40);
}

TEST_CASE("wfa = oracle on llama.cpp's json.gbnf with MaskBench instances (Llama-3)") {
  if (!testing::require_data_dir("wfa on json.gbnf")) return testing::skip_test_case();
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  // Objects only (root ::= object), in json.dumps layout and in llama.cpp's own: a newline and
  // an indentation where its ws allows one.
  const std::vector<std::string> texts = {
      "{\"name\": \"Ada Lovelace\", \"born\": 1815, \"tags\": [\"math\", \"poetry\\u00e9\"], "
      "\"alive\": false, \"meta\": {\"score\": -12.5e3, \"ids\": [1, 22, 333], \"x\": null}}",
      "{\n  \"a\": [\n    {\"b\": \"\\\"quoted\\\" \\\\ back\"},\n    []\n  ],\n  \"c\": {}\n}",
  };
  const std::string grammar = llama_cpp_grammar("json.gbnf");
  std::size_t steps = compare_gbnf_texts(grammar, texts);
  // A few MaskBench instances (objects) as written there, re-laid out the json.dumps way.
  std::size_t instances = 0;
  std::vector<std::string> maskbench;
  for (const char* file : {"Github_easy---o10008.json", "Github_medium---o5026.json"}) {
    const auto path = data_dir() / "jsonschema" / "maskbench-dev" / file;
    const json_schema::JsonValue document =
        json_schema::parse_json(testing::read_file(path), path.string());
    for (const json_schema::JsonValue& instance : document.find("valid")->items) {
      if (!instance.is_object()) continue;
      maskbench.push_back(json_schema::to_json_text(instance));
      ++instances;
    }
  }
  steps += compare_gbnf_texts(grammar, maskbench);
  CHECK(instances >= 2);
  CHECK(steps >= 150);
}

TEST_CASE("wfa = oracle on llama.cpp's c, arithmetic, list and chess grammars (Llama-3)") {
  if (!testing::require_data_dir("wfa on c.gbnf and others")) return testing::skip_test_case();
  if (!testing::require_tokenizer("llama3")) return testing::skip_test_case();
  std::size_t steps = compare_gbnf_texts(
      llama_cpp_grammar("c.gbnf"), {gbnf_fixture("c_loops.txt"), gbnf_fixture("c_functions.txt")});
  steps +=
      compare_gbnf_texts(llama_cpp_grammar("arithmetic.gbnf"), {gbnf_fixture("arithmetic.txt")});
  steps += compare_gbnf_texts(llama_cpp_grammar("list.gbnf"), {gbnf_fixture("list.txt")});
  steps += compare_gbnf_texts(llama_cpp_grammar("chess.gbnf"), {gbnf_fixture("chess.txt")});
  CHECK(steps >= 150);
}

}  // namespace glrmask
