// ParserDwa::write / read: the automaton as flat arrays, for compiled artifacts.
#include <fmt/format.h>

#include <algorithm>

#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

namespace {

constexpr std::uint32_t kParserDwaSectionTag = 0x41574450;  // "PDWA"

}  // namespace

void ParserDwa::write(BinaryWriter& out,
                      const std::function<std::uint32_t(TokenSetId)>& stored_id) const {
  out.put(kParserDwaSectionTag);
  out.put_array<DwaStateId>(start_states_);
  out.put_array<EarlyStart>(early_starts_);
  out.put_aligned_array<std::uint32_t>(transition_begin_);
  std::vector<ParserDwaTransition> transitions(transitions_.begin(), transitions_.end());
  for (ParserDwaTransition& t : transitions) t.weight = TokenSetId{stored_id(t.weight)};
  out.put_aligned_array<ParserDwaTransition>(transitions);
  out.put_array<std::uint32_t>(branch_begin_);
  std::vector<ParserDwaBranch> branches = branches_;
  for (ParserDwaBranch& b : branches) b.weight = TokenSetId{stored_id(b.weight)};
  out.put_array<ParserDwaBranch>(branches);
  out.put_array<IndenterCondition>(conditions_);
  out.put_array<std::uint32_t>(condition_set_begin_);
  out.put_array<std::uint32_t>(condition_atoms_);
  // No implicit padding: its bytes would reach the file uninitialized.
  static_assert(sizeof(ParserDwaStats) == 15 * sizeof(std::size_t) + 8 + sizeof(double));
  out.put(stats_);
}

ParserDwa ParserDwa::read(BinaryReader& in, std::uint32_t lr_states, std::size_t forks,
                          std::size_t token_sets) {
  if (in.get<std::uint32_t>("Parser DWA section tag") != kParserDwaSectionTag)
    in.fail("expected the Parser DWA section");
  ParserDwa dwa;
  dwa.start_states_ = in.get_array<DwaStateId>("start states");
  dwa.early_starts_ = in.get_array<EarlyStart>("early-label start states");
  // The two large arrays are viewed in the artifact's mapping, not copied (the CompiledMask that
  // holds this automaton keeps the mapping alive).
  dwa.transition_begin_ =
      MappedArray<std::uint32_t>::view(in.get_view<std::uint32_t>("transition offsets"));
  dwa.transitions_ =
      MappedArray<ParserDwaTransition>::view(in.get_view<ParserDwaTransition>("transitions"));
  dwa.branch_begin_ = in.get_array<std::uint32_t>("branch offsets");
  dwa.branches_ = in.get_array<ParserDwaBranch>("branches");
  dwa.conditions_ = in.get_array<IndenterCondition>("indenter conditions");
  dwa.condition_set_begin_ = in.get_array<std::uint32_t>("condition set offsets");
  dwa.condition_atoms_ = in.get_array<std::uint32_t>("condition sets");
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
  const auto offsets_fit = [](const std::vector<std::uint32_t>& begin, std::size_t size,
                              std::size_t first_entries) {
    return begin.size() >= first_entries && begin.front() == 0 && begin.back() == size &&
           std::is_sorted(begin.begin(), begin.end());
  };
  if (!offsets_fit(dwa.branch_begin_, dwa.branches_.size(), 1) ||
      !offsets_fit(dwa.condition_set_begin_, dwa.condition_atoms_.size(), 2) ||
      dwa.condition_set_begin_[1] != 0)
    in.fail("the Parser DWA's branch or condition offsets are inconsistent");
  const std::size_t groups = dwa.branch_begin_.size() - 1;
  const std::size_t sets = dwa.condition_set_begin_.size() - 1;
  for (const std::uint32_t atom : dwa.condition_atoms_)
    if (atom >= dwa.conditions_.size()) in.fail("a Parser DWA condition set names no condition");
  for (const IndenterCondition& c : dwa.conditions_)
    if (static_cast<std::uint32_t>(c.kind) > static_cast<std::uint32_t>(ConditionKind::kDeferred) ||
        static_cast<std::uint32_t>(c.text_kind) > 2)
      in.fail("a Parser DWA indenter condition is malformed");
  const auto target_fits = [&](DwaStateId target) {
    if (target == kDeadState) return true;
    if ((target.value() & kBranchBit) != 0) return (target.value() & ~kBranchBit) < groups;
    return target.value() < states;
  };
  for (const ParserDwaBranch& b : dwa.branches_) {
    if (b.conditions >= sets || (b.target != kDeadState && b.target.value() >= states))
      in.fail("a Parser DWA branch points outside the automaton");
    if (b.weight.value() >= token_sets)
      in.fail(fmt::format("a Parser DWA branch weighs token set {} of {}", b.weight.value(),
                          token_sets));
  }
  for (const ParserDwaTransition& t : dwa.transitions_) {
    if (!target_fits(t.target) || t.read >= lr_states)
      in.fail("a Parser DWA transition points outside the automaton");
    if (t.weight.value() >= token_sets)
      in.fail(fmt::format("a Parser DWA transition weighs token set {} of {}", t.weight.value(),
                          token_sets));
  }
  return dwa;
}

}  // namespace glrmask::mask
