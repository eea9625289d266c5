// `glrmask mask`: teacher forcing through the library facade. Each input text is encoded with the
// tokenizer, and at every step the engine's mask must allow the next real token (and, at the end,
// the stop id). Times each mask and each commit (percentiles pooled over all inputs), can compare
// the engine with a second one bit for bit, and can write every step to a CSV file.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/constraint_options.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "apps/json_text.h"
#include "apps/latency_stats.h"
#include "apps/limit_options.h"
#include "glrmask/glrmask.hpp"
#include "harness/teacher_forcing.h"
#include "lib/core/error.h"

namespace glrmask::app {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::string_view kMaskUsage =
    "glrmask mask GRAMMAR --tokenizer NAME|PATH|BASE+DONOR@SIZE --input FILE [--input FILE ...] "
    "[--engine ENGINE] [--compare ENGINE] [--artifact FILE] [--fill] "
    "[--steps CSV] [--json] [--max-steps N] [--start S] [--policy glr|lark] [--skippable T,...] "
    "[--postlex python] [--max-... N: budgets, docs/limits.md]";

// One input's run and what the report needs of it.
struct InputRun {
  std::string path;
  std::size_t bytes = 0;
  std::size_t tokens = 0;
  ForcedRun run;
};

std::string counters_text(std::span<const MaskCounter> counters) {
  std::string text;
  for (const MaskCounter& counter : counters)
    text += fmt::format("{}{}={:.6g}", text.empty() ? "" : ";", counter.name, counter.value);
  return text;
}

std::string failure_reason(const ForcedRun::Failure& failure) {
  // The stop id's wording of earlier versions ("EOS"), which scripts may look for.
  if (failure.masked && failure.reason.rfind("the stop id", 0) == 0)
    return "EOS is not in the mask: the text is not a complete sentence";
  return failure.reason;
}

void print_text(const std::vector<InputRun>& runs, const Constraint& constraint,
                std::string_view engine, std::string_view compare, const std::string& grammar,
                const std::vector<std::chrono::nanoseconds>& masks,
                const std::vector<std::chrono::nanoseconds>& commits,
                const std::vector<std::chrono::nanoseconds>& compares) {
  const Tokenizer& tokenizer = constraint.tokenizer();
  fmt::print("grammar      {}\n", grammar);
  fmt::print("constraint   {}\n", constraint.description());
  fmt::print("tokenizer    {}\n", tokenizer.description());
  fmt::print("engine       {}{}\n", engine,
             compare.empty() ? "" : fmt::format(" (compared with {})", compare));
  std::size_t rejections = 0;
  std::uint64_t mismatch_steps = 0;
  for (const InputRun& input : runs) {
    const ForcedRun& run = input.run;
    fmt::print("input        {}: {} bytes, {} tokens\n", input.path, input.bytes, input.tokens);
    fmt::print("steps        {} of {} ({} tokens + EOS{})\n", run.steps, run.planned_steps,
               input.tokens, run.truncated ? "; cut short by --max-steps, no EOS step" : "");
    if (const auto& f = run.failure) {
      ++rejections;
      fmt::print("  rejected: step {}, byte offset {}, token {} {}: {}\n", f->step, f->byte_offset,
                 f->token, json_string(tokenizer.token_bytes(f->token)), failure_reason(*f));
    }
    mismatch_steps += run.mismatch_steps;
    for (const MaskMismatch& m : run.mismatches) {
      fmt::print("  mismatch: step {}, byte offset {}: {} tokens differ; first:", m.step,
                 m.byte_offset, m.differing);
      for (const MaskMismatch::Token& t : m.first)
        fmt::print(" {} {} (only {})", t.id, json_string(tokenizer.token_bytes(t.id)),
                   t.in_leader ? engine : compare);
      fmt::print("\n");
    }
  }
  fmt::print("rejections   {}\n", rejections);
  if (!compare.empty()) fmt::print("mismatches   {} steps\n", mismatch_steps);
  fmt::print("mask us      {}\n", format_latency_line(summarize_latencies(masks)));
  fmt::print("commit us    {}\n", format_latency_line(summarize_latencies(commits)));
  if (!compare.empty())
    fmt::print("compare us   {}\n", format_latency_line(summarize_latencies(compares)));
  const bool ok = rejections == 0 && mismatch_steps == 0;
  fmt::print("result       {}\n", ok ? "ok" : "failed");
}

void print_json(const std::vector<InputRun>& runs, const Constraint& constraint,
                std::string_view engine, std::string_view compare, const std::string& grammar,
                const std::vector<std::chrono::nanoseconds>& masks,
                const std::vector<std::chrono::nanoseconds>& commits,
                const std::vector<std::chrono::nanoseconds>& compares) {
  const Tokenizer& tokenizer = constraint.tokenizer();
  std::string rejections = "[", mismatches = "[", inputs = "[";
  std::size_t steps = 0, planned = 0, rejection_count = 0, input_bytes = 0, input_tokens = 0;
  std::uint64_t mismatch_steps = 0;
  bool truncated = false;
  for (const InputRun& input : runs) {
    const ForcedRun& run = input.run;
    steps += run.steps;
    planned += run.planned_steps;
    input_bytes += input.bytes;
    input_tokens += input.tokens;
    truncated = truncated || run.truncated;
    mismatch_steps += run.mismatch_steps;
    if (inputs.size() > 1) inputs += ",";
    inputs += fmt::format("{{\"input\":{},\"bytes\":{},\"tokens\":{},\"steps\":{},\"ok\":{}}}",
                          json_string(input.path), input.bytes, input.tokens, run.steps, run.ok());
    if (const auto& f = run.failure) {
      ++rejection_count;
      if (rejections.size() > 1) rejections += ",";
      rejections += fmt::format(
          "{{\"step\":{},\"byte_offset\":{},\"token\":{},\"bytes\":{},\"reason\":{},\"input\":{}}}",
          f->step, f->byte_offset, f->token, json_string(tokenizer.token_bytes(f->token)),
          json_string(failure_reason(*f)), json_string(input.path));
    }
    for (const MaskMismatch& m : run.mismatches) {
      if (mismatches.size() > 1) mismatches += ",";
      std::string first;
      for (const MaskMismatch::Token& t : m.first) {
        if (!first.empty()) first += ",";
        first += fmt::format("{{\"token\":{},\"bytes\":{},\"only_in\":{}}}", t.id,
                             json_string(tokenizer.token_bytes(t.id)),
                             json_string(t.in_leader ? engine : compare));
      }
      mismatches += fmt::format(
          "{{\"input\":{},\"step\":{},\"byte_offset\":{},\"differing\":{},\"first\":[{}]}}",
          json_string(input.path), m.step, m.byte_offset, m.differing, first);
    }
  }
  rejections += "]";
  mismatches += "]";
  inputs += "]";
  const auto latency = [](const std::vector<std::chrono::nanoseconds>& times) {
    return format_latency_json(summarize_latencies(times));
  };
  const bool ok = rejection_count == 0 && mismatch_steps == 0;
  fmt::print(
      "{{\"grammar\":{},\"constraint\":{},\"tokenizer\":{},\"inputs\":{},\"input_bytes\":{},"
      "\"input_tokens\":{},\"engine\":{},\"compare\":{},\"planned_steps\":{},\"truncated\":{},"
      "\"steps\":{},\"rejection_count\":{},\"rejections\":{},\"mismatch_steps\":{},"
      "\"mismatches\":{},\"mask_latency\":{},\"commit_latency\":{},\"compare_latency\":{},"
      "\"ok\":{}}}\n",
      json_string(grammar), json_string(constraint.description()),
      json_string(tokenizer.description()), inputs, input_bytes, input_tokens, json_string(engine),
      compare.empty() ? "null" : json_string(compare), planned, truncated, steps, rejection_count,
      rejections, mismatch_steps, mismatches, latency(masks), latency(commits),
      compare.empty() ? "null" : latency(compares), ok);
}

}  // namespace

