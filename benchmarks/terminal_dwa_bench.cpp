// Terminal DWA construction (lexer x vocabulary) for the SynCode grammars with the Llama-3
// vocabulary, the vocabulary trie alone, and entering the DWA from a configuration. Needs the
// real data folder and the tokenizer cache; without them each benchmark reports an error.
#include <benchmark/benchmark.h>

#include <exception>
#include <memory>
#include <string>

#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::lexer {
namespace {

const Vocabulary* llama3() {
  static const std::unique_ptr<Vocabulary> vocabulary = []() -> std::unique_ptr<Vocabulary> {
    try {
      return std::make_unique<Vocabulary>(Vocabulary::load(resolve_tokenizer("llama3")));
    } catch (const std::exception&) {
      return nullptr;
    }
  }();
  return vocabulary.get();
}

std::unique_ptr<LexerDfa> syncode_dfa(const std::string& grammar) {
  try {
    return std::make_unique<LexerDfa>(compile_lexer_dfa(terminal_specs(
        load_lark_file(data_dir() / "grammars" / "syncode" / (grammar + "_grammar.lark")))));
  } catch (const std::exception&) {
    return nullptr;
  }
}

void BM_VocabularyTrie(benchmark::State& state) {
  const Vocabulary* vocabulary = llama3();
  if (!vocabulary) return state.SkipWithError("tokenizer llama3 not in the setup cache");
  for (auto _ : state) {
    VocabularyTrie trie = VocabularyTrie::build(*vocabulary);
    benchmark::DoNotOptimize(trie);
    state.counters["nodes"] = trie.num_nodes();
  }
}
BENCHMARK(BM_VocabularyTrie)->Name("vocabulary_trie/llama3")->Unit(benchmark::kMillisecond);

void BM_BuildTerminalDwa(benchmark::State& state, const std::string& grammar) {
  const Vocabulary* vocabulary = llama3();
  const std::unique_ptr<LexerDfa> dfa = syncode_dfa(grammar);
  if (!vocabulary || !dfa) return state.SkipWithError("real data or llama3 tokenizer missing");
  const VocabularyTrie trie = VocabularyTrie::build(*vocabulary);
  for (auto _ : state) {
    TokenSetPool pool(static_cast<uint32_t>(vocabulary->size()));
    TerminalDwa dwa = build_terminal_dwa(*dfa, trie, pool);
    benchmark::DoNotOptimize(dwa);
    state.counters["forks"] = static_cast<double>(dwa.stats().forks);
    state.counters["nodes"] = static_cast<double>(dwa.stats().nodes);
    state.counters["weights"] = static_cast<double>(dwa.stats().distinct_weights);
  }
}
BENCHMARK_CAPTURE(BM_BuildTerminalDwa, json, std::string("json"))
    ->Name("build/json/llama3")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_BuildTerminalDwa, go, std::string("go"))
    ->Name("build/go/llama3")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_BuildTerminalDwa, java, std::string("java"))
    ->Name("build/java/llama3")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_BuildTerminalDwa, sql, std::string("sql"))
    ->Name("build/sql/llama3")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

// What the decoding path pays per step before it follows a trie: forking the configuration
// and looking the forks up. "x := 00" has bytes pending after an accepted match (the costly
// kind); "x := ab" is the common one.
void BM_Enter(benchmark::State& state, const std::string& prefix) {
  const Vocabulary* vocabulary = llama3();
  const std::unique_ptr<LexerDfa> dfa = syncode_dfa("go");
  if (!vocabulary || !dfa) return state.SkipWithError("real data or llama3 tokenizer missing");
  const VocabularyTrie trie = VocabularyTrie::build(*vocabulary);
  TokenSetPool pool(static_cast<uint32_t>(vocabulary->size()));
  const TerminalDwa dwa = build_terminal_dwa(*dfa, trie, pool);
  LexerConfiguration configuration = initial_configuration(*dfa);
  std::vector<EmittedLexeme> out;
  if (feed(*dfa, configuration, prefix, out)) return state.SkipWithError("prefix does not lex");
  for (auto _ : state) benchmark::DoNotOptimize(dwa.enter(configuration));
}
BENCHMARK_CAPTURE(BM_Enter, name, std::string("x := ab"))->Name("enter/go/inside_name");
BENCHMARK_CAPTURE(BM_Enter, zeros, std::string("x := 00"))->Name("enter/go/pending_zeros");

}  // namespace
}  // namespace glrmask::lexer
