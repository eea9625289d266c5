#include "wfa/parser_dwa.h"

#include <algorithm>

namespace glrmask::wfa {

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

}  // namespace glrmask::wfa
