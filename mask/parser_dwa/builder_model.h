// The Parser DWA construction's data model, private to mask/parser_dwa/: how continuations, items,
// groups and outcomes are encoded, and what the workers share (ParserDwaShared) and how they divide
// the reads (ParserDwaSchedule). docs/wfa.md, "Construction", explains the terms.
#pragma once

#include <fmt/format.h>
#include <tbb/concurrent_vector.h>
#include <tbb/global_control.h>
#include <tbb/spin_mutex.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glr/lr_table.h"
#include "lexer/terminal_dwa/fork_ignored_ending.h"
#include "lib/core/check.h"
#include "lib/core/concurrent_array_interner.h"
#include "lib/core/error.h"
#include "lib/core/flat_u64_map.h"
#include "lib/core/hash_mix.h"
#include "lib/core/process_memory.h"
#include "mask/parser_dwa/parser_dwa.h"
#include "mask/parser_dwa/parser_dwa_analysis.h"
#include "mask/parser_dwa/parser_dwa_builder.h"
#include "mask/parser_dwa/shift_verdicts.h"
#include "mask/parser_dwa/virtual_stack.h"

namespace glrmask::mask::construction {

using glr::StateId;
using glr::SymbolId;

// What happens once the lookahead being fed is shifted. Packed as payload << 3 | kind.
enum class ContinuationKind : std::uint32_t {
  kNode = 0,      // continue in the label trie at a node: its weights and edges
  kAccept = 1,    // a weight's check succeeded: the payload is the TokenSetId to accept
  kStart = 2,     // a fork's root: the trie root plus the end-of-input check for EOS
  kGuard = 3,     // can the real stack shift a skippable terminal? (accepts the marker full())
  kIndented = 4,  // with an indenter: the payload names an IndentedContinuation record
};

constexpr std::uint32_t kPayloadLimit = 1u << 29;
constexpr std::uint32_t continuation(ContinuationKind kind, std::uint32_t payload) {
  GLRMASK_DCHECK(payload < kPayloadLimit, "continuation payload {} past the limit", payload);
  return payload << 3 | static_cast<std::uint32_t>(kind);
}
constexpr ContinuationKind kind_of(std::uint32_t cont) {
  return static_cast<ContinuationKind>(cont & 7u);
}
constexpr std::uint32_t payload_of(std::uint32_t cont) {
  return cont >> 3;
}

// ---- Grammars with an indenter (docs/wfa.md, "Indenter") -------------------------------------
//
// What an item knows about the indenter within the token being read, relative to the session's
// state before the token (which the walk supplies at get_mask): the net bracket count of the
// labels fed (so the depth is d0 + net), whether d0 was resolved by a condition (the depth is
// then exactly net), and whether a newline was already processed (its width is then the top).
// Packed: net + 128 in bits 0-7, depth known in bit 8, newline seen in bit 9. The neutral context
// (nothing read yet) is what the plain continuations kNode and kStart stand for.
struct IndentCtx {
  int net = 0;
  bool depth_known = false;
  bool newline_seen = false;

