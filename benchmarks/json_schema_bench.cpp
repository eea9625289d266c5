// Time to first mask of JSON Schemas with the Llama-3 vocabulary loaded and its tables
// (mask/lazy/vocabulary_tables.h) built once: schema text -> grammar -> lexer DFA and LR table (the
// "grammar" benchmark) and the staged engine's first mask of an empty session ("first_mask", both
// phases). Schemas from maskbench-dev chosen for their shape: a small object, nested objects with
// patterns, a long enum, and a string with maxLength 255. Needs the data folder and the tokenizer
// cache; without them each benchmark reports an error.
#include <benchmark/benchmark.h>

#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/lazy/staged_engine.h"
#include "mask/lazy/vocabulary_tables.h"

namespace glrmask {
namespace {

const mask::VocabularyTables* llama3_tables() {
  static const std::unique_ptr<Vocabulary> vocabulary = []() -> std::unique_ptr<Vocabulary> {
    try {
      return std::make_unique<Vocabulary>(Vocabulary::load(resolve_tokenizer("llama3")));
    } catch (const std::exception&) {
      return nullptr;
    }
  }();
  static const std::unique_ptr<mask::VocabularyTables> tables =
      vocabulary ? std::make_unique<mask::VocabularyTables>(*vocabulary) : nullptr;
  return tables.get();
}

// The schema of a maskbench-dev file, as JSON text; empty when the data is missing.
std::string schema_text(const std::string& id) {
  std::ifstream in(data_dir() / "jsonschema" / "maskbench-dev" / (id + ".json"));
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  return json_schema::to_json_text(*json_schema::parse_json(text.str(), id).find("schema"));
}

void BM_Grammar(benchmark::State& state, const std::string& id) {
  const std::string text = schema_text(id);
  if (text.empty()) return state.SkipWithError("maskbench-dev not in the data folder");
  for (auto _ : state) {
    auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(text, id));
    benchmark::DoNotOptimize(grammar);
  }
}

void BM_FirstMask(benchmark::State& state, const std::string& id) {
  const mask::VocabularyTables* tables = llama3_tables();
  const std::string text = schema_text(id);
  if (!tables || text.empty()) return state.SkipWithError("real data or llama3 tokenizer missing");
  std::vector<std::uint32_t> words(
      dense_word_count(static_cast<std::uint32_t>(tables->vocabulary.size())));
  mask::StagedOptions lazy_only;
  lazy_only.build_wfa = false;
  for (auto _ : state) {
    auto grammar = glr::CompiledGrammar::compile(json_schema::compile_json_schema_text(text, id));
    mask::StagedEngine engine(grammar, *tables, lazy_only);
    glr::Session session(grammar, &tables->vocabulary);
    benchmark::DoNotOptimize(engine.mask_view(session, words));
  }
}

#define GLRMASK_SCHEMA_BENCHES(label, id)                                               \
  BENCHMARK_CAPTURE(BM_Grammar, label, std::string(id))->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(BM_FirstMask, label, std::string(id))->Unit(benchmark::kMillisecond)

GLRMASK_SCHEMA_BENCHES(small_object, "Github_easy---o10008");
GLRMASK_SCHEMA_BENCHES(nested_patterns, "Github_easy---o12621");
GLRMASK_SCHEMA_BENCHES(kubernetes, "Kubernetes---kb_1030_Normalized");
GLRMASK_SCHEMA_BENCHES(glaive, "Glaiveai2K---create_calendar_event_342b5c33");
GLRMASK_SCHEMA_BENCHES(max_length_255, "Github_easy---o26593");

}  // namespace
}  // namespace glrmask
