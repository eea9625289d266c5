// The Parser DWA: the Terminal DWA composed with the LR automaton's stack effects, as one
// deterministic weighted automaton that reads LR states from the top of a parser stack downward
// and emits TokenSets (docs/wfa.md; the design of "Constrained decoding with weighted automata").
//
// A run starts in start_state(fork) for the lexer fork the session is in, and reads the stack's
// states top first. Each transition carries a weight: the tokens that the states read so far
// prove allowed, whatever lies further down. Its target is kDeadState when no token can be
// decided by reading deeper. The mask of one stack is the union of the weights along the run;
// the mask of a GSS is the union over its stacks, and since the automaton is deterministic a
// walk over the GSS visits each (GSS node, automaton state) pair once.
//
// Transitions exist only for states that can legally sit below the state read last (for the
// first step: the states a terminal shift can enter, and the start state); reading anything else
// is a dead end. The automaton is built whole at compile time (parser_dwa_builder.h): nothing is
// constructed on the decoding path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/core/binary_io.h"
#include "lib/core/check.h"
#include "lib/core/mapped_array.h"
#include "lib/core/strong_id.h"
#include "lib/token_set/token_set_id.h"
#include "mask/parser_dwa/indenter_condition.h"

namespace glrmask::mask {

// A state of the Parser DWA. Runs read LR states (glr::StateId) and move between these, often
// side by side in one call, so the two numberings are distinct types.
using DwaStateId = StrongId<struct DwaStateTag>;

struct ParserDwaTransition {
  glr::StateId read;  // the LR state read from the stack
  DwaStateId target;  // ParserDwa::kDeadState when nothing is left to decide below
  TokenSetId weight;  // tokens allowed by this step
};

// One way on after a transition whose target is a branch group (ParserDwa::kBranchBit): taken
// when every condition of `conditions` holds (set 0: none, always taken), it adds `weight` and
// continues in `target` (or stops, kDeadState). Only grammars with an indenter have them
// (mask/parser_dwa/indenter_condition.h, docs/wfa.md "Indenter").
struct ParserDwaBranch {
  std::uint32_t conditions;  // a condition set
  DwaStateId target;
  TokenSetId weight;
};

struct EarlyStart {
  lexer::LabelId label;
  lexer::ForkId fork;
  DwaStateId state;
};

struct ParserDwaStats {
  std::size_t states = 0;
  std::size_t early_starts = 0;  // ParserDwa::early_start_state pairs
  std::size_t transitions = 0;
  std::size_t distinct_weights = 0;  // distinct non-empty transition weights
  std::size_t suspended_items = 0;   // summed over states
  std::size_t max_items_per_state = 0;
  std::size_t guarded_states = 0;        // states holding work that waits on a skippable terminal
  std::size_t branch_groups = 0;         // transitions whose target depends on the indenter state
  std::size_t branches = 0;              // their ways on
  std::size_t deferred_branches = 0;     // ways on whose tokens get_mask tries on the session
  std::size_t max_virtual_depth = 0;     // the deepest virtual stack built during construction
  std::size_t longest_acyclic_read = 0;  // stack states read along the longest acyclic run
  bool has_cycles = false;  // some run reads arbitrarily deep (right recursion on one lookahead)
  // The struct is written to artifacts byte for byte: padding is spelled out so that every byte
  // written is initialized (parser_dwa_io.cpp checks that there is no other).
  std::uint8_t unused_padding[7] = {};
  // Memo entries, summed over the build's threads.
  std::size_t feed_memo_entries = 0;
  std::size_t expand_memo_entries = 0;
  std::size_t build_threads = 0;
  double build_seconds = 0;
};

class ParserDwa {
 public:
  static constexpr DwaStateId kDeadState{0xffffffffu};
  // A transition target with this bit (and not kDeadState) names a branch group.
  static constexpr std::uint32_t kBranchBit = 0x80000000u;
  static bool is_branch(DwaStateId target) {
    return target != kDeadState && (target.value() & kBranchBit) != 0;
  }

