// `glrmask mask`: teacher forcing. The input text is encoded with the tokenizer, and at every step
// the engine's mask must allow the next real token (and, at the end, EOS). Times each mask and
// each commit, and can compare the engine with a second one bit for bit.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/decoding_inputs.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "apps/json_text.h"
#include "apps/latency_stats.h"
#include "apps/mask_engines.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"
#include "wfa/mask_artifact.h"

namespace glrmask::app {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::nanoseconds elapsed(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start);
}

constexpr std::string_view kUsage =
    "glrmask mask GRAMMAR --tokenizer NAME|PATH|BASE+DONOR@SIZE --input FILE [--engine NAME] "
    "[--compare NAME] "
    "[--artifact FILE] [--json] [--max-steps N] [--start S] [--policy glr|lark] "
    "[--skippable T,...] [--postlex python]";

// Differing tokens listed per mismatching step, and mismatching steps listed in full; the counts
// are always complete.
constexpr std::size_t kTokensListedPerMismatch = 8;
constexpr std::size_t kMismatchesListed = 5;

bool mask_has(std::span<const std::uint32_t> words, TokenId token) {
  return token / 32 < words.size() && ((words[token / 32] >> (token % 32)) & 1u);
}

struct Rejection {
  std::size_t step = 0;
  std::uint64_t byte_offset = 0;
  TokenId token = 0;
  std::string reason;
};

struct DifferingToken {
  TokenId token = 0;
  bool in_engine = false;  // set in the engine's mask (else only in the compared one)
};

struct Mismatch {
  std::size_t step = 0;
  std::uint64_t byte_offset = 0;
  std::uint64_t differing = 0;        // how many tokens differ
  std::vector<DifferingToken> first;  // the lowest ids among them
};

Mismatch compare_masks(std::span<const std::uint32_t> engine, std::span<const std::uint32_t> other,
                       std::size_t step, std::uint64_t byte_offset) {
  Mismatch mismatch{step, byte_offset, 0, {}};
  for (std::size_t word = 0; word < engine.size(); ++word) {
    std::uint32_t diff = engine[word] ^ other[word];
    mismatch.differing += static_cast<std::uint64_t>(__builtin_popcount(diff));
    for (; diff != 0 && mismatch.first.size() < kTokensListedPerMismatch; diff &= diff - 1) {
      const auto bit = static_cast<std::uint32_t>(__builtin_ctz(diff));
      mismatch.first.push_back(
          {static_cast<TokenId>(word * 32 + bit), ((engine[word] >> bit) & 1u) != 0});
    }
  }
  return mismatch;
}

struct MaskRun {
  std::size_t input_bytes = 0;
  std::size_t input_tokens = 0;
  std::size_t planned_steps = 0;  // tokens (+ EOS unless truncated by --max-steps)
  bool truncated = false;
  std::size_t steps = 0;  // steps whose mask was computed
  std::optional<Rejection> rejection;
  std::uint64_t mismatch_steps = 0;
  std::vector<Mismatch> mismatches;  // the first kMismatchesListed
  std::vector<std::chrono::nanoseconds> mask_times, commit_times, compare_times;

  bool ok() const { return !rejection && mismatch_steps == 0; }
};

