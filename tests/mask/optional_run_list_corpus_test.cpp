// Long runs of optional properties compiled as lists (docs/json_schema.md, "Long runs of optional
// properties") on real schemas: the first MaskBench dev schemas whose grammar holds such a list,
// each one's first valid instance teacher-forced with Llama-3, the wfa against the oracle at
// every step (the first 40 and EOS). Labelled `corpus`: the oracle over Llama-3's vocabulary is
// slow under the sanitizers. The whole set (31 schemas, 22,492 steps) is a recorded run.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/lark/lark_writer.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/oracle/oracle_engine.h"
#include "mask/wfa/wfa_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"

using namespace glrmask;

TEST_CASE("wfa = oracle on MaskBench schemas whose optional properties compile to lists") {
  if (!glrmask::testing::require_data_dir("optional_run_list_corpus_test (MaskBench)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  mask::OracleEngine oracle(vocabulary);
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::size_t schemas = 0;
  std::size_t steps = 0;
  for (const std::filesystem::path& file : files) {
    if (schemas == 4) break;
    INFO(file.filename().string());
    const json_schema::JsonValue document =
        json_schema::parse_json(glrmask::testing::read_file(file), file.string());
    const json_schema::JsonValue* valid = document.find("valid");
    if (valid == nullptr || valid->items.empty()) continue;
    std::optional<GrammarModel> schema_grammar;
    try {
      schema_grammar.emplace(
          json_schema::compile_json_schema(*document.find("schema"), file.stem().string()));
    } catch (const Error&) {
      continue;  // one of the few refused schemas (docs/json_schema.md)
    }
    if (to_lark_text(*schema_grammar).find("optional_run") == std::string::npos) continue;
    const auto grammar = glr::CompiledGrammar::compile(std::move(*schema_grammar));
    mask::WfaEngine engine(grammar, vocabulary);
    const std::string text = json_schema::to_json_text(valid->items[0]);
    {
      // An instance out of schema order is refused by every engine (docs/json_schema.md).
      glr::Session session(grammar);
      if (!session.try_commit_bytes(text) || !session.is_accepting()) continue;
    }
    steps += glrmask::testing::compare_teacher_forced(grammar, engine, oracle, vocabulary, encoder,
                                                      text, 40);
    ++schemas;
  }
  CHECK(schemas == 4);
  CHECK(steps > 100);
}
