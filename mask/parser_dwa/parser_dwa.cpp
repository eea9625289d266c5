#include "mask/parser_dwa/parser_dwa.h"

#include <algorithm>

#include "lib/core/hash_mix.h"

namespace glrmask::mask {

const ParserDwaTransition* ParserDwa::find(DwaStateId state, glr::StateId read) const {
  GLRMASK_DCHECK(state != kDeadState && state.value() < num_states(), "state {} of {}",
                 state.value(), num_states());
  const ParserDwaTransition* begin = transitions_.data() + transition_begin_[state.value()];
  const ParserDwaTransition* end = transitions_.data() + transition_begin_[state.value() + 1];
  // Most states have a handful of transitions; a linear scan beats binary search there.
  if (end - begin <= 8) {
    for (const ParserDwaTransition* t = begin; t != end; ++t)
      if (t->read == read) return t;
    return nullptr;
  }
  const ParserDwaTransition* it = std::lower_bound(
      begin, end, read,
      [](const ParserDwaTransition& t, glr::StateId value) { return t.read < value; });
  return it != end && it->read == read ? it : nullptr;
}

std::optional<DwaStateId> ParserDwa::early_start_state(lexer::LabelId label,
                                                       lexer::ForkId fork) const {
  const auto it =
      std::lower_bound(early_starts_.begin(), early_starts_.end(), std::pair{label, fork},
                       [](const EarlyStart& e, const auto& key) {
                         return std::pair{e.label, e.fork} < key;
                       });
  if (it == early_starts_.end() || it->label != label || it->fork != fork) return std::nullopt;
  return it->state;
}

std::size_t ParserDwa::size_in_bytes() const {
  return start_states_.size() * sizeof(DwaStateId) + early_starts_.size() * sizeof(EarlyStart) +
         transition_begin_.size() * sizeof(std::uint32_t) +
         transitions_.size() * sizeof(ParserDwaTransition) +
         branch_begin_.size() * sizeof(std::uint32_t) + branches_.size() * sizeof(ParserDwaBranch) +
         conditions_.size() * sizeof(IndenterCondition) +
         (condition_set_begin_.size() + condition_atoms_.size()) * sizeof(std::uint32_t);
}

std::uint64_t ParserDwa::content_digest(
    const std::function<std::uint64_t(TokenSetId)>& weight_digest) const {
  std::uint64_t h = 0x6a09e667f3bcc909ull;
  const auto mix = [&](std::uint64_t value) {
    h = splitmix64_mix(h ^ value) + 0x9e3779b97f4a7c15ull;
  };
  mix(start_states_.size());
  for (const DwaStateId state : start_states_) mix(state.value());
  mix(early_starts_.size());
  for (const EarlyStart& start : early_starts_) {
    mix(start.label);
    mix(start.fork);
    mix(start.state.value());
  }
  mix(num_states());
  for (std::size_t state = 0; state < num_states(); ++state) {
    const auto row = transitions(DwaStateId{static_cast<std::uint32_t>(state)});
    mix(row.size());
    for (const ParserDwaTransition& t : row) {
      mix(t.read);
      mix(weight_digest(t.weight));
      if (!is_branch(t.target)) {
        mix(t.target.value());
        continue;
      }
      const auto group = branch_group(t.target);
      mix(0xb7e151628aed2a6bull ^ group.size());
      for (const ParserDwaBranch& branch : group) {
        const auto set = condition_set(branch.conditions);
        mix(set.size());
        for (const std::uint32_t id : set) {
          const IndenterCondition& c = conditions_[id];
          mix(static_cast<std::uint64_t>(c.kind) << 40 ^
              static_cast<std::uint64_t>(c.text_kind) << 32 ^ c.value);
        }
        mix(branch.target.value());
        mix(weight_digest(branch.weight));
      }
    }
  }
  return h;
}

}  // namespace glrmask::mask
