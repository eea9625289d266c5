// Lexer DFA construction time and lexing throughput for hand-written terminal lists that mirror
// the Go, SQL and JSON grammars (tests/support/lexer_spec_fixtures.h). Texts: the Go corpus when
// the data folder is present, otherwise generated text.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/settings.h"
#include "tests/support/lexer_spec_fixtures.h"

namespace glrmask::lexer {
namespace {

void report_dfa(benchmark::State& state, const LexerDfa& dfa) {
  state.counters["terminals"] = static_cast<double>(dfa.stats().terminals);
  state.counters["nfa_states"] = static_cast<double>(dfa.stats().nfa_states);
  state.counters["subset_states"] = static_cast<double>(dfa.stats().subset_states);
  state.counters["states"] = static_cast<double>(dfa.stats().states);
  state.counters["byte_classes"] = static_cast<double>(dfa.stats().byte_classes);
}

template <std::vector<TerminalSpec> (*Terminals)()>
void BM_CompileLexerDfa(benchmark::State& state) {
  const std::vector<TerminalSpec> terminals = Terminals();
  for (auto _ : state) {
    LexerDfa dfa = compile_lexer_dfa(terminals);
    benchmark::DoNotOptimize(dfa);
    state.PauseTiming();
    report_dfa(state, dfa);
    state.ResumeTiming();
  }
}
BENCHMARK(BM_CompileLexerDfa<testing::go_terminals>)
    ->Name("compile/go")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileLexerDfa<testing::sql_terminals>)
    ->Name("compile/sql")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CompileLexerDfa<testing::json_terminals>)
    ->Name("compile/json")
    ->Unit(benchmark::kMillisecond);

std::string go_text() {
  std::string text;
  const auto folder = data_dir() / "programs" / "go";
  if (std::filesystem::is_directory(folder)) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() != ".go") continue;
      std::ifstream file(entry.path(), std::ios::binary);
      std::ostringstream contents;
      contents << file.rdbuf();
      // Only the files that lex as a whole (some use block comments the grammar lacks).
      const LexerDfa& dfa = []() -> const LexerDfa& {
        static const LexerDfa compiled = compile_lexer_dfa(testing::go_terminals());
        return compiled;
      }();
      try {
        lex_text(dfa, contents.str());
        text += contents.str();
      } catch (const std::exception&) {
      }
    }
  }
  if (text.empty()) {
    for (int i = 0; i < 2000; ++i) {
      text += "func f" + std::to_string(i) +
              "(xs []int) int {\n\ts := 0x1F\n\tfor _, x := range xs {\n\t\ts += x * 2.5e3 // c\n"
              "\t}\n\treturn s\n}\n";
    }
  }
  return text;
}

std::string json_text() {
  std::string text = "[";
  for (int i = 0; i < 20000; ++i) {
    if (i > 0) text += ",\n ";
    text += "{\"id\": " + std::to_string(i) + ", \"name\": \"item " + std::to_string(i) +
            "\", \"price\": -12.5e-3, \"tags\": [true, false, null]}";
  }
  return text + "]";
}

void lex_throughput(benchmark::State& state, const LexerDfa& dfa, const std::string& text,
                    size_t chunk) {
  StreamingLexer lexer(dfa);  // finish() makes it ready for the next round
  std::vector<Lexeme> out;
  for (auto _ : state) {
    out.clear();
    for (size_t i = 0; i < text.size(); i += chunk) {
      lexer.feed(std::string_view(text).substr(i, chunk), out);
    }
    lexer.finish(out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["lexemes"] = static_cast<double>(out.size());
  state.counters["bytes"] = static_cast<double>(text.size());
}

void BM_LexGo(benchmark::State& state) {
  static const LexerDfa dfa = compile_lexer_dfa(testing::go_terminals());
  static const std::string text = go_text();
  lex_throughput(state, dfa, text, static_cast<size_t>(state.range(0)));
}
// Whole text at once, 4 KiB pieces, and a few bytes at a time (an LLM token's worth).
BENCHMARK(BM_LexGo)->Name("lex/go")->Arg(1 << 30)->Arg(4096)->Arg(4);

void BM_LexJson(benchmark::State& state) {
  static const LexerDfa dfa = compile_lexer_dfa(testing::json_terminals());
  static const std::string text = json_text();
  lex_throughput(state, dfa, text, static_cast<size_t>(state.range(0)));
}
BENCHMARK(BM_LexJson)->Name("lex/json")->Arg(1 << 30)->Arg(4);

}  // namespace
}  // namespace glrmask::lexer
