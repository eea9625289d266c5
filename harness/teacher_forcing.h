// Teacher forcing through the facade: a real text's tokens, then a stop id, fed to a matcher one
// step at a time, with the mask of every step timed, checked to allow the real next token, and
// optionally compared bit for bit with other matchers (other engines) that follow the same text.
//
// The one loop behind `glrmask mask` and `demo`, the latency and exactness studies, the MaskBench
// runner and the engine-comparison tests: each adds what it needs through the step observer.
// Timing: a step's mask is taken once from the leading matcher (next_token_mask(), which hands out
// a cached mask without copying it, or fill_next_token_bitmask() into a buffer, as a server does)
// and then from each follower, so no engine's work lands between the clock reads of another.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "glrmask/matcher.hpp"

namespace glrmask {

enum class MaskCall : std::uint8_t {
  kView,  // Matcher::next_token_mask(): no copy when the engine has the mask cached
  kFill,  // Matcher::fill_next_token_bitmask(): the whole bitmask written to a buffer
};

struct TeacherForcingOptions {
  // Steps to run (each token is one, the stop id the last); fewer: the run is cut short.
  std::size_t max_steps = static_cast<std::size_t>(-1);
  MaskCall mask_call = MaskCall::kView;
  // Also read the thread's CPU clock around the leader's mask (ForcedStep::mask_cpu_time): a step
  // slow in wall time but not in CPU time was preempted.
  bool thread_cpu_time = false;
};

// What the observer sees at each step, before the token is committed.
struct ForcedStep {
  std::size_t step = 0;
  std::int32_t token = 0;  // the real next token (the first stop id at the last step)
  bool is_stop = false;
  std::uint64_t byte_offset = 0;
  std::span<const std::uint32_t> mask;  // the leading matcher's; valid during the call
  std::chrono::nanoseconds mask_time{0};
  std::chrono::nanoseconds mask_cpu_time{0};  // with TeacherForcingOptions::thread_cpu_time
  const Matcher* matcher = nullptr;           // the leading matcher, before the commit
};

// Where and how a follower's mask differed from the leader's at one step.
struct MaskMismatch {
  std::size_t step = 0;
  std::size_t follower = 0;
  std::uint64_t byte_offset = 0;
  std::uint64_t differing = 0;  // tokens in one mask and not the other
  struct Token {
    std::int32_t id = 0;
    bool in_leader = false;  // set in the leader's mask (else only in the follower's)
  };
  std::vector<Token> first;  // the lowest differing ids (up to 8)
};

struct ForcedRun {
  std::size_t planned_steps = 0;  // tokens + the stop step, or max_steps
  bool truncated = false;         // cut short by max_steps (no stop step)
  std::size_t steps = 0;          // steps whose mask was computed
  std::vector<std::chrono::nanoseconds> mask_times, commit_times;
  // Per follower, its mask times.
  std::vector<std::vector<std::chrono::nanoseconds>> follower_times;
  std::uint64_t mismatch_steps = 0;  // steps where some follower differed
  // Per follower, the steps where it differed from the leader.
  std::vector<std::uint64_t> follower_mismatch_steps;
  std::vector<MaskMismatch> mismatches;  // the first few of each follower, in step order

  // Set when the leader's mask lacked the real token (or the stop id at the end), or its
  // matcher refused a token the mask allowed.
  struct Failure {
    std::size_t step = 0;
    std::uint64_t byte_offset = 0;
    std::int32_t token = 0;
    bool masked = false;  // the mask lacked the token; else the matcher refused it
    std::string reason;
  };
  std::optional<Failure> failure;
  // Set when the observer stopped the run.
  bool stopped = false;

  bool ok() const { return !failure && mismatch_steps == 0; }
};

// The observer returns false to stop the run after this step's checks.
using StepObserver = std::function<bool(const ForcedStep&)>;

// Runs `tokens` (then the constraint's first stop id) through `leader`, which must be at the start
// of its text; `followers` (may be empty) are matchers of the same text under other constraints
// (other engines) and get every token too. Returns what happened; a failure ends the run.
ForcedRun teacher_force(Matcher& leader, std::span<const std::int32_t> tokens,
                        const TeacherForcingOptions& options = {},
                        std::span<Matcher* const> followers = {}, const StepObserver& observe = {});

// The mask digest `glrmask mask --steps` writes (docs/cli.md): the sum over words i of
// word_i * (2i + 1) * 0x9E3779B97F4A7C15, modulo 2^64. Equal masks have equal digests; the C and
// Python tests compute it the same way.
std::uint64_t mask_digest(std::span<const std::uint32_t> words);

// Tokens set in `words`.
std::uint64_t mask_count(std::span<const std::uint32_t> words);

}  // namespace glrmask
