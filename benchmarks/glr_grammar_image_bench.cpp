// Compiling a SynCode grammar (CompiledGrammar::compile: lexing DFA, LALR(1), fork futures) against
// reading the same derived tables back from its image (read_compiled_grammar). Both start from
// an already loaded Grammar model, which both loops copy alike. For instruction counts run one
// iteration under callgrind, e.g.
//   valgrind --tool=callgrind --toggle-collect='glrmask::glr::read_compiled_grammar*'
//     glr_grammar_image_bench --benchmark_filter=read/java --benchmark_min_time=0
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "glr/compiled_grammar.h"
#include "glr/compiled_grammar_image.h"
#include "lib/core/binary_io.h"
#include "lib/core/settings.h"
#include "lib/grammar/lark_loader.h"

namespace glrmask::glr {
namespace {

struct GrammarCase {
  Grammar model;
  ParseOptions options;
};

GrammarCase load_case(const std::string& language) {
  ParseOptions options;
  if (language == "python") options.postlex = PostLexer::kPythonIndenter;
  if (language == "go") {
    options.policy = ConflictPolicy::kLark;
    options.skippable = {"EOS"};
  }
  LarkOptions lark;
  lark.declared_terminals = options.postlex != PostLexer::kNone;
  return {load_lark_file(data_dir() / "grammars" / "syncode" / (language + "_grammar.lark"), lark),
          options};
}

void BM_CompileGrammar(benchmark::State& state, const std::string& language) {
  const GrammarCase c = load_case(language);
  for (auto _ : state) {
    Grammar model = c.model;
    benchmark::DoNotOptimize(CompiledGrammar::compile(std::move(model), c.options));
  }
}

void BM_ReadGrammarImage(benchmark::State& state, const std::string& language) {
  const GrammarCase c = load_case(language);
  BinaryWriter out;
  write_compiled_grammar(*CompiledGrammar::compile(c.model, c.options), out);
  const std::string image = out.take();
  for (auto _ : state) {
    BinaryReader in(image, "image");
    Grammar model = c.model;
    benchmark::DoNotOptimize(read_compiled_grammar(in, std::move(model), c.options));
  }
  state.counters["image_bytes"] = static_cast<double>(image.size());
}

BENCHMARK_CAPTURE(BM_CompileGrammar, java, std::string("java"))
    ->Name("compile/java")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, java, std::string("java"))
    ->Name("read/java")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammar, python, std::string("python"))
    ->Name("compile/python")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, python, std::string("python"))
    ->Name("read/python")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileGrammar, go, std::string("go"))
    ->Name("compile/go")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ReadGrammarImage, go, std::string("go"))
    ->Name("read/go")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace glrmask::glr
