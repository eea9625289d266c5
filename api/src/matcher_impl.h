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
  EnginePool::Lease view_engine;  // held from next_token_mask() until the next call
  DenseMask scratch;              // the view's words when the engine keeps no copy
  // The engine's counters of the last mask (a fixed array: copying them costs no allocation).
  static constexpr std::size_t kMaxCounters = 16;
  std::array<MaskCounter, kMaxCounters> counters{};
  std::size_t num_counters = 0;

  Impl(const Constraint& constraint_in, glr::SessionOptions options_in);

  const Constraint::Impl& data() const { return constraint.impl(); }
  // The engine's mask of the next token in `words` (bitmask_words() of them), plus the stop ids
  // beyond the first (the engines set the first, the vocabulary's EOS).
  void fill(std::span<std::uint32_t> words);
  // Sets every stop id's bit when the first one's is set.
  void add_stop_ids(std::span<std::uint32_t> words) const;
  void record_counters(const mask::MaskEngine& engine);
};

}  // namespace glrmask
