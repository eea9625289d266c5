#include "experiments/studies/teacher_forcing.h"

#include <fmt/format.h>

#include <chrono>

#include "experiments/studies/study_inputs.h"
#include "glr/session.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::experiments {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

bool has(std::span<const std::uint32_t> words, TokenId token) {
  return token / 32 < words.size() && ((words[token / 32] >> (token % 32)) & 1u);
}

}  // namespace

std::string format_counters(std::span<const wfa::EngineCounter> counters) {
  std::string text;
  for (const wfa::EngineCounter& counter : counters) {
    if (!text.empty()) text += ';';
    text += fmt::format("{}={:.6g}", counter.name, counter.value);
  }
  return text;
}

RunHeader with_mask_output(RunHeader header, const StudyOptions& options) {
  header.fields.emplace_back("mask output", options.mask_into_buffer
                                                ? "fill_mask into the caller's buffer"
                                                : "mask_view (cached results not copied)");
  header.fields.emplace_back("mask read", options.read_whole_mask
                                              ? "every token counted after each step"
                                              : "only the next token's bit (--mask-read bit)");
  return header;
}

ForcedRun force_text(const ForcingSetup& setup, const std::vector<TokenId>& tokens,
                     wfa::MaskEngine& engine) {
  ForcedRun run;
  std::size_t steps = tokens.size() + 1;  // EOS is the last step
  if (setup.max_steps != 0 && setup.max_steps < steps) steps = setup.max_steps;
  run.steps.reserve(steps);
  glr::Session session(setup.grammar, setup.vocabulary);
  DenseMask mask(static_cast<std::uint32_t>(setup.vocabulary->size()));
  for (std::size_t step = 0; step < steps; ++step) {
    const TokenId token = step < tokens.size() ? tokens[step] : setup.eos;
    StepRecord record;
    record.step = static_cast<std::uint32_t>(step);
    record.byte_offset = session.byte_offset();
    auto start = Clock::now();
    std::span<const std::uint32_t> words = mask.words();
    if (setup.into_buffer)
      engine.fill_mask(session, mask.words());
    else
      words = engine.mask_view(session, mask.words());
    record.mask_us = micros_since(start);
    if (setup.read_whole_mask) record.mask_tokens = mask_count(words);
    if (setup.hyphen_run_tokens)
      record.hyphen_run_allowed = mask_has_any(words, *setup.hyphen_run_tokens);
    record.counters = format_counters(engine.last_step_counters());
    const auto fail = [&](std::string_view why) {
      run.failure =
          fmt::format("step {}, byte {}, token {}: {}", step, record.byte_offset, token, why);
      run.steps.push_back(std::move(record));
    };
    run.failure_step = step;
    if (!has(words, token)) {
      run.failure_masked = true;
      fail(token == setup.eos ? "EOS is not in the mask" : "the token is not in the mask");
      break;
    }
    try {
      start = Clock::now();
      session.commit(token);
      record.commit_us = micros_since(start);
    } catch (const Error& e) {
      fail(fmt::format("in the mask, but the session refused it: {}", e.what()));
      break;
    }
    run.steps.push_back(std::move(record));
  }
  return run;
}

}  // namespace glrmask::experiments
