// `glrmask demo`: the main job on its embedded default. Through the library facade it loads a real
// tokenizer, compiles the bundled JSON grammar against it (the wfa engine), teacher-forces the
// bundled JSON document (every step: the mask must contain the real next token, then commit), then
// does the same with the oracle in a pass of its own, checking that every mask is the same, and
// prints the latency table of both engines; then the encoder's throughput. It needs nothing but
// the setup cache.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>

#include "api/src/constraint_impl.h"
#include "apps/args.h"
#include "apps/commands.h"
#include "apps/constraint_options.h"
#include "apps/demo_example.h"
#include "apps/latency_stats.h"
#include "glrmask/glrmask.hpp"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void print_latency_row(std::string_view what, const LatencySummary& s) {
  fmt::print("  {:<16} {:>6} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}\n", what,
             s.count, s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.max_us);
}

// Writes the bundled grammar and JSON document as files, so that tools which read files (the
// experiment harness's --grammar-file/--inputs) run on the same example.
void write_example(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (const auto& [name, text] : {std::pair{std::string(kDemoGrammarName), kDemoGrammar},
                                   std::pair{std::string(kDemoJsonName), kDemoJson}}) {
    std::ofstream out(dir / name, std::ios::binary);
    out << text;
    if (!out) throw Error(fmt::format("cannot write {}", (dir / name).string()), ErrorCode::kIo);
    fmt::print("{}\n", (dir / name).string());
  }
}

}  // namespace

int run_demo(const CommandArgs& argv) {
  Args args(argv, {"tokenizer", "engine", "compare", "repeat", "write-example"}, {});
  args.expect_positional(0, 0,
                         "glrmask demo [--tokenizer NAME|PATH] [--engine ENGINE] "
                         "[--compare ENGINE|none] [--repeat N] [--write-example DIR]");
  if (const std::string dir = args.value_or("write-example", ""); !dir.empty()) {
    write_example(dir);
    return 0;
  }
  const std::string tokenizer_name = args.value_or("tokenizer", "llama3");
  const Engine engine = parse_engine("--engine", args.value_or("engine", "auto"));
  const std::string compare_name = args.value_or("compare", "oracle");
  const bool compare = compare_name != "none";
  const Engine compare_engine = compare ? parse_engine("--compare", compare_name) : Engine::kOracle;
  const auto repeat = static_cast<std::size_t>(args.count("repeat", 1).value_or(200));

  // 1. The tokenizer.
  auto start = Clock::now();
  const Tokenizer tokenizer = Tokenizer::load(tokenizer_name);
  fmt::print("glrmask demo\n  tokenizer  {} — loaded in {:.0f} ms\n", tokenizer.description(),
             seconds_since(start) * 1e3);

  // 2. The grammar, compiled for the engine (and for the one it is checked against).
  ConstraintSource source;
  source.format = "lark";
  source.name = std::string(kDemoGrammarName);
  source.text = std::string(kDemoGrammar);
  start = Clock::now();
  const Constraint constraint = compile_constraint(source, tokenizer, engine);
  const auto& grammar = *constraint.impl().grammar;
  fmt::print(
      "  grammar    {}: {} terminals, {} rules, {} LR states, {} lexer states\n"
      "  engine     {} — grammar and engine built in {:.1f} ms\n",
      kDemoGrammarName, grammar.grammar().num_terminals(), grammar.grammar().rules().size(),
      grammar.lalr().lr0().num_states(), grammar.dfa().num_states(),
      engine_name(constraint.engine()), seconds_since(start) * 1e3);
  std::optional<Constraint> reference;
  if (compare) {
    start = Clock::now();
    reference = compile_constraint(source, tokenizer, compare_engine);
    fmt::print("  compare    {} — built in {:.1f} ms; every mask is checked against it\n",
               engine_name(reference->engine()), seconds_since(start) * 1e3);
  }

  // 3. Teacher forcing, one engine per pass: each step computes the mask, checks the real next
  // token and commits it. On two cores an engine that runs threads between another's clock reads
  // (the oracle's TBB workers) would inflate its timings, so the engines never share a pass; the
  // second pass checks its masks against the first's digests.
  const std::vector<std::int32_t> ids = tokenizer.encode(kDemoJson);
  std::vector<std::uint64_t> digests;
  std::uint64_t allowed_total = 0;
  Matcher matcher(constraint);
  const ForcedRun run = teacher_force(matcher, ids, {}, {}, [&](const ForcedStep& step) {
    digests.push_back(mask_digest(step.mask));
    allowed_total += mask_count(step.mask);
    return true;
  });
  if (!run.ok())
    throw std::logic_error(fmt::format("step {}: {}", run.failure->step, run.failure->reason));
  std::optional<ForcedRun> reference_run;
  if (reference) {
    Matcher checker(*reference);
    reference_run = teacher_force(checker, ids, {}, {}, [&](const ForcedStep& step) {
      if (mask_digest(step.mask) != digests[step.step])
        throw std::logic_error(fmt::format("step {}: the {} and {} masks differ", step.step,
                                           engine_name(constraint.engine()),
                                           engine_name(reference->engine())));
      return true;
    });
    if (!reference_run->ok())
      throw std::logic_error(fmt::format("{} step {}: {}", engine_name(reference->engine()),
                                         reference_run->failure->step,
                                         reference_run->failure->reason));
  }
  fmt::print(
      "  input      the bundled JSON document: {} bytes, {} tokens + EOS; every real token "
      "was in its mask (mean {:.0f} tokens allowed per step){}\n",
      kDemoJson.size(), ids.size(),
      static_cast<double>(allowed_total) / static_cast<double>(run.steps),
      reference
          ? fmt::format(", and every mask equals the {} engine's", engine_name(reference->engine()))
          : "");
  fmt::print(
      "\n  latency (µs), each engine in its own pass\n  {:<16} {:>6} {:>10} {:>10} {:>10} {:>10} "
      "{:>10} {:>10}\n",
      "call", "steps", "mean", "p50", "p90", "p99", "p99.9", "max");
  print_latency_row(fmt::format("get_mask {}", engine_name(constraint.engine())),
                    summarize_latencies(run.mask_times));
  if (reference_run)
    print_latency_row(fmt::format("get_mask {}", engine_name(reference->engine())),
                      summarize_latencies(reference_run->mask_times));
  print_latency_row("commit", summarize_latencies(run.commit_times));

  // 4. The encoder's throughput on many copies of the Go example.
  std::string text;
  text.reserve(kDemoGo.size() * repeat);
  for (std::size_t i = 0; i < repeat; ++i) text += kDemoGo;
  start = Clock::now();
  const std::vector<std::int32_t> all = tokenizer.encode(text);
  const double encode_s = seconds_since(start);
  if (tokenizer.decode(all) != text)
    throw std::logic_error("decoding the encoder's ids does not give the text back");
  fmt::print("\n  encoder    {:.1f} MB/s, {:.2f} M tokens/s ({} bytes -> {} tokens)\n",
             static_cast<double>(text.size()) / encode_s / 1e6,
             static_cast<double>(all.size()) / encode_s / 1e6, text.size(), all.size());
  return 0;
}

}  // namespace glrmask::app