  std::uint32_t pack() const {
    GLRMASK_DCHECK(net >= -128 && net < 128, "bracket count {} outside the packed byte", net);
    return static_cast<std::uint32_t>(net + 128) | (depth_known ? 1u << 8 : 0u) |
           (newline_seen ? 1u << 9 : 0u);
  }
  static IndentCtx unpack(std::uint32_t packed) {
    return {static_cast<int>(packed & 0xffu) - 128, (packed & (1u << 8)) != 0,
            (packed & (1u << 9)) != 0};
  }
  bool neutral() const { return net == 0 && !depth_known && !newline_seen; }
};

// The continuations only indented builds make, interned as records of six words:
// {type, a, b, c, ctx, text}.
enum class IndentedType : std::uint32_t {
  kTrie,          // a: trie node; ctx
  kRoot,          // a: fork (its root plus the EOS check); ctx
  kNewline,       // a newline was shifted: resolve its width `text`, then a: next continuation
  kDedent,        // a _DEDENT was shifted: b: DedentMode; c: frames popped in the virtual stack
                  // so far; text: the newline's width; a: next continuation
  kNewlineCheck,  // a check's newline was shifted (free width); a: TokenSetId to accept
  kDedentCheck,   // a check's _DEDENT or _INDENT was shifted; a: TokenSetId
  kFinishCheck,   // the end of input after _DEDENTs; a: TokenSetId
};
enum class DedentMode : std::uint32_t {
  kPending,  // the _INDENT frame this _DEDENT closes has not been read: decided where it is
  kLast,     // the newline lands on the level below: continue
  kMore,     // it lies below that level too: another _DEDENT
};
struct IndentedContinuation {
  IndentedType type = IndentedType::kTrie;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::uint32_t c = 0;
  std::uint32_t ctx = 0;
  std::uint32_t text = 0;  // lexer::IndentText packed: kind << 30 | width
};

inline std::uint32_t pack_text(lexer::IndentText text) {
  GLRMASK_DCHECK(text.width < (1u << 30), "newline width {} outside 30 bits", text.width);
  return static_cast<std::uint32_t>(text.kind) << 30 | text.width;
}
inline lexer::IndentText unpack_text(std::uint32_t packed) {
  return {static_cast<lexer::IndentTextKind>(packed >> 30), packed & ((1u << 30) - 1)};
}

// Terminals fed together: the alternatives of a lexical tie, or every terminal a weight's end fork
// can produce next (any one of them being shiftable accepts the weight). Interned; the reductions
// on a set split it by action, so the LR work is shared by the terminals that act alike.
using LookaheadId = std::uint32_t;
constexpr LookaheadId kNoLookahead = 0xffffffffu;
// An early-label start item whose label is not a plain lookahead carries the label with this bit
// (ParserDwaWorker::step feeds it through feed_label); interned lookaheads stay below it.
constexpr LookaheadId kLabelItem = 0x80000000u;

// A configuration suspended because it needs the state below what was read: after `pops` more
// states are read and dropped, the next state read gets the goto on `lhs` pushed, and feeding
// `lookahead` goes on. The very first item of a run has neither: it takes the top state as its
// stack and expands its continuation.
struct Item {
  std::uint32_t cont = 0;
  LookaheadId lookahead = kNoLookahead;
  std::uint32_t pops = 0;
  SymbolId lhs = glr::kNoSymbol;

  friend bool operator==(const Item&, const Item&) = default;
  friend auto operator<=>(const Item&, const Item&) = default;
};

struct ItemsHash {
  // Also hashes lookaheads and group lists, flattened (see ParserDwaWorker::intern_groups).
  std::uint64_t operator()(std::span<const std::uint32_t> terminals) const {
    std::uint64_t h = terminals.size();
    for (const SymbolId terminal : terminals) h = splitmix64_mix(h ^ terminal);
    return h;
  }
  std::uint64_t operator()(std::span<const Item> items) const {
    std::uint64_t h = items.size();
    for (const Item& item : items) {
      h = splitmix64_mix(h ^ (std::uint64_t{item.cont} << 32 | item.lookahead));
      h = splitmix64_mix(h ^ (std::uint64_t{item.pops} << 32 | item.lhs));
    }
    return h;
  }
};

using ItemSetId = std::uint32_t;       // 0 = no items
using GroupListId = std::uint32_t;     // 0 = no groups
using ConditionSetId = std::uint32_t;  // 0 = no conditions

// Work that is valid only if some skippable terminals turn out NOT to be shiftable by the real
// stack: the session drops such a terminal only when no stack can shift it (docs/wfa.md, "Skippable
// terminals"). Each guard is the item set of a pending "can it be shifted?" check; the group dies
// as soon as one guard accepts, and its held tokens and body items become unconditional once every
// guard has died. Groups nest by uniting their guards, so a group's body is plain items.
//
// A *positive* group (grammars with an indenter) is the other way round: a check that does not
// depend on the tokens it accepts ("can a newline of free width come next?", "can the input end
// after the final _DEDENTs?") runs once as its guard, and the held tokens — of every trie node
// that asked it on this stack — are allowed as soon as it succeeds; the group dies with it. So
// the check's items are shared instead of repeated for each node's tokens. A positive group has
// one guard and no body.
struct Group {
  std::vector<ItemSetId> guards;  // sorted, unique, non-empty
  TokenSetId held = TokenSetPool::empty();
  ItemSetId body = 0;
  bool positive = false;