int run_mask(const CommandArgs& argv) {
  const auto [options, source, limits, args] = parse_decoding_command(
      argv, {"tokenizer", "input", "engine", "compare", "max-steps", "artifact", "steps"},
      {"json", "fill"}, kMaskUsage);
  const std::string lark_path = source.needs_path() ? args.positional()[0] : "";
  const std::vector<std::string> input_paths = args.values("input");
  if (input_paths.empty())
    throw Error("missing required option --input", ErrorCode::kInvalidArgument);
  const std::string tokenizer_name = args.required("tokenizer");
  const std::uint64_t max_steps = args.count("max-steps", 1).value_or(UINT64_MAX);
  const Engine engine = parse_engine("--engine", args.value_or("engine", "auto"));
  const std::optional<std::string> compare_name = args.value("compare");
  const Engine compare_engine =
      compare_name ? parse_engine("--compare", *compare_name) : Engine::kOracle;

  std::vector<std::string> texts;
  for (const std::string& path : input_paths) texts.push_back(read_input_file(path));
  const ConstraintSource constraint_source_ = constraint_source(source, lark_path, options);
  const Tokenizer tokenizer = Tokenizer::load(tokenizer_name);
  if (!tokenizer.can_encode() || tokenizer.stop_ids().empty())
    throw Error(fmt::format("tokenizer {}: teacher forcing needs an encoder and a stop id ({})",
                            tokenizer_name, tokenizer.description()),
                ErrorCode::kInvalidArgument);
  double artifact_load_ms = 0;
  std::optional<Constraint> loaded;
  if (const auto artifact = args.value("artifact")) {
    const Clock::time_point started = Clock::now();
    loaded = load_constraint(*artifact, constraint_source_, tokenizer, limits);
    artifact_load_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    if (engine != Engine::kAuto && loaded->engine() != engine)
      throw Error(fmt::format("option --engine {}: the artifact {} serves with the {} engine",
                              engine_name(engine), *artifact, engine_name(loaded->engine())),
                  ErrorCode::kInvalidArgument);
  }
  const Constraint constraint =
      loaded ? *loaded : compile_constraint(constraint_source_, tokenizer, engine, 0, limits);
  std::optional<Constraint> reference;
  if (compare_name) reference = compile_constraint(constraint_source_, tokenizer, compare_engine);

  std::optional<std::ofstream> steps_file;
  if (const auto steps_path = args.value("steps")) {
    steps_file.emplace(*steps_path, std::ios::binary | std::ios::trunc);
    if (!*steps_file)
      throw Error(fmt::format("option --steps: cannot write {}", *steps_path), ErrorCode::kIo);
    *steps_file << "input,step,token,byte_offset,mask_us,mask_tokens,mask_digest,counters\n";
  }

  TeacherForcingOptions forcing;
  forcing.max_steps = max_steps;
  forcing.mask_call = args.flag("fill") ? MaskCall::kFill : MaskCall::kView;
  std::vector<InputRun> runs;
  std::vector<std::chrono::nanoseconds> masks, commits, compares;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    InputRun input;
    input.path = input_paths[i];
    input.bytes = texts[i].size();
    std::vector<std::int32_t> tokens;
    try {
      tokens = tokenizer.encode(texts[i]);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", input.path, e.what()), e.code(), e.where());
    }
    input.tokens = tokens.size();
    Matcher matcher(constraint);
    std::optional<Matcher> follower;
    std::vector<Matcher*> followers;
    if (reference) {
      follower.emplace(*reference);
      followers.push_back(&*follower);
    }
    const StepObserver observe = [&](const ForcedStep& step) {
      if (steps_file)
        *steps_file << fmt::format(
            "{},{},{},{},{:.3f},{},{},{}\n", json_string(input.path), step.step, step.token,
            step.byte_offset, std::chrono::duration<double, std::micro>(step.mask_time).count(),
            mask_count(step.mask), mask_digest(step.mask),
            counters_text(step.matcher->last_mask_counters()));
      return true;
    };
    input.run = teacher_force(matcher, tokens, forcing, followers, observe);
    masks.insert(masks.end(), input.run.mask_times.begin(), input.run.mask_times.end());
    commits.insert(commits.end(), input.run.commit_times.begin(), input.run.commit_times.end());
    if (!input.run.follower_times.empty())
      compares.insert(compares.end(), input.run.follower_times[0].begin(),
                      input.run.follower_times[0].end());
    runs.push_back(std::move(input));
  }
  const std::string engine_text = engine_name(constraint.engine());
  const std::string compare_text = reference ? engine_name(reference->engine()) : "";
  const std::string grammar_text = source.needs_path() ? lark_path : constraint_source_.name;
  if (args.flag("json"))
    print_json(runs, constraint, engine_text, compare_text, grammar_text, masks, commits, compares);
  else
    print_text(runs, constraint, engine_text, compare_text, grammar_text, masks, commits, compares);
  if (!args.flag("json") && args.value("artifact"))
    fmt::print("artifact     {} (loaded in {:.1f} ms)\n", *args.value("artifact"),
               artifact_load_ms);
  for (const InputRun& input : runs)
    if (!input.run.ok()) return 1;
  return 0;
}

}  // namespace glrmask::app
