// Session commit cost and the oracle mask, on the real grammars and the Llama-3 vocabulary.
//   BM_CommitTokens/<lang>  one commit per real Llama-3 token over a whole corpus program
//   BM_CommitBytes/<lang>   the same text committed byte by byte
//   BM_AcceptsBytes         one oracle trial (accepts_bytes) for a typical token
//   BM_OracleMask/<grammar> one full oracle mask (every vocabulary token tried, TBB)
//   BM_AmbiguousCheck/<grammar>/<n>  a whole text of a highly ambiguous grammar (docs/limits.md,
//                           finding 2): s: s s on n bytes, e: e + e | e * e | NUM with n
//                           operators, s: s s s s s | s s on n bytes
// Items processed = tokens (or bytes) committed, so the rate is commits per second.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/core/settings.h"
#include "lib/lark/lark_loader.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/oracle/oracle_engine.h"

namespace {

using namespace glrmask;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct Workload {
  std::shared_ptr<const glr::IncrementalRecognizer> recognizer;
  std::string text;
};

// The grammar and one program of each corpus; nullopt when the data folder is missing.
std::optional<Workload> workload(const std::string& language) {
  if (!have_data_dir()) return std::nullopt;
  const auto syncode = data_dir() / "grammars" / "syncode";
  const auto programs = data_dir() / "programs";
  glr::ParseOptions options;
  std::filesystem::path grammar;
  std::string text;
  if (language == "go") {
    grammar = syncode / "go_grammar.lark";
    options.skippable = {"EOS"};
    text = read_text(programs / "go" / "sort__radixsort.go");
  } else if (language == "java") {
    grammar = syncode / "java_grammar.lark";
    text = read_text(programs / "java" / "nocomments" / "matrix__InverseOfMatrix.java");
  } else {
    grammar = syncode / "json_grammar.lark";
    text = R"({"id": 17, "name": "Ada Lovelace", "tags": ["math", "engine"], "ratio": -0.25e3,)"
           R"( "ok": true, "next": null, "nested": {"a": [], "b": {"c": [1, 2, 3]}}})";
  }
  return Workload{std::make_shared<const glr::IncrementalRecognizer>(
                      glr::CompiledGrammar::load_lark(grammar, options)),
                  text};
}

struct Llama3 {
  Vocabulary vocabulary;
  Encoder encoder;
};

const Llama3* llama3() {
  static const std::unique_ptr<Llama3> loaded = []() -> std::unique_ptr<Llama3> {
    try {
      const auto path = resolve_tokenizer("llama3");
      return std::make_unique<Llama3>(Llama3{Vocabulary::load(path), Encoder::load(path)});
    } catch (const std::exception&) {
      return nullptr;
    }
  }();
  return loaded.get();
}

void BM_CommitTokens(benchmark::State& state, const std::string& language) {
  const auto work = workload(language);
  const Llama3* tokenizer = llama3();
  if (!work || tokenizer == nullptr) {
    state.SkipWithError("needs the shared data folder and the llama3 tokenizer");
    return;
  }
  const std::vector<TokenId> ids = tokenizer->encoder.encode(work->text);
  for (auto _ : state) {
    glr::Session session(work->recognizer, &tokenizer->vocabulary);
    for (const TokenId id : ids) session.commit(id);
    benchmark::DoNotOptimize(session.is_accepting());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ids.size()));
}
BENCHMARK_CAPTURE(BM_CommitTokens, go, std::string("go"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CommitTokens, java, std::string("java"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CommitTokens, json, std::string("json"))->Unit(benchmark::kMillisecond);

void BM_CommitBytes(benchmark::State& state, const std::string& language) {
  const auto work = workload(language);
  if (!work) {
    state.SkipWithError("needs the shared data folder");
    return;
  }
  const std::string_view text = work->text;
  for (auto _ : state) {
    glr::Session session(work->recognizer);
    for (std::size_t i = 0; i < text.size(); ++i) session.commit_bytes(text.substr(i, 1));
    benchmark::DoNotOptimize(session.is_accepting());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK_CAPTURE(BM_CommitBytes, go, std::string("go"))->Unit(benchmark::kMillisecond);

// One oracle trial, in the middle of a Go function body.
void BM_AcceptsBytes(benchmark::State& state) {
  const auto work = workload("go");
  if (!work) {
    state.SkipWithError("needs the shared data folder");
    return;
  }
  glr::Session session(work->recognizer);
  session.commit_bytes(work->text.substr(0, work->text.size() / 2));
  for (auto _ : state) benchmark::DoNotOptimize(session.accepts_bytes(" result"));
}
BENCHMARK(BM_AcceptsBytes);

void BM_AmbiguousCheck(benchmark::State& state, const std::string& grammar) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::string text;
  if (grammar == "expression") {
    text = "1";
    for (std::size_t i = 0; i < n; ++i) text += (i % 3 == 0 ? "*" : "+") + std::to_string(i % 10);
  } else {
    text.assign(n, 'a');
  }
  const std::string lark = grammar == "expression"
                               ? "start: e\ne: e \"+\" e | e \"*\" e | NUM\nNUM: /[0-9]+/\n"
                           : grammar == "pairs" ? "start: s\ns: s s | \"a\"\n"
                                                : "start: s\ns: s s s s s | s s | \"a\"\n";
  const auto recognizer = std::make_shared<const glr::IncrementalRecognizer>(
      glr::CompiledGrammar::compile(load_lark_text(lark, grammar + ".lark")), glr::ParserLimits{0});
  for (auto _ : state) {
    glr::Session session(recognizer);
    session.commit_bytes(text);
    benchmark::DoNotOptimize(session.is_accepting());
  }
}
BENCHMARK_CAPTURE(BM_AmbiguousCheck, pairs, std::string("pairs"))
    ->Arg(100)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AmbiguousCheck, expression, std::string("expression"))
    ->Arg(100)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AmbiguousCheck, quintuples, std::string("quintuples"))
    ->Arg(40)
    ->Arg(80)
    ->Unit(benchmark::kMillisecond);

void BM_OracleMask(benchmark::State& state, const std::string& language) {
  const auto work = workload(language);
  const Llama3* tokenizer = llama3();
  if (!work || tokenizer == nullptr) {
    state.SkipWithError("needs the shared data folder and the llama3 tokenizer");
    return;
  }
  glr::Session session(work->recognizer, &tokenizer->vocabulary);
  session.commit_bytes(work->text.substr(0, work->text.size() / 2));
  mask::OracleEngine oracle(tokenizer->vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(tokenizer->vocabulary.size()));
  for (auto _ : state) oracle.fill_mask(session, mask.words());
  state.counters["allowed"] = static_cast<double>(mask.count());
}
BENCHMARK_CAPTURE(BM_OracleMask, go, std::string("go"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OracleMask, json, std::string("json"))->Unit(benchmark::kMillisecond);

}  // namespace