  friend bool operator==(const Group&, const Group&) = default;
};

// Suspended work: an item set id, or with kGuardedWork set an index of an interned (item set,
// group list) pair. Plain item sets are by far the common case (every grammar without skippable
// terminals), and keeping them one word keeps the memo tables' slots at 16 bytes.
using WorkId = std::uint32_t;  // 0 = nothing suspended
constexpr WorkId kGuardedWork = 0x80000000u;
// With an indenter: work valid only where conditions on the indenter state hold. The index names
// an interned array {the unconditional work, then (condition set, accepted TokenSetId, work) for
// each conditional part, ascending by condition set}; those works are plain or guarded (positive
// groups), never conditional themselves.
constexpr WorkId kConditionalWork = 0x40000000u;

// What a piece of work yields: the tokens it proved allowed and the work it left suspended.
struct Outcome {
  TokenSetId accepted = TokenSetPool::empty();
  WorkId work = 0;
};

// How the terminals of a lookahead act at an LR state: the states they shift to, whether one
// accepts, and per rule the part of the lookahead that reduces by it. Feeding one lookahead at one
// top state recurs under many continuations and stacks, so the split is computed once.
struct ActionSplit {
  boost::container::small_vector<StateId, 4> shifts;
  bool accepts = false;
  boost::container::small_vector<std::pair<glr::RuleId, LookaheadId>, 4> reductions;
};

// What the top state alone says about a check (does some terminal of the lookahead shift?): a
// terminal shifts for sure, none can, or the lookahead of the terminals whose fate the states
// below decide (which may be the whole lookahead).
constexpr std::uint32_t kCheckSucceeds = 0xfffffffeu;
constexpr std::uint32_t kCheckFails = 0xfffffffdu;

// Marks a memo entry whose computation is under way: meeting it again means the reductions
// came back to the same configuration without consuming anything.
constexpr Outcome kInProgress{TokenSetPool::empty(), 0xffffffffu};
inline bool in_progress(const Outcome& outcome) {
  return outcome.work == kInProgress.work;
}

// The token-set pool behind one lock. The workers' calls are mostly memo lookups; the costly
// part of a miss (the union or subset test of large sets, and hashing the result) runs outside
// the lock on the stored sets, which never move or change once interned.
class LockedPool {
 public:
  explicit LockedPool(TokenSetPool& pool) : pool_(pool) {}

  TokenSetId unite(TokenSetId a, TokenSetId b) {
    if (a == b || b.is_empty()) return a;
    if (a.is_empty()) return b;
    const std::lock_guard lock(mutex_);
    return pool_.unite(a, b);
  }
  // `sets` is reordered; `scratch` holds the inputs' bitmaps between the two phases.
  TokenSetId unite_all(std::span<TokenSetId> sets, std::vector<const RoaringBitmap*>& scratch) {
    std::sort(sets.begin(), sets.end());
    sets =
        sets.first(static_cast<std::size_t>(std::unique(sets.begin(), sets.end()) - sets.begin()));
    if (!sets.empty() && sets.front().is_empty()) sets = sets.subspan(1);
    if (sets.size() <= 2 || sets.front() == TokenSetPool::full()) {
      const std::lock_guard lock(mutex_);
      return pool_.unite_all(sets);
    }
    scratch.clear();
    {
      const std::lock_guard lock(mutex_);
      if (const TokenSetId known = pool_.known_union(sets); !known.is_empty()) return known;
      for (const TokenSetId s : sets) scratch.push_back(&pool_.get(s));
    }
    RoaringBitmap result = RoaringBitmap::fastunion(scratch.size(), scratch.data());
    const std::uint64_t hash = pool_.content_hash_of(result);
    const std::lock_guard lock(mutex_);
    return pool_.remember_union(sets, std::move(result), hash);
  }
  TokenSetId subtract(TokenSetId a, TokenSetId b) {
    if (a.is_empty() || b.is_empty()) return a;
    const std::lock_guard lock(mutex_);
    return pool_.subtract(a, b);
  }
  bool is_subset(TokenSetId a, TokenSetId b) {
    if (a.is_empty() || a == b || b == TokenSetPool::full()) return true;
    const RoaringBitmap* left = nullptr;
    const RoaringBitmap* right = nullptr;
    {
      const std::lock_guard lock(mutex_);
      left = &pool_.get(a);
      right = &pool_.get(b);
    }
    return left->isSubset(*right);
  }

