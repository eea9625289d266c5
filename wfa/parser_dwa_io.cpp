// ParserDwa::write / read: the automaton as flat arrays, for compiled artifacts.
#include <fmt/format.h>

#include <algorithm>

#include "wfa/parser_dwa.h"

namespace glrmask::wfa {

namespace {

constexpr std::uint32_t kSectionTag = 0x41574450;  // "PDWA"

}  // namespace

void ParserDwa::write(BinaryWriter& out,
                      const std::function<std::uint32_t(TokenSetId)>& stored_id) const {
  out.put(kSectionTag);
  out.put_array<DwaStateId>(start_states_);
  out.put_array<EarlyStart>(early_starts_);
  out.put_array<std::uint32_t>(transition_begin_);
  std::vector<ParserDwaTransition> transitions = transitions_;
  for (ParserDwaTransition& t : transitions) t.weight = TokenSetId{stored_id(t.weight)};
  out.put_array<ParserDwaTransition>(transitions);
  out.put(stats_);
}

ParserDwa ParserDwa::read(BinaryReader& in, std::uint32_t lr_states, std::size_t forks,
                          std::size_t token_sets) {
  if (in.get<std::uint32_t>("Parser DWA section tag") != kSectionTag)
    in.fail("expected the Parser DWA section");
  ParserDwa dwa;
  dwa.start_states_ = in.get_array<DwaStateId>("start states");
  dwa.early_starts_ = in.get_array<EarlyStart>("early-label start states");
  dwa.transition_begin_ = in.get_array<std::uint32_t>("transition offsets");
  dwa.transitions_ = in.get_array<ParserDwaTransition>("transitions");
  dwa.stats_ = in.get<ParserDwaStats>("Parser DWA statistics");
  if (dwa.start_states_.size() != forks)
    in.fail(fmt::format("the Parser DWA has {} start states for {} lexer forks",
                        dwa.start_states_.size(), forks));
  if (dwa.transition_begin_.empty() || dwa.transition_begin_.front() != 0 ||
      dwa.transition_begin_.back() != dwa.transitions_.size() ||
      !std::is_sorted(dwa.transition_begin_.begin(), dwa.transition_begin_.end()))
    in.fail("the Parser DWA's transition offsets are inconsistent");
  const std::size_t states = dwa.num_states();
  for (const DwaStateId start : dwa.start_states_)
    if (start.value() >= states)
      in.fail(fmt::format("a start state {} of {} states", start.value(), states));
  for (std::size_t i = 0; i < dwa.early_starts_.size(); ++i) {
    const EarlyStart& e = dwa.early_starts_[i];
    if (e.fork >= forks || e.state.value() >= states)
      in.fail(fmt::format("early-label start state {} points outside the automaton", i));
    if (i > 0 && std::pair{dwa.early_starts_[i - 1].label, dwa.early_starts_[i - 1].fork} >=
                     std::pair{e.label, e.fork})
      in.fail("the Parser DWA's early-label start states are not in ascending order");
  }
  for (const ParserDwaTransition& t : dwa.transitions_) {
    if ((t.target != kDeadState && t.target.value() >= states) || t.read >= lr_states)
      in.fail("a Parser DWA transition points outside the automaton");
    if (t.weight.value() >= token_sets)
      in.fail(fmt::format("a Parser DWA transition weighs token set {} of {}", t.weight.value(),
                          token_sets));
  }
  return dwa;
}

}  // namespace glrmask::wfa