MaskRun teacher_force(const DecodingInputs& inputs, const std::vector<TokenId>& tokens,
                      std::uint64_t max_steps, wfa::MaskEngine& engine, wfa::MaskEngine* compare) {
  MaskRun run;
  run.input_tokens = tokens.size();
  run.planned_steps = tokens.size() + 1;  // EOS is the last step
  if (max_steps < run.planned_steps) {
    run.planned_steps = static_cast<std::size_t>(max_steps);
    run.truncated = true;
  }
  const Vocabulary& vocabulary = inputs.vocabulary;
  glr::Session session(inputs.grammar, &vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  DenseMask other(static_cast<std::uint32_t>(vocabulary.size()));

  for (std::size_t step = 0; step < run.planned_steps; ++step) {
    const TokenId token = step < tokens.size() ? tokens[step] : inputs.eos;
    const std::uint64_t offset = session.byte_offset();
    ++run.steps;
    auto start = Clock::now();
    const std::span<const std::uint32_t> view = engine.mask_view(session, mask.words());
    run.mask_times.push_back(elapsed(start));
    // Timed as mask_view (an engine may hand out its own copy); copied out only for the checks.
    if (view.data() != mask.words().data())
      std::copy(view.begin(), view.end(), mask.words().begin());
    if (compare) {
      start = Clock::now();
      compare->fill_mask(session, other.words());
      run.compare_times.push_back(elapsed(start));
      if (!(mask == other)) {
        ++run.mismatch_steps;
        if (run.mismatches.size() < kMismatchesListed)
          run.mismatches.push_back(compare_masks(mask.words(), other.words(), step, offset));
      }
    }
    if (!mask_has(mask.words(), token)) {
      run.rejection = Rejection{step, offset, token,
                                token == inputs.eos && step == tokens.size()
                                    ? "EOS is not in the mask: the text is not a complete sentence"
                                    : "the token is not in the mask"};
      break;
    }
    try {
      start = Clock::now();
      session.commit(token);
      run.commit_times.push_back(elapsed(start));
    } catch (const Error& e) {
      // The engine allowed a token the session refuses: an engine bug, reported like a rejection.
      run.rejection = Rejection{step, offset, token,
                                fmt::format("in the mask, but commit failed: {}", e.what())};
      break;
    }
  }
  return run;
}

void print_text(const MaskRun& run, const DecodingInputs& inputs, const std::string& grammar,
                const std::string& input, std::string_view engine, std::string_view compare) {
  const Vocabulary& vocabulary = inputs.vocabulary;
  fmt::print("grammar      {} (policy {})\n", grammar,
             policy_name(inputs.grammar->options().policy));
  fmt::print("tokenizer    {}\n", vocabulary.description());
  fmt::print("input        {}: {} bytes, {} tokens\n", input, run.input_bytes, run.input_tokens);
  fmt::print("engine       {}{}\n", engine,
             compare.empty() ? "" : fmt::format(" (compared with {})", compare));
  fmt::print("steps        {} of {} ({} tokens + EOS{})\n", run.steps, run.planned_steps,
             run.input_tokens, run.truncated ? "; cut short by --max-steps, no EOS step" : "");
  fmt::print("rejections   {}\n", run.rejection ? 1 : 0);
  if (const auto& r = run.rejection) {
    fmt::print("  step {}, byte offset {}, token {} {}: {}\n", r->step, r->byte_offset, r->token,
               json_string(vocabulary.bytes(r->token)), r->reason);
  }
  if (!compare.empty()) {
    fmt::print("mismatches   {} steps\n", run.mismatch_steps);
    for (const Mismatch& m : run.mismatches) {
      fmt::print("  step {}, byte offset {}: {} tokens differ; first:", m.step, m.byte_offset,
                 m.differing);
      for (const DifferingToken& t : m.first)
        fmt::print(" {} {} (only {})", t.token, json_string(vocabulary.bytes(t.token)),
                   t.in_engine ? engine : compare);
      fmt::print("\n");
    }
  }
  fmt::print("mask us      {}\n", format_latency_line(summarize_latencies(run.mask_times)));
  fmt::print("commit us    {}\n", format_latency_line(summarize_latencies(run.commit_times)));
  if (!compare.empty()) {
    fmt::print("compare us   {}\n", format_latency_line(summarize_latencies(run.compare_times)));
  }
  fmt::print("result       {}\n", run.ok() ? "ok" : "failed");
}

void print_json(const MaskRun& run, const DecodingInputs& inputs, const std::string& grammar,
                const std::string& input, std::string_view engine, std::string_view compare) {
  const Vocabulary& vocabulary = inputs.vocabulary;
  const auto latency = [](const std::vector<std::chrono::nanoseconds>& times) {
    return format_latency_json(summarize_latencies(times));
  };
  std::string rejections = "[";
  if (const auto& r = run.rejection) {
    rejections += fmt::format(
        "{{\"step\":{},\"byte_offset\":{},\"token\":{},\"bytes\":{},\"reason\":{}}}", r->step,
        r->byte_offset, r->token, json_string(vocabulary.bytes(r->token)), json_string(r->reason));
  }
  rejections += "]";
  std::string mismatches = "[";
  for (const Mismatch& m : run.mismatches) {
    if (mismatches.size() > 1) mismatches += ",";
    std::string first;
    for (const DifferingToken& t : m.first) {
      if (!first.empty()) first += ",";
      first += fmt::format("{{\"token\":{},\"bytes\":{},\"only_in\":{}}}", t.token,
                           json_string(vocabulary.bytes(t.token)),
                           json_string(t.in_engine ? engine : compare));
    }
    mismatches += fmt::format("{{\"step\":{},\"byte_offset\":{},\"differing\":{},\"first\":[{}]}}",
                              m.step, m.byte_offset, m.differing, first);
  }
  mismatches += "]";
  fmt::print(
      "{{\"grammar\":{},\"policy\":{},\"tokenizer\":{},\"input\":{},\"input_bytes\":{},"
      "\"input_tokens\":{},\"engine\":{},\"compare\":{},\"planned_steps\":{},\"truncated\":{},"
      "\"steps\":{},\"rejection_count\":{},\"rejections\":{},\"mismatch_steps\":{},"
      "\"mismatches\":{},\"mask_latency\":{},\"commit_latency\":{},\"compare_latency\":{},"
      "\"ok\":{}}}\n",
      json_string(grammar), json_string(policy_name(inputs.grammar->options().policy)),
      json_string(vocabulary.name()), json_string(input), run.input_bytes, run.input_tokens,
      json_string(engine), compare.empty() ? "null" : json_string(compare), run.planned_steps,
      run.truncated, run.steps, run.rejection ? 1 : 0, rejections, run.mismatch_steps, mismatches,
      latency(run.mask_times), latency(run.commit_times),
      compare.empty() ? "null" : latency(run.compare_times), run.ok());
}

}  // namespace

