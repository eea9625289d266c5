// Teacher forcing with per-step measurements, on the library's teacher-forcing loop
// (harness/teacher_forcing.h) and a matcher over the study's engine: the engine masks every step
// of a real text (its tokens, then EOS), each mask and commit is timed on its own, and the
// engine's counters and whether a long hyphen-run token was allowed are kept per step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/studies/run_header.h"
#include "experiments/studies/study_inputs.h"
#include "experiments/studies/study_options.h"
#include "glr/compiled_grammar.h"
#include "glrmask/constraint.hpp"
#include "glrmask/matcher.hpp"
#include "lib/core/token_id.h"
#include "mask/mask_engine.h"

namespace glrmask::experiments {

struct StepRecord {
  std::uint32_t step = 0;
  std::uint64_t byte_offset = 0;
  double mask_us = 0;
  double commit_us = 0;           // 0 on the step whose token was refused
  std::uint64_t mask_tokens = 0;  // 0 when the setup does not read the whole mask
  bool hyphen_run_allowed = false;
  std::string counters;  // "name=value;..." from MaskEngine::last_step_counters()
};

struct ForcedRun {
  std::vector<StepRecord> steps;
  // Set when the engine's mask lacked the real next token (or EOS at the end), or the session
  // refused a token the mask allowed: "step S, byte B, token T: why".
  std::optional<std::string> failure;
  // With a failure: its step, and whether the mask lacked the token (else the session refused
  // a token the mask allowed), for callers that classify failures (psc_tables).
  std::size_t failure_step = 0;
  bool failure_masked = false;
};

struct ForcingSetup {
  const std::vector<TokenId>* hyphen_run_tokens = nullptr;  // optional
  std::size_t max_steps = 0;                                // 0: every token and EOS
  // Time fill_mask(), which writes the mask into the caller's buffer, instead of mask_view(),
  // which may hand out the engine's own copy (wfa: a cached result without copying it).
  bool into_buffer = false;
  // Count the mask's tokens after every step (reading all of it, as a sampler would); when
  // false only the next token's bit is read (StudyOptions::read_whole_mask).
  bool read_whole_mask = true;
};

// A constraint of the library over `grammar` whose matchers run `engine` (from make_engine()),
// for force_text(). `engine` is moved from.
Constraint study_constraint(const TokenizerInputs& tokenizer,
                            std::shared_ptr<const glr::CompiledGrammar> grammar,
                            std::unique_ptr<mask::MaskEngine> engine);

// Teacher-forces `tokens` (then EOS) through a matcher of `constraint` with the library's loop
// (harness/teacher_forcing.h), keeping a StepRecord per step.
ForcedRun force_text(const ForcingSetup& setup, const std::vector<TokenId>& tokens,
                     const Constraint& constraint);

// `header` with "mask output" and "mask read" fields saying how force_text() timed get_mask and
// what it read of each mask between steps.
RunHeader with_mask_output(RunHeader header, const StudyOptions& options);

// "name=value;name=value" (values with up to 6 significant digits).
std::string format_counters(std::span<const MaskCounter> counters);

}  // namespace glrmask::experiments
