// What a glrmask::Matcher holds: its constraint, the parse state of its text (a glr::Session:
// GSS heads, lexer configuration, rollback history), and the engine it keeps between a
// next_token_mask() call and the next call (the view points into that engine).
#pragma once

#include <array>
#include <vector>

#include "api/src/constraint_impl.h"
#include "api/src/engine_pool.h"
#include "glr/session.h"
#include "glrmask/matcher.hpp"
#include "lib/token_set/dense_mask.h"

namespace glrmask {

struct Matcher::Impl {
  Constraint constraint;
  glr::SessionOptions options;
  glr::Session session;
  // Read on every mask call, so kept here rather than reached through the constraint.
  EnginePool* engines;
  std::size_t word_count;
  bool several_stops;
  // MatcherOptions::stop_ids when given (then `own_stops` is true), else the tokenizer's.
  std::vector<std::int32_t> stop_ids;
  bool own_stops = false;
  bool terminate_without_stop = false;
  // Counts the changes of the text (accepts, rollbacks, resets).
  std::uint64_t version = 0;
  // terminate_without_stop: whether the text of `ended_at_version` is complete with nothing that
  // may follow (computed on demand, kept until the text changes).
  mutable std::uint64_t ended_at_version = ~std::uint64_t{0};
  mutable bool ended = false;
  EnginePool::Lease view_engine;  // held from next_token_mask() until the next call
  DenseMask scratch;              // the view's words when the engine keeps no copy
  // The engine's counters of the last mask (a fixed array: copying them costs no allocation).
  static constexpr std::size_t kMaxCounters = 16;
  std::array<MaskCounter, kMaxCounters> counters{};
  std::size_t num_counters = 0;

  Impl(const Constraint& constraint_in, glr::SessionOptions options_in,
       const MatcherOptions& matcher_options);

  const Constraint::Impl& data() const { return constraint.impl(); }
  // The engine's mask of the next token in `words` (bitmask_words() of them), plus the stop ids
  // beyond the first (the engines set the first, the vocabulary's EOS).
  void fill(std::span<std::uint32_t> words);
  // Sets every stop id's bit when the first one's is set (with the matcher's own stop ids: clears
  // the tokenizer's and sets the matcher's exactly when the text is complete).
  void add_stop_ids(std::span<std::uint32_t> words) const;
  bool is_stop(TokenId id) const;
  // The text is complete and no byte may follow (terminate_without_stop).
  bool ended_without_stop() const;
  void record_counters(const mask::MaskEngine& engine);
};

}  // namespace glrmask
