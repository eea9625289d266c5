// `glrmask demo`: the main job on its embedded default. It loads a real tokenizer, compiles the
// bundled JSON grammar against it for the wfa engine, teacher-forces the bundled JSON document
// through a decoding session (every step: the wfa mask, the oracle's mask, both must be equal and
// contain the real next token, commit) and prints the latency table of both engines; then the
// encoder's throughput. It needs nothing but the setup cache.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/demo_example.h"
#include "apps/latency_stats.h"
#include "apps/mask_engines.h"
#include "glr/compiled_grammar.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/core/settings.h"
#include "lib/grammar/lark_loader.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/tokenizer_spec.h"
#include "lib/tokenizer/vocabulary.h"

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
    if (!out) throw Error(fmt::format("cannot write {}", (dir / name).string()));
    fmt::print("{}\n", (dir / name).string());
  }
}

}  // namespace

int run_demo(const CommandArgs& argv) {
  Args args(argv, {"tokenizer", "engine", "compare", "repeat", "write-example"}, {});
  args.expect_positional(0, 0,
                         "glrmask demo [--tokenizer NAME|PATH] [--engine NAME] [--compare "
                         "NAME|none] [--repeat N] [--write-example DIR]");
  if (const std::string dir = args.value_or("write-example", ""); !dir.empty()) {
    write_example(dir);
    return 0;
  }
  const std::string tokenizer = args.value_or("tokenizer", "llama3");
  const std::string engine_name = args.value_or("engine", "wfa");
  const std::string compare_name = args.value_or("compare", "oracle");
  const int repeat = std::stoi(args.value_or("repeat", "200"));
  if (repeat < 1) throw Error("--repeat must be at least 1");

  // 1. The tokenizer.
  auto path = resolve_tokenizer(tokenizer);
  auto start = Clock::now();
  TokenizerSpec spec = TokenizerSpec::load(path);
  Vocabulary vocab(spec);
  Encoder encoder(spec);
  fmt::print("glrmask demo\n  tokenizer  {} — loaded in {:.0f} ms\n", vocab.description(),
             seconds_since(start) * 1e3);

  // 2. The grammar.
  start = Clock::now();
  auto grammar =
      glr::CompiledGrammar::compile(load_lark_text(kDemoGrammar, std::string(kDemoGrammarName)));
  fmt::print(
      "  grammar    {}: {} terminals, {} rules, {} LR states, {} lexer states — compiled in "
      "{:.1f} ms\n",
      kDemoGrammarName, grammar->grammar().num_terminals(), grammar->grammar().rules().size(),
      grammar->lalr().lr0().num_states(), grammar->dfa().num_states(), seconds_since(start) * 1e3);
  start = Clock::now();
  auto engine = make_mask_engine(engine_name, {grammar, &vocab}, "--engine");
  fmt::print("  engine     {} — built in {:.1f} ms\n", engine->name(), seconds_since(start) * 1e3);
  std::unique_ptr<wfa::MaskEngine> compare;
  if (compare_name != "none") {
    start = Clock::now();
    compare = make_mask_engine(compare_name, {grammar, &vocab}, "--compare");
    fmt::print("  compare    {} — built in {:.1f} ms; every mask is checked against it\n",
               compare->name(), seconds_since(start) * 1e3);
  }

  // 3. Teacher forcing: every step computes the mask, checks the real next token, commits it.
  std::vector<TokenId> ids = encoder.encode(kDemoJson);
  if (auto eos = vocab.eos()) ids.push_back(*eos);
  glr::Session session(grammar, &vocab);
  DenseMask mask(static_cast<std::uint32_t>(vocab.size()));
  DenseMask reference(static_cast<std::uint32_t>(vocab.size()));
  std::vector<std::chrono::nanoseconds> mask_times, compare_times, commit_times;
  std::uint64_t allowed_total = 0;
  for (std::size_t step = 0; step < ids.size(); ++step) {
    auto t0 = Clock::now();
    const std::span<const std::uint32_t> view = engine->mask_view(session, mask.words());
    auto t1 = Clock::now();
    mask_times.push_back(t1 - t0);
    // Timed as mask_view (an engine may hand out its own copy); copied out only for the checks.
    if (view.data() != mask.words().data())
      std::copy(view.begin(), view.end(), mask.words().begin());
    allowed_total += mask.count();
    if (compare) {
      t0 = Clock::now();
      compare->fill_mask(session, reference.words());
      compare_times.push_back(Clock::now() - t0);
      if (reference != mask)
        throw std::logic_error(fmt::format("step {}: the {} and {} masks differ", step,
                                           engine->name(), compare->name()));
    }
    if (!mask.test(ids[step]))
      throw std::logic_error(
          fmt::format("step {}: the real next token {} is not in the mask", step, ids[step]));
    t0 = Clock::now();
    session.commit(ids[step]);
    commit_times.push_back(Clock::now() - t0);
  }
  fmt::print(
      "  input      the bundled JSON document: {} bytes, {} tokens + EOS; every real token "
      "was in its mask (mean {:.0f} tokens allowed per step)\n",
      kDemoJson.size(), ids.size() - 1,
      static_cast<double>(allowed_total) / static_cast<double>(ids.size()));
  fmt::print("\n  latency (µs)\n  {:<16} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "call",
             "steps", "mean", "p50", "p90", "p99", "p99.9", "max");
  print_latency_row(fmt::format("get_mask {}", engine->name()), summarize_latencies(mask_times));
  if (compare)
    print_latency_row(fmt::format("get_mask {}", compare->name()),
                      summarize_latencies(compare_times));
  print_latency_row("commit", summarize_latencies(commit_times));

  // 4. The encoder's throughput on many copies of the Go example.
  std::string text;
  text.reserve(kDemoGo.size() * static_cast<std::size_t>(repeat));
  for (int i = 0; i < repeat; ++i) text += kDemoGo;
  start = Clock::now();
  std::vector<TokenId> all = encoder.encode(text);
  double encode_s = seconds_since(start);
  if (vocab.decode(all) != text)
    throw std::logic_error("decoding the encoder's ids does not give the text back");
  fmt::print("\n  encoder    {:.1f} MB/s, {:.2f} M tokens/s ({} bytes -> {} tokens)\n",
             static_cast<double>(text.size()) / encode_s / 1e6,
             static_cast<double>(all.size()) / encode_s / 1e6, text.size(), all.size());
  return 0;
}

}  // namespace glrmask::app