 private:
  TokenSetPool& pool_;
  tbb::spin_mutex mutex_;
};

// A request to compute the transition of a Parser DWA state on an LR state read.
struct Request {
  DwaStateId state;
  StateId read;
};

// A transition as a worker computed it, in the builder's provisional state numbering.
struct FoundTransition {
  DwaStateId state;
  StateId read;
  DwaStateId target;  // kDeadState, a state, or with kBranchBit [branch_begin, branch_end)
  TokenSetId weight;
  std::uint32_t branch_begin = 0;  // into the worker's found branches
  std::uint32_t branch_end = 0;
};

// What the workers share: the inputs, the tables precomputed before they start (read-only
// afterwards), and the interning that gives item sets, lookaheads, guarded work and states their
// identity. Everything a worker only caches (memos, virtual stacks, action splits) is its own.
struct ParserDwaShared {
  ParserDwaShared(const glr::CompiledGrammar& grammar_in, const lexer::TerminalDwa& dwa_in,
                  TokenSetPool& pool_in, std::optional<TokenId> eos_in,
                  const ParserDwaOptions& options_in)
      : grammar(grammar_in),
        table(grammar_in.table()),
        dwa(dwa_in),
        pool(pool_in),
        options(options_in),
        end_of_input(grammar_in.end_of_input()),
        eos(eos_in ? pool_in.singleton(*eos_in) : TokenSetPool::empty()),
        ends_through_ignored(lexer::forks_ending_through_ignored(dwa_in)) {}

  const glr::CompiledGrammar& grammar;
  const glr::LrTable& table;
  const lexer::TerminalDwa& dwa;
  LockedPool pool;
  ParserDwaOptions options;
  SymbolId end_of_input;
  TokenSetId eos;
  std::vector<char> ends_through_ignored;
  std::unique_ptr<ShiftVerdicts> verdicts;
  std::vector<StateId> first_reads;  // states a run may read first
  // Per fork: the first reads at which its start state can do anything (compute_start_reads);
  // empty for all forks when not computed (then every start state reads first_reads).
  std::vector<std::vector<StateId>> start_reads;
  std::vector<std::vector<StateId>> predecessors;  // per state, ascending

  // Precomputed, read-only while the workers run.
  std::vector<TokenSetId> subtrie_tokens;  // per trie node: the tokens of its weights and below
  std::vector<TokenSetId> start_pending;   // per fork: its root's subtrie tokens, plus EOS
  // Per trie node: (what the end fork can produce next, the tokens of the weights with that end
  // behaviour); the end of input counts as a terminal for forks that can finish.
  std::vector<std::vector<std::pair<LookaheadId, TokenSetId>>> checks;
  // Per label: the lookahead it feeds when that is a plain shift, else kNoLookahead (ignored or
  // skippable terminals, whose handling depends on the stacks).
  std::vector<LookaheadId> plain_lookaheads;

  ConcurrentArrayInterner<Item> item_sets;
  ConcurrentArrayInterner<SymbolId> lookaheads;

