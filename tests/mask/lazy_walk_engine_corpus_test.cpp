// The lazy engine (mask/lazy/lazy_walk_engine.h) against the oracle at every teacher-forced step of
// MaskBench schemas' valid instances with Llama-3: a fixed slice (every 50th schema of
// maskbench-dev in name order, the first valid instance of each, at most 40 steps), each schema's
// engine starting cold as a server's would. The run over more schemas and every instance is the
// json_schema study with `--engines wfa,lazy,oracle` (docs/json_schema.md). Labelled `corpus`:
// the oracle over Llama-3's vocabulary is slow under the sanitizers.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "glr/compiled_grammar.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/lazy/lazy_walk_engine.h"
#include "mask/lazy/vocabulary_tables.h"
#include "mask/oracle/oracle_engine.h"
#include "tests/support/test_support.h"
#include "tests/support/wfa_engine_comparison.h"

using namespace glrmask;

TEST_CASE("lazy engine = oracle on teacher-forced MaskBench schemas (Llama-3)") {
  if (!glrmask::testing::require_data_dir("lazy_walk_engine_corpus_test (MaskBench)"))
    return glrmask::testing::skip_test_case();
  if (!glrmask::testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer("llama3"));
  const Encoder encoder = Encoder::load(resolve_tokenizer("llama3"));
  const mask::VocabularyTables tables(vocabulary);
  mask::OracleEngine oracle(vocabulary);
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::size_t schemas = 0, steps = 0, plain_forks = 0;
  for (std::size_t i = 0; i < files.size(); i += 50) {
    INFO(files[i].filename().string());
    const json_schema::JsonValue document =
        json_schema::parse_json(glrmask::testing::read_file(files[i]), files[i].string());
    std::shared_ptr<const glr::CompiledGrammar> grammar;
    try {
      grammar = glr::CompiledGrammar::compile(
          json_schema::compile_json_schema(*document.find("schema"), files[i].stem().string()));
    } catch (const Error&) {
      continue;  // one of the few refused schemas (docs/json_schema.md)
    }
    const json_schema::JsonValue* valid = document.find("valid");
    if (!valid || valid->items.empty()) continue;
    mask::LazyWalkEngine lazy(grammar, vocabulary, tables.trie, &tables.plain);
    steps += glrmask::testing::compare_teacher_forced(
        grammar, lazy, oracle, vocabulary, encoder, json_schema::to_json_text(valid->items[0]), 40);
    plain_forks += lazy.dwa().stats().plain_forks;
    ++schemas;
  }
  CHECK(schemas >= 4);
  CHECK(steps >= 100);
  CHECK(plain_forks > 0);  // some string content went through the plain-token shortcut
}
