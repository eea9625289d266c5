// What the wfa walk collects below a (GSS node, Parser DWA state) pair, kept from one get_mask to
// the next.
//
// The walk starts the Parser DWA on the heads and goes down the stack while the automaton has
// something left to decide. For most grammars that is a few nodes; for a right-recursive rule
// (`l: "a" l | "a"`) every level below can still reduce, so each step read the whole stack: at
// depth d, d pairs per mask. But the weights collected from a pair downwards depend only on the
// pair (the automaton is fixed and the GSS below a node never changes once its step returns), so
// the walk keeps them: the *summary* of a pair is the set of weights the plain walk started from
// that pair alone would collect, and a pair met again is answered by its summary without going
// further down. The next step then reads the few new nodes near the top and meets a summarized
// pair: constant work per step however deep the stack.
//
// Summaries are sets of weight ids (TokenSetId), stored back to back; a summary one level up is
// its lower summary plus that level's weight, the same summary when the weight is already in it,
// so a chain of levels shares a handful of summaries. Keys are the node's address *and* its
// block's serial (glr/gss.h): a freed node's address may be reused by a new node, whose serial
// differs. The table only grows during a step and is cleared whole, between steps, past a size
// bound, which bounds its memory; a cleared table costs one walk of the whole stack again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "glr/gss.h"
#include "lib/core/flat_map.h"
#include "lib/token_set/token_set_id.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

class StackSummaries {
 public:
  using SummaryId = std::uint32_t;

  StackSummaries();

  // The summary of the pair, if it was kept.
  std::optional<SummaryId> find(const glr::GssNode* node, DwaStateId state) const;
  void insert(const glr::GssNode* node, DwaStateId state, SummaryId summary);

  // The summary with no weight.
  static constexpr SummaryId kEmpty = 0;
  // A new summary of `weights` (ascending, distinct).
  SummaryId make(std::span<const TokenSetId> weights);
  // `summary` with `weight` added: `summary` itself when it already has the weight.
  SummaryId with(SummaryId summary, TokenSetId weight);
  std::span<const TokenSetId> weights(SummaryId summary) const;

  // Clears the table when it has outgrown its bound. Only between walks: it invalidates every
  // SummaryId.
  void trim();
  std::size_t num_pairs() const { return pairs_.size(); }

 private:
  struct Key {
    std::uintptr_t node = 0;
    std::uint64_t serial = 0;
    std::uint32_t state = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyInfo {
    static constexpr Key empty() { return {}; }
    static std::uint64_t hash(const Key& key);
  };
  static Key key_of(const glr::GssNode* node, DwaStateId state) {
    return {reinterpret_cast<std::uintptr_t>(node), node->block().serial(), state.value()};
  }

  FlatMap<Key, SummaryId, KeyInfo> pairs_;
  // Summary s holds weights_[offsets_[s], offsets_[s + 1]).
  std::vector<std::uint32_t> offsets_;
  std::vector<TokenSetId> weights_;
};

}  // namespace glrmask::mask