  std::size_t num_states() const { return transition_begin_.size() - 1; }
  std::size_t num_forks() const { return start_states_.size(); }
  DwaStateId start_state(lexer::ForkId fork) const {
    GLRMASK_DCHECK(fork < start_states_.size(), "fork {} of {}", fork, start_states_.size());
    return start_states_[fork];
  }
  // The state that first feeds `label` on the stack read (as the session would: shifted, or for
  // a skippable terminal dropped where the stack cannot take it), then goes on as
  // start_state(fork): what a run needs for a Terminal DWA entry whose early labels are just
  // `label` (a lexeme the lexer has accepted but not yet committed, TerminalDwa::enter). Built
  // for the (label, fork) pairs the Terminal DWA produces at a fall-back, ignored labels aside;
  // nullopt otherwise, and the caller feeds the label to the parser itself.
  std::optional<DwaStateId> early_start_state(lexer::LabelId label, lexer::ForkId fork) const;
  std::size_t num_early_starts() const { return early_starts_.size(); }

  // The transition of `state` on reading `read`, or nullptr when that state cannot be below.
  const ParserDwaTransition* find(DwaStateId state, glr::StateId read) const;
  std::span<const ParserDwaTransition> transitions(DwaStateId state) const {
    GLRMASK_DCHECK(state.value() < num_states(), "state {} of {}", state.value(), num_states());
    return {transitions_.data() + transition_begin_[state.value()],
            transitions_.data() + transition_begin_[state.value() + 1]};
  }
  // Every state's transitions, state after state.
  std::span<const ParserDwaTransition> all_transitions() const { return transitions_; }

  // The ways on of the branch group `target` names (is_branch(target)).
  std::span<const ParserDwaBranch> branch_group(DwaStateId target) const {
    const std::uint32_t group = target.value() & ~kBranchBit;
    return {branches_.data() + branch_begin_[group], branches_.data() + branch_begin_[group + 1]};
  }
  // The conditions of a set (ascending ids); set 0 is empty.
  std::span<const std::uint32_t> condition_set(std::uint32_t set) const {
    return {condition_atoms_.data() + condition_set_begin_[set],
            condition_atoms_.data() + condition_set_begin_[set + 1]};
  }
  const IndenterCondition& condition(std::uint32_t id) const { return conditions_[id]; }
  // Calls visit(state) for every state the transition can lead to (through its branch group's
  // ways on, if it has one); nothing when it stops.
  template <typename Visitor>
  void for_each_target(const ParserDwaTransition& t, Visitor&& visit) const {
    if (t.target == kDeadState) return;
    if (!is_branch(t.target)) {
      visit(t.target);
      return;
    }
    for (const ParserDwaBranch& branch : branch_group(t.target))
      if (branch.target != kDeadState) visit(branch.target);
  }
  bool has_branches() const { return !branches_.empty(); }

  // A digest of the automaton as get_mask reads it: the start states, the early-label starts, and
  // every state's transitions (read, target, weight) and branch groups (conditions, target,
  // weight), with each weight given by `weight_digest` (its tokens, not its pool id). Two builds
  // have the same digest iff they built the same automaton state for state, up to a collision.
  std::uint64_t content_digest(const std::function<std::uint64_t(TokenSetId)>& weight_digest) const;

  const ParserDwaStats& stats() const { return stats_; }
  std::size_t size_in_bytes() const;

  // Serialization for compiled artifacts (mask_artifact.h). write() numbers the weights through
  // `stored_id`; read() takes them as ids of the loaded pool (which numbers its sets as stored)
  // and checks every index against the sizes given (`lr_states`, `forks`, `token_sets`), throwing
  // glrmask::Error naming the byte offset otherwise.
  void write(BinaryWriter& out, const std::function<std::uint32_t(TokenSetId)>& stored_id) const;
  static ParserDwa read(BinaryReader& in, std::uint32_t lr_states, std::size_t forks,
                        std::size_t token_sets);

 private:
  friend class ParserDwaBuilder;

  std::vector<DwaStateId> start_states_;  // per lexer fork
  std::vector<EarlyStart> early_starts_;  // ascending (label, fork)
  // The two large arrays: viewed in place in a loaded artifact's mapping (mapped_array.h).
  MappedArray<std::uint32_t> transition_begin_ = std::vector<std::uint32_t>{0};  // per state
  MappedArray<ParserDwaTransition> transitions_;   // per state, ascending `read`
  std::vector<std::uint32_t> branch_begin_ = {0};  // per branch group, into branches_
  std::vector<ParserDwaBranch> branches_;
  std::vector<IndenterCondition> conditions_;
  std::vector<std::uint32_t> condition_set_begin_ = {0, 0};  // set 0: empty
  std::vector<std::uint32_t> condition_atoms_;
  ParserDwaStats stats_;
};

}  // namespace glrmask::mask