int run_mask(const CommandArgs& argv) {
  CommandArgs rest = argv;
  const glr::ParseOptions options = take_grammar_options(rest);
  const GrammarSource source = take_grammar_source(rest);
  Args args(rest, {"tokenizer", "input", "engine", "compare", "max-steps", "artifact"}, {"json"});
  args.expect_positional(source.needs_path() ? 1 : 0, source.needs_path() ? 1 : 0, kUsage);
  const std::string grammar_path = source.needs_path() ? args.positional()[0] : "";
  const std::string input_path = args.required("input");
  const std::string tokenizer = args.required("tokenizer");
  const std::uint64_t max_steps = args.value("max-steps")
                                      ? parse_count_option("max-steps", *args.value("max-steps"), 1)
                                      : UINT64_MAX;
  const std::string engine_name = args.value_or("engine", "wfa");
  const std::string compare_name = args.value_or("compare", "");

  const std::string text = read_input_file(input_path);
  const DecodingInputs inputs =
      load_decoding_inputs(compile_grammar(source, grammar_path, options), tokenizer, true);
  std::vector<TokenId> tokens;
  try {
    tokens = inputs.encoder->encode(text);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", input_path, e.what()));
  }
  MaskEngineInputs engine_inputs{inputs.grammar, &inputs.vocabulary};
  double artifact_load_ms = 0;
  if (const auto artifact = args.value("artifact")) {
    const auto started = std::chrono::steady_clock::now();
    engine_inputs.compiled = wfa::read_mask_artifact(*artifact, inputs.grammar, inputs.vocabulary);
    artifact_load_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
  }
  auto engine = make_mask_engine(engine_name, engine_inputs, "--engine");
  std::unique_ptr<wfa::MaskEngine> compare;
  if (!compare_name.empty()) compare = make_mask_engine(compare_name, engine_inputs, "--compare");

  MaskRun run = teacher_force(inputs, tokens, max_steps, *engine, compare.get());
  run.input_bytes = text.size();
  if (args.flag("json"))
    print_json(run, inputs, grammar_name(source, grammar_path), input_path, engine_name,
               compare_name);
  else
    print_text(run, inputs, grammar_name(source, grammar_path), input_path, engine_name,
               compare_name);
  if (!args.flag("json") && args.value("artifact"))
    fmt::print("artifact     {} (loaded in {:.1f} ms)\n", *args.value("artifact"),
               artifact_load_ms);
  return run.ok() ? 0 : 1;
}

}  // namespace glrmask::app
