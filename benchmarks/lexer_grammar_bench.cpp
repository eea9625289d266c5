// The lexer built from the real SynCode grammars through our own front-end (load_lark_file ->
// terminal_specs -> compile_lexer_dfa): DFA construction time, and lexing throughput over the
// corpus files the data folder says parse (programs/go/parses.txt, the nocomments/ copies of
// programs/java/parses.txt, each line of programs/sql/queries.sql). The Python grammar is refused
// by the front-end (its %declare'd _INDENT/_DEDENT need an indenter), which its benchmark reports
// as the skip reason.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"

namespace glrmask::lexer {
namespace {

namespace fs = std::filesystem;

fs::path grammar_path(const std::string& language) {
  return data_dir() / "grammars" / "syncode" / (language + "_grammar.lark");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// The corpus texts for a language, as the lexer reference test uses them.
std::vector<std::string> corpus(const std::string& language) {
  const fs::path programs = data_dir() / "programs" / language;
  std::vector<std::string> texts;
  if (language == "sql") return lines_of(read_file(programs / "queries.sql"));
  std::set<fs::path> files;
  for (const std::string& line : lines_of(read_file(programs / "parses.txt"))) {
    files.insert(language == "java" ? programs / "nocomments" / fs::path(line).filename()
                                    : programs / line);
  }
  for (const fs::path& file : files) texts.push_back(read_file(file));
  return texts;
}

void BM_CompileGrammarDfa(benchmark::State& state, const std::string& language) {
  if (!have_data_dir()) {
    state.SkipWithError("the real-data folder is absent (set GLRMASK_DATA)");
    return;
  }
  std::vector<TerminalSpec> terminals;
  try {
    terminals = terminal_specs(load_lark_file(grammar_path(language)));
  } catch (const Error& e) {
    state.SkipWithError(e.what());
    return;
  }
  for (auto _ : state) {
    LexerDfa dfa = compile_lexer_dfa(terminals);
    benchmark::DoNotOptimize(dfa);
    state.PauseTiming();
    state.counters["terminals"] = static_cast<double>(dfa.stats().terminals);
    state.counters["states"] = static_cast<double>(dfa.stats().states);
    state.counters["subset_states"] = static_cast<double>(dfa.stats().subset_states);
    state.counters["byte_classes"] = static_cast<double>(dfa.stats().byte_classes);
    state.ResumeTiming();
  }
}

// Lexes every corpus text per iteration, fed in `chunk`-byte pieces.
void BM_LexCorpus(benchmark::State& state, const std::string& language) {
  if (!have_data_dir()) {
    state.SkipWithError("the real-data folder is absent (set GLRMASK_DATA)");
    return;
  }
  const size_t chunk = static_cast<size_t>(state.range(0));
  std::optional<LexerDfa> dfa;
  try {
    dfa.emplace(compile_lexer_dfa(terminal_specs(load_lark_file(grammar_path(language)))));
  } catch (const Error& e) {
    state.SkipWithError(e.what());
    return;
  }
  const std::vector<std::string> texts = corpus(language);
  size_t bytes = 0;
  for (const std::string& text : texts) bytes += text.size();

  StreamingLexer lexer(*dfa);  // finish() makes it ready for the next text
  std::vector<Lexeme> lexemes;
  size_t lexeme_count = 0;
  for (auto _ : state) {
    lexeme_count = 0;
    for (const std::string& text : texts) {
      lexemes.clear();
      for (size_t i = 0; i < text.size(); i += chunk)
        lexer.feed(std::string_view(text).substr(i, chunk), lexemes);
      lexer.finish(lexemes);
      lexeme_count += lexemes.size();
    }
    benchmark::DoNotOptimize(lexemes.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["files"] = static_cast<double>(texts.size());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["lexemes"] = static_cast<double>(lexeme_count);
}

BENCHMARK_CAPTURE(BM_CompileGrammarDfa, go, std::string("go"))
    ->Name("grammar_dfa/go")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammarDfa, java, std::string("java"))
    ->Name("grammar_dfa/java")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammarDfa, sql, std::string("sql"))
    ->Name("grammar_dfa/sql")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammarDfa, python, std::string("python"))
    ->Name("grammar_dfa/python")
    ->Unit(benchmark::kMillisecond);

// Whole files, and 4 bytes at a time (about an LLM lexeme's worth).
BENCHMARK_CAPTURE(BM_LexCorpus, go, std::string("go"))->Name("lex_corpus/go")->Arg(1 << 30)->Arg(4);
BENCHMARK_CAPTURE(BM_LexCorpus, java, std::string("java"))
    ->Name("lex_corpus/java")
    ->Arg(1 << 30)
    ->Arg(4);
BENCHMARK_CAPTURE(BM_LexCorpus, sql, std::string("sql"))
    ->Name("lex_corpus/sql")
    ->Arg(1 << 30)
    ->Arg(4);

}  // namespace
}  // namespace glrmask::lexer
