#include "harness/teacher_forcing.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <ctime>

#include "lib/core/error.h"

namespace glrmask {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMismatchesKeptPerFollower = 5;
constexpr std::size_t kTokensPerMismatch = 8;

bool has(std::span<const std::uint32_t> words, std::int32_t token) {
  const auto id = static_cast<std::size_t>(token);
  return id / 32 < words.size() && ((words[id / 32] >> (id % 32)) & 1u) != 0;
}

std::chrono::nanoseconds thread_cpu_now() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

// The mask of `matcher` at this step, timed: a view, or the words written into `buffer`.
std::span<const std::uint32_t> timed_mask(Matcher& matcher, MaskCall call,
                                          std::vector<std::uint32_t>& buffer,
                                          std::chrono::nanoseconds& time) {
  const Clock::time_point start = Clock::now();
  std::span<const std::uint32_t> mask;
  if (call == MaskCall::kView) {
    mask = matcher.next_token_mask();
  } else {
    matcher.fill_next_token_bitmask(std::span<std::uint32_t>(buffer));
    mask = buffer;
  }
  time = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start);
  return mask;
}

MaskMismatch compare(std::span<const std::uint32_t> leader, std::span<const std::uint32_t> other,
                     std::size_t step, std::size_t follower, std::uint64_t byte_offset) {
  MaskMismatch mismatch{step, follower, byte_offset, 0, {}};
  for (std::size_t word = 0; word < leader.size(); ++word) {
    std::uint32_t diff = leader[word] ^ other[word];
    mismatch.differing += static_cast<std::uint64_t>(std::popcount(diff));
    for (; diff != 0 && mismatch.first.size() < kTokensPerMismatch; diff &= diff - 1) {
      const auto bit = static_cast<std::uint32_t>(std::countr_zero(diff));
      mismatch.first.push_back(
          {static_cast<std::int32_t>(word * 32 + bit), ((leader[word] >> bit) & 1u) != 0});
    }
  }
  return mismatch;
}

}  // namespace

std::uint64_t mask_digest(std::span<const std::uint32_t> words) {
  std::uint64_t digest = 0;
  for (std::size_t i = 0; i < words.size(); ++i)
    digest += std::uint64_t{words[i]} * ((2 * std::uint64_t{i} + 1) * 0x9E3779B97F4A7C15ull);
  return digest;
}

std::uint64_t mask_count(std::span<const std::uint32_t> words) {
  std::uint64_t count = 0;
  for (const std::uint32_t word : words) count += static_cast<std::uint64_t>(std::popcount(word));
  return count;
}

ForcedRun teacher_force(Matcher& leader, std::span<const std::int32_t> tokens,
                        const TeacherForcingOptions& options, std::span<Matcher* const> followers,
                        const StepObserver& observe) {
  const std::span<const std::int32_t> stops = leader.constraint().tokenizer().stop_ids();
  if (stops.empty())
    throw Error("teacher forcing needs a stop id to end the text; the tokenizer has none",
                ErrorCode::kInvalidArgument);
  const std::int32_t stop = stops.front();
  ForcedRun run;
  run.planned_steps = tokens.size() + 1;
  if (options.max_steps < run.planned_steps) {
    run.planned_steps = options.max_steps;
    run.truncated = true;
  }
  run.mask_times.reserve(run.planned_steps);
  run.commit_times.reserve(run.planned_steps);
  run.follower_times.resize(followers.size());
  run.follower_mismatch_steps.assign(followers.size(), 0);
  std::vector<std::uint32_t> buffer(leader.bitmask_words());
  std::vector<std::uint32_t> follower_buffer(leader.bitmask_words());

  for (std::size_t step = 0; step < run.planned_steps; ++step) {
    ForcedStep current;
    current.step = step;
    current.is_stop = step == tokens.size();
    current.token = current.is_stop ? stop : tokens[step];
    current.byte_offset = leader.byte_offset();
    current.matcher = &leader;
    ++run.steps;
    const std::chrono::nanoseconds cpu_start =
        options.thread_cpu_time ? thread_cpu_now() : std::chrono::nanoseconds{0};
    current.mask = timed_mask(leader, options.mask_call, buffer, current.mask_time);
    if (options.thread_cpu_time) current.mask_cpu_time = thread_cpu_now() - cpu_start;
    run.mask_times.push_back(current.mask_time);
    // The leader's view stays valid while the followers run: the leader holds the engine it
    // points into until its own next call.
    bool mismatched = false;
    for (std::size_t f = 0; f < followers.size(); ++f) {
      std::chrono::nanoseconds time{0};
      const std::span<const std::uint32_t> other =
          timed_mask(*followers[f], MaskCall::kFill, follower_buffer, time);
      run.follower_times[f].push_back(time);
      if (!std::equal(current.mask.begin(), current.mask.end(), other.begin(), other.end())) {
        mismatched = true;
        if (run.follower_mismatch_steps[f]++ < kMismatchesKeptPerFollower)
          run.mismatches.push_back(compare(current.mask, other, step, f, current.byte_offset));
      }
    }
    if (mismatched) ++run.mismatch_steps;
    const bool keep_going = observe ? observe(current) : true;
    const auto fail = [&](bool masked, std::string reason) {
      run.failure =
          ForcedRun::Failure{step, current.byte_offset, current.token, masked, std::move(reason)};
    };
    if (!has(current.mask, current.token)) {
      fail(true, current.is_stop ? "the stop id is not in the mask: the text is not a complete "
                                   "sentence"
                                 : "the token is not in the mask");
      break;
    }
    const Clock::time_point start = Clock::now();
    try {
      leader.commit_token(current.token);
    } catch (const Error& e) {
      fail(false, fmt::format("in the mask, but the matcher refused it: {}", e.what()));
      break;
    }
    run.commit_times.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start));
    for (std::size_t f = 0; f < followers.size(); ++f) {
      if (!followers[f]->accept_token(current.token)) {
        fail(false, fmt::format("follower {} refused the token the leader accepted", f));
        break;
      }
    }
    if (run.failure) break;
    if (!keep_going) {
      run.stopped = true;
      break;
    }
  }
  return run;
}

}  // namespace glrmask