  // With an indenter (docs/wfa.md, "Indenter"); null and empty otherwise.
  const glr::IndenterSpec* indenter = nullptr;
  std::vector<char> indent_frame;  // per LR state: entered by shifting _INDENT
  std::vector<char> dedent_state;  // per LR state: entered by shifting _DEDENT
  LookaheadId newline_lookahead = kNoLookahead;
  LookaheadId indent_lookahead = kNoLookahead;
  LookaheadId dedent_lookahead = kNoLookahead;
  LookaheadId end_lookahead = kNoLookahead;
  LookaheadId ordinary_or_end = kNoLookahead;  // every terminal but the indenter's and closers
  // Per trie node: its weights' checks with the newline and the end of input taken apart (the
  // newline's width is free, the end needs the final _DEDENTs).
  struct IndentChecks {
    // The other terminals with the end of input as one check each, as without an indenter.
    std::vector<std::pair<LookaheadId, TokenSetId>> plain;
    TokenSetId newline;  // the weights whose end fork can produce the newline next
    TokenSetId end;      // the weights whose end fork can end the input (then final _DEDENTs)
  };
  std::vector<IndentChecks> indent_checks;
  std::vector<std::uint8_t> closes_below;  // per trie node: closing brackets on a path below
  std::vector<char> newline_below;         // per trie node: a newline label on a path below
  std::vector<std::int8_t> label_bracket;  // per lexer terminal: +1 open, -1 close, 0
  ConcurrentArrayInterner<std::uint32_t> indented_conts;     // IndentedContinuation records
  ConcurrentArrayInterner<std::uint32_t> condition_atoms;    // {kind | text kind | index, value}
  ConcurrentArrayInterner<std::uint32_t> condition_sets;     // ascending atom ids
  ConcurrentArrayInterner<std::uint32_t> conditional_works;  // see kConditionalWork

  // Guarded work is rare (grammars with skippable terminals), so one lock covers its tables.
  tbb::spin_mutex guarded_mutex;
  tbb::concurrent_vector<std::vector<Group>> group_lists{std::vector<Group>{}};  // id 0: none
  std::unordered_map<std::vector<std::uint32_t>, GroupListId, ItemsHash> group_list_ids;
  tbb::concurrent_vector<std::pair<ItemSetId, GroupListId>> guarded_work;
  FlatU64Map guarded_work_ids;  // (item set, group list) -> index

  // A Parser DWA state is suspended work; the numbering here is provisional (it follows which
  // worker got there first) until ParserDwaBuilder renumbers the states canonically.
  tbb::spin_mutex states_mutex;
  BasicFlatU64Map<DwaStateId> state_ids;  // work -> state
  tbb::concurrent_vector<WorkId> states;

  ItemSetId items_of(WorkId work) const {
    if ((work & kConditionalWork) != 0) work = conditional_works[work & ~kConditionalWork][0];
    return (work & kGuardedWork) != 0 ? guarded_work[work & ~kGuardedWork].first : work;
  }
  GroupListId groups_of(WorkId work) const {
    if ((work & kConditionalWork) != 0) work = conditional_works[work & ~kConditionalWork][0];
    return (work & kGuardedWork) != 0 ? guarded_work[work & ~kGuardedWork].second : 0;
  }
  DwaStateId state_for(WorkId work) {
    const std::lock_guard lock(states_mutex);
    const auto [state, added] =
        state_ids.find_or_insert(work, DwaStateId{static_cast<std::uint32_t>(states.size())});
    if (added) {
      states.push_back(work);
      if (options.max_states != 0 && states.size() > options.max_states) {
        throw Error(fmt::format("wfa: the Parser DWA needs more than {} states (limit "
                                "Limits::max_parser_dwa_states)",
                                options.max_states),
                    ErrorCode::kLimit);
      }
    }
    return state;
  }

  // Live transitions found by all workers so far, added in batches (see charge_transitions).
  std::atomic<std::uint64_t> transitions_found{0};
};

// How the workers divide the transitions: each LR state read belongs to one worker, which keeps
// the memo tables of that read (they stay in its cache, and no other thread touches them), and
// requests for a read owned elsewhere travel through that worker's inbox.
struct ParserDwaSchedule {
  explicit ParserDwaSchedule(std::size_t workers) : inboxes(workers) {}

  struct alignas(64) Inbox {
    tbb::spin_mutex mutex;
    std::vector<Request> requests;
  };

  std::size_t owner(StateId read) const { return read % inboxes.size(); }

  std::deque<Inbox> inboxes;  // a deque: mutexes do not move
  // Requests made and not yet computed or dropped as duplicates; the build is over when no worker
  // has work and this is 0. A worker adds what its step requested before it subtracts the
  // request it computed, so the count cannot reach 0 while work is in flight.
  std::atomic<std::int64_t> outstanding{0};
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;

  void fail(std::exception_ptr e) {
    {
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::move(e);
    }
    stop = true;
  }
};

}  // namespace glrmask::mask::construction
