// json_schema: JSON Schemas as a server sees them (docs/json_schema.md). One process loads the
// tokenizer once; then, for every schema of MaskBench dev, it measures where the time to the first
// mask goes, phase by phase: schema to grammar, lexer DFA and LALR(1) table, Terminal DWA, Parser
// DWA.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "experiments/studies/run_header.h"
#include "experiments/studies/studies.h"
#include "glr/compiled_grammar.h"
#include "lexer/terminal_dwa_builder.h"
#include "lexer/vocabulary_trie.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/json_schema/compiler.h"
#include "lib/json_schema/value.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"
#include "wfa/parser_dwa_builder.h"

namespace glrmask::experiments {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int run_json_schema(const StudyOptions& options) {
  const std::string tokenizer = options.tokenizers.empty() ? "llama3" : options.tokenizers[0];
  const Vocabulary vocabulary = Vocabulary::load(resolve_tokenizer(tokenizer));
  const auto trie_started = Clock::now();
  const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
  const double trie_ms = ms_since(trie_started);
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(data_dir() / "jsonschema" / "maskbench-dev"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (options.max_programs && files.size() > options.max_programs)
    files.resize(options.max_programs);
  std::filesystem::create_directories(options.out_dir);
  std::ofstream csv(options.out_dir / "phases.csv");
  csv << "schema,status,grammar_ms,lexer_lr_ms,terminal_dwa_ms,parser_dwa_ms,forks,dwa_states\n";
  fmt::print("vocabulary trie {:.1f} ms (shared)\n", trie_ms);
  for (const auto& file : files) {
    const std::string id = file.stem().string();
    const json_schema::JsonValue document = json_schema::parse_json(read_text(file), file.string());
    double grammar_ms = 0, lexer_ms = 0, tdwa_ms = 0, pdwa_ms = 0;
    std::size_t forks = 0, states = 0;
    std::string status = "ok";
    try {
      auto started = Clock::now();
      Grammar grammar = json_schema::compile_json_schema(*document.find("schema"), id);
      grammar_ms = ms_since(started);
      started = Clock::now();
      const auto compiled = glr::CompiledGrammar::compile(std::move(grammar));
      lexer_ms = ms_since(started);
      started = Clock::now();
      TokenSetPool pool(static_cast<std::uint32_t>(vocabulary.size()));
      const lexer::TerminalDwa dwa = lexer::build_terminal_dwa(compiled->dfa(), trie, pool);
      tdwa_ms = ms_since(started);
      forks = dwa.stats().forks;
      started = Clock::now();
      const wfa::ParserDwa parser = wfa::build_parser_dwa(*compiled, dwa, pool, vocabulary.eos());
      pdwa_ms = ms_since(started);
      states = parser.num_states();
    } catch (const Error& e) {
      status = "refused";
    }
    csv << fmt::format("{},{},{:.3f},{:.3f},{:.3f},{:.3f},{},{}\n", id, status, grammar_ms,
                       lexer_ms, tdwa_ms, pdwa_ms, forks, states);
    fmt::print("{:<60} {:>8} grammar {:8.2f} lexer+lr {:8.2f} tdwa {:9.2f} pdwa {:9.2f} ms\n", id,
               status, grammar_ms, lexer_ms, tdwa_ms, pdwa_ms);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace glrmask::experiments
