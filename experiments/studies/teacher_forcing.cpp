#include "experiments/studies/teacher_forcing.h"

#include <fmt/format.h>

#include <chrono>

#include "harness/engine_constraint.h"
#include "harness/teacher_forcing.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::experiments {
namespace {

double micros(std::chrono::nanoseconds time) {
  return std::chrono::duration<double, std::micro>(time).count();
}

}  // namespace

std::string format_counters(std::span<const MaskCounter> counters) {
  std::string text;
  for (const MaskCounter& counter : counters) {
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

Constraint study_constraint(const TokenizerInputs& tokenizer,
                            std::shared_ptr<const glr::CompiledGrammar> grammar,
                            std::unique_ptr<mask::MaskEngine> engine) {
  return constraint_over_engine(tokenizer.handle, std::move(grammar), std::move(engine));
}

ForcedRun force_text(const ForcingSetup& setup, const std::vector<TokenId>& tokens,
                     const Constraint& constraint) {
  ForcedRun run;
  TeacherForcingOptions options;
  if (setup.max_steps != 0) options.max_steps = setup.max_steps;
  options.mask_call = setup.into_buffer ? MaskCall::kFill : MaskCall::kView;
  const std::vector<std::int32_t> ids(tokens.begin(), tokens.end());
  run.steps.reserve(std::min(ids.size() + 1, options.max_steps));
  Matcher matcher(constraint);
  const glrmask::ForcedRun forced =
      teacher_force(matcher, ids, options, {}, [&](const ForcedStep& step) {
        StepRecord record;
        record.step = static_cast<std::uint32_t>(step.step);
        record.byte_offset = step.byte_offset;
        record.mask_us = micros(step.mask_time);
        if (setup.read_whole_mask) record.mask_tokens = mask_count(step.mask);
        if (setup.hyphen_run_tokens)
          record.hyphen_run_allowed = mask_has_any(step.mask, *setup.hyphen_run_tokens);
        record.counters = format_counters(step.matcher->last_mask_counters());
        run.steps.push_back(std::move(record));
        return true;
      });
  // The commit of step i was timed when it succeeded: the steps before a failure, all of them
  // otherwise.
  for (std::size_t i = 0; i < forced.commit_times.size() && i < run.steps.size(); ++i)
    run.steps[i].commit_us = micros(forced.commit_times[i]);
  if (forced.failure) {
    const glrmask::ForcedRun::Failure& failure = *forced.failure;
    run.failure = fmt::format("step {}, byte {}, token {}: {}", failure.step, failure.byte_offset,
                              failure.token, failure.reason);
    run.failure_step = failure.step;
    run.failure_masked = failure.masked;
  }
  return run;
}

}  // namespace glrmask::experiments
