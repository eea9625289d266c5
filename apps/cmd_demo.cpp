// `glrmask demo`: the main job on its embedded default. For now it loads a real tokenizer, encodes
// the bundled example, and prints vocabulary statistics and encode throughput; it grows into the
// grammar/mask latency demo as the mask engines land.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/demo_example.h"
#include "lib/encoder.h"
#include "lib/error.h"
#include "lib/settings.h"
#include "lib/tokenizer_spec.h"
#include "lib/vocabulary.h"

namespace glrmask::app {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int run_demo(const CommandArgs& argv) {
  Args args(argv, {"tokenizer", "repeat"}, {});
  args.expect_positional(0, 0, "glrmask demo [--tokenizer NAME|PATH] [--repeat N]");
  const std::string tokenizer = args.value_or("tokenizer", "llama3");
  const int repeat = std::stoi(args.value_or("repeat", "200"));
  if (repeat < 1) throw Error("--repeat must be at least 1");

  auto path = resolve_tokenizer(tokenizer);
  auto start = Clock::now();
  TokenizerSpec spec = TokenizerSpec::load(path);
  double parse_s = seconds_since(start);
  start = Clock::now();
  Vocabulary vocab(spec);
  Encoder encoder(spec);
  double build_s = seconds_since(start);

  fmt::print("glrmask demo: tokenizer {} ({})\n", tokenizer, vocab.description());
  fmt::print("  load: parse tokenizer.json {:.0f} ms, build vocabulary and encoder {:.0f} ms\n",
             parse_s * 1e3, build_s * 1e3);

  std::size_t maskable = 0, longest = 0;
  for (TokenId id = 0; id < vocab.size(); ++id) {
    if (!vocab.contains(id) || vocab.is_special(id)) continue;
    ++maskable;
    longest = std::max(longest, vocab.bytes(id).size());
  }
  fmt::print("  vocabulary: {} ids, {} maskable, {} special, longest token {} bytes, EOS {}\n",
             vocab.size(), maskable, vocab.special_ids().size(), longest,
             vocab.eos() ? fmt::format("{}", *vocab.eos()) : std::string("none"));

  std::vector<TokenId> ids = encoder.encode(kDemoExample);
  if (vocab.decode(ids) != kDemoExample)
    throw Error("internal error: decoding the example's ids does not give the example back");
  fmt::print(
      "  example: {} bytes -> {} tokens ({:.2f} bytes/token); first ids: {}\n", kDemoExample.size(),
      ids.size(), static_cast<double>(kDemoExample.size()) / static_cast<double>(ids.size()),
      fmt::join(ids.begin(),
                ids.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(12, ids.size())),
                " "));

  // Throughput on many copies of the example, encoded as one text: the encoder's word cache is
  // warm after the first copy, as it is on any real corpus.
  std::string text;
  text.reserve(kDemoExample.size() * static_cast<std::size_t>(repeat));
  for (int i = 0; i < repeat; ++i) text += kDemoExample;
  start = Clock::now();
  std::vector<TokenId> all = encoder.encode(text);
  double encode_s = seconds_since(start);
  fmt::print("\n  {:<28} {:>12}\n", "encode throughput", "");
  fmt::print("  {:<28} {:>12.2f}\n", "MB/s", static_cast<double>(text.size()) / encode_s / 1e6);
  fmt::print("  {:<28} {:>12.0f}\n", "tokens/s", static_cast<double>(all.size()) / encode_s);
  fmt::print("  {:<28} {:>12}\n", "text bytes", text.size());
  fmt::print("  {:<28} {:>12}\n", "tokens", all.size());
  return 0;
}

}  // namespace glrmask::app
