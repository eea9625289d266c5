#include "wfa/parser_dwa_builder.h"

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
#include "lexer/flat_u64_map.h"
#include "lexer/fork_ignored_ending.h"
#include "lib/core/error.h"
#include "lib/core/hash_mix.h"
#include "lib/core/process_memory.h"
#include "wfa/concurrent_array_interner.h"
#include "wfa/parser_dwa_analysis.h"
#include "wfa/shift_verdicts.h"
#include "wfa/virtual_stack.h"

namespace glrmask::wfa {

namespace {

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

std::uint32_t pack_text(lexer::IndentText text) {
  return static_cast<std::uint32_t>(text.kind) << 30 | text.width;
}
lexer::IndentText unpack_text(std::uint32_t packed) {
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
bool in_progress(const Outcome& outcome) {
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
  lexer::FlatU64Map guarded_work_ids;  // (item set, group list) -> index

  // A Parser DWA state is suspended work; the numbering here is provisional (it follows which
  // worker got there first) until ParserDwaBuilder renumbers the states canonically.
  tbb::spin_mutex states_mutex;
  lexer::BasicFlatU64Map<DwaStateId> state_ids;  // work -> state
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
                                "max_parser_dwa_states; raise it with --max-parser-dwa-states)",
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

LookaheadId intern_lookahead(ParserDwaShared& shared, std::vector<SymbolId> terminals) {
  std::sort(terminals.begin(), terminals.end());
  terminals.erase(std::unique(terminals.begin(), terminals.end()), terminals.end());
  return shared.lookaheads.intern(terminals, ItemsHash{}(terminals));
}

void compute_predecessors(ParserDwaShared& shared) {
  const glr::LrTable& table = shared.table;
  const std::uint32_t n = table.num_states();
  shared.predecessors.assign(n, {});
  std::vector<char> first(n, 0);
  first[0] = 1;
  for (StateId x = 0; x < n; ++x) {
    for (std::uint32_t cell = table.row_begin(x); cell < table.row_end(x); ++cell) {
      for (const glr::Action action : table.cell_actions(cell)) {
        if (!action.is_shift()) continue;
        shared.predecessors[action.target()].push_back(x);
        first[action.target()] = 1;
      }
    }
    for (const glr::LrTable::GotoEntry& entry : table.gotos(x))
      shared.predecessors[entry.target].push_back(x);
  }
  for (std::vector<StateId>& list : shared.predecessors) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  for (StateId x = 0; x < n; ++x)
    if (first[x] != 0) shared.first_reads.push_back(x);
}

// Which first reads each fork's start state needs. A start state reading x feeds the terminals
// its fork can produce first (its root's labels and checks, past ignored labels, and the end of
// input where it can finish) on a stack with x on top; where the shift verdict of every one of
// them is "never", the run dies at x (after suspended reductions that die too), so the read
// is not requested at all. Without this the construction expands every fork on every state a
// shift enters: forks times states, where an object with n keys has about n of each
// (docs/wfa.md, "Construction", 7). Not for grammars with an indenter (their feeds also depend
// on the virtual indentation) or skippable terminals (always takeable in a check).
void compute_start_reads(ParserDwaShared& shared) {
  const lexer::TerminalDwa& dwa = shared.dwa;
  const lexer::LexerDfa& dfa = dwa.dfa();
  if (shared.grammar.indenter() != nullptr || !shared.grammar.skippable_terminals().empty()) return;
  const std::uint32_t num_symbols = shared.table.num_terminals();  // with the end of input
  // Per terminal: the first reads whose verdict on it is not "never".
  std::vector<std::vector<StateId>> reads_of(num_symbols);
  for (const StateId x : shared.first_reads)
    for (std::uint32_t cell = shared.table.row_begin(x); cell < shared.table.row_end(x); ++cell)
      if (shared.verdicts->cell_verdict(cell) != ShiftVerdict::kNever)
        reads_of[shared.table.cell_terminal(cell)].push_back(x);
  std::vector<std::uint32_t> terminal_seen(num_symbols, 0);
  std::vector<std::uint32_t> node_seen(dwa.num_nodes(), 0);
  std::vector<std::uint32_t> read_seen(shared.table.num_states(), 0);
  std::vector<SymbolId> terminals;
  std::vector<lexer::DwaNodeId> nodes;
  shared.start_reads.assign(dwa.num_forks(), {});
  for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    const std::uint32_t stamp = fork + 1;
    terminals.clear();
    auto add = [&](SymbolId t) {
      if (terminal_seen[t] != stamp) {
        terminal_seen[t] = stamp;
        terminals.push_back(t);
      }
    };
    if (dwa.can_finish(fork)) add(shared.end_of_input);
    nodes.assign(1, dwa.root(fork));
    node_seen[dwa.root(fork)] = stamp;
    while (!nodes.empty()) {
      const lexer::DwaNodeId node = nodes.back();
      nodes.pop_back();
      for (const auto& [lookahead, tokens] : shared.checks[node])
        for (const SymbolId t : shared.lookaheads[lookahead]) add(t);
      for (const lexer::DwaEdge& edge : dwa.edges(node)) {
        bool past = dfa.label_is_ignored(edge.label);  // the label may be skipped
        for (const std::uint32_t t : dfa.label_terminals(edge.label)) {
          if (dfa.terminals()[t].ignored) {
            past = true;
          } else {
            add(t);
          }
        }
        if (past && node_seen[edge.child] != stamp) {
          node_seen[edge.child] = stamp;
          nodes.push_back(edge.child);
        }
      }
    }
    std::vector<StateId>& reads = shared.start_reads[fork];
    for (const SymbolId t : terminals)
      for (const StateId x : reads_of[t])
        if (read_seen[x] != stamp) {
          read_seen[x] = stamp;
          reads.push_back(x);
        }
    std::sort(reads.begin(), reads.end());
  }
}

void require_single_stack_for_skippables(const ParserDwaShared& shared) {
  const glr::CompiledGrammar& grammar = shared.grammar;
  const glr::LrTable& table = shared.table;
  if (grammar.skippable_terminals().empty()) return;
  const std::string skippable =
      grammar.grammar().terminals()[grammar.skippable_terminals().front()].name;
  const auto terminal_name = [&](SymbolId terminal) {
    return terminal < grammar.grammar().terminals().size()
               ? grammar.grammar().terminals()[terminal].name
               : std::string("$END");
  };
  const auto refuse = [&](const std::string& fork) {
    throw Error(
        fmt::format(
            "wfa: the skippable terminal '{}' is dropped only when no stack can shift it, a "
            "condition "
            "over all stacks together, but the Parser DWA decides it per stack; the two agree only "
            "when the session never holds two stacks, and {} (use --policy lark, or the spanner "
            "engine)",
            skippable, fork),
        ErrorCode::kUnsupported);
  };
  for (StateId state = 0; state < table.num_states(); ++state)
    for (std::uint32_t cell = table.row_begin(state); cell < table.row_end(state); ++cell)
      if (table.cell_actions(cell).size() > 1)
        refuse(fmt::format("LR state {} forks on terminal '{}'", state,
                           terminal_name(table.cell_terminal(cell))));
  const lexer::LexerDfa& dfa = shared.dwa.dfa();
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    const std::span<const std::uint32_t> tie = dfa.label_terminals(label);
    if (tie.size() > 1)
      refuse(fmt::format("the lexer emits a tie between '{}' and '{}'",
                         dfa.terminals()[tie[0]].name, dfa.terminals()[tie[1]].name));
  }
}

// Calls visit(node) for every node of the Terminal DWA's trie, each after all of its children
// (post-order from every root), so a visit may read what the children's visits wrote. Without
// recursion: a trie path is as long as the longest token.
template <class Visit>
void for_each_node_children_first(const lexer::TerminalDwa& dwa, Visit visit) {
  std::vector<char> done(dwa.num_nodes(), 0);
  std::vector<std::pair<lexer::DwaNodeId, bool>> stack;
  for (lexer::DwaNodeId root = 0; root < dwa.num_nodes(); ++root) {
    if (done[root] != 0) continue;
    stack.emplace_back(root, false);
    while (!stack.empty()) {
      const auto [node, children_done] = stack.back();
      stack.pop_back();
      if (done[node] != 0) continue;
      if (!children_done) {
        stack.emplace_back(node, true);
        for (const lexer::DwaEdge& edge : dwa.edges(node))
          if (done[edge.child] == 0) stack.emplace_back(edge.child, false);
        continue;
      }
      visit(node);
      done[node] = 1;
    }
  }
}

// The tables every worker reads, computed once before they start: per trie node the tokens of
// its subtrie and its weights' checks, per fork what its start can accept, per label the lookahead
// it feeds when that does not depend on the stack.
void precompute_node_tables(ParserDwaShared& shared, TokenSetPool& pool) {
  const lexer::TerminalDwa& dwa = shared.dwa;
  shared.subtrie_tokens.assign(dwa.num_nodes(), TokenSetPool::empty());
  for_each_node_children_first(dwa, [&](lexer::DwaNodeId node) {
    TokenSetId tokens = TokenSetPool::empty();
    for (const lexer::DwaWeight& weight : dwa.weights(node))
      tokens = pool.unite(tokens, weight.tokens);
    for (const lexer::DwaEdge& edge : dwa.edges(node))
      tokens = pool.unite(tokens, shared.subtrie_tokens[edge.child]);
    shared.subtrie_tokens[node] = tokens;
  });
  shared.start_pending.resize(dwa.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork)
    shared.start_pending[fork] = pool.unite(shared.subtrie_tokens[dwa.root(fork)], shared.eos);

  shared.checks.resize(dwa.num_nodes());
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    std::vector<std::pair<LookaheadId, TokenSetId>>& list = shared.checks[node];
    for (const lexer::DwaWeight& weight : dwa.weights(node)) {
      const std::span<const std::uint32_t> next = dwa.next_terminals(weight.end);
      std::vector<SymbolId> terminals(next.begin(), next.end());
      if (dwa.can_finish(weight.end) || shared.ends_through_ignored[weight.end] != 0)
        terminals.push_back(shared.end_of_input);
      if (terminals.empty()) continue;
      const LookaheadId lookahead = intern_lookahead(shared, std::move(terminals));
      const auto same = std::find_if(list.begin(), list.end(),
                                     [&](const auto& entry) { return entry.first == lookahead; });
      if (same != list.end()) {
        same->second = pool.unite(same->second, weight.tokens);
      } else {
        list.emplace_back(lookahead, weight.tokens);
      }
    }
  }

  // A label's lookahead when its feed is a plain shift; kNoLookahead for ignored or skippable
  // terminals, whose handling depends on the stacks (IncrementalRecognizer::feed_token).
  const lexer::LexerDfa& dfa = dwa.dfa();
  shared.plain_lookaheads.assign(dfa.num_labels(), kNoLookahead);
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    if (dfa.label_is_ignored(label)) continue;
    std::vector<SymbolId> terminals;
    bool plain = true;
    for (const std::uint32_t terminal : dfa.label_terminals(label)) {
      if (dfa.terminals()[terminal].ignored || shared.grammar.is_skippable(terminal)) {
        plain = false;
        break;
      }
      terminals.push_back(terminal);
    }
    if (plain && !terminals.empty())
      shared.plain_lookaheads[label] = intern_lookahead(shared, std::move(terminals));
  }
}

// Grammars with an indenter: what the construction needs besides the plain tables (docs/wfa.md,
// "Indenter"). Refuses what the construction does not cover: skippable terminals (their "no stack
// shifts it" rule and the indenter's branches are not combined), a Terminal DWA built without
// indent labels, and rules whose brackets do not pair up (the parser then decides every closing
// bracket: a stack that shifts one holds its opening bracket, so a closer never meets depth 0).
void prepare_indenter(ParserDwaShared& shared) {
  const glr::CompiledGrammar& grammar = shared.grammar;
  const glr::IndenterSpec& spec = *grammar.indenter();
  shared.indenter = &spec;
  if (!grammar.skippable_terminals().empty())
    throw Error(fmt::format(
        "wfa: a grammar with a post-lexer (--postlex {}) and skippable terminals is not supported",
        glr::post_lexer_name(grammar.options().postlex)));
  if (!shared.dwa.indent_labeling() ||
      shared.dwa.indent_labeling()->newline_terminal != spec.newline ||
      shared.dwa.indent_labeling()->tab_len != spec.tab_len)
    throw Error(
        "wfa: the Terminal DWA was built without the indent labels of the grammar's indenter");
  const glr::LrGrammar& lr = grammar.lalr().grammar();
  for (glr::RuleId rule = 0; rule < lr.num_rules(); ++rule) {
    int depth = 0;
    for (const SymbolId symbol : lr.rhs(rule)) {
      if (spec.is_open(symbol)) ++depth;
      if (spec.is_close(symbol) && --depth < 0) break;
    }
    if (depth != 0)
      throw Error(fmt::format(
          "wfa: rule {} ({}) does not pair its brackets; the indenter's bracket depth is then "
          "not what the parser's stacks hold, which the construction relies on",
          lr.rule_text(rule), lr.origin(rule)));
    // The walk reads the indentation levels off the stack's _INDENT frames (docs/indenter.md,
    // "The invariant"): a rule holds _INDENT and _DEDENT as a pair or not at all, with _DEDENT
    // last, so shifting a _DEDENT is followed by the reduction that pops its frame.
    const auto rhs = lr.rhs(rule);
    const auto indents = std::count(rhs.begin(), rhs.end(), spec.indent);
    const auto dedents = std::count(rhs.begin(), rhs.end(), spec.dedent);
    if (indents != dedents || indents > 1 || (dedents == 1 && rhs.back() != spec.dedent))
      throw Error(fmt::format(
          "wfa: rule {} ({}) does not hold _INDENT ... _DEDENT as a pair ending the rule; the "
          "stack's _INDENT frames are then not the indenter's levels, which the construction "
          "relies on",
          lr.rule_text(rule), lr.origin(rule)));
  }
  const glr::Lr0Automaton& lr0 = grammar.lalr().lr0();
  const std::uint32_t states = shared.table.num_states();
  shared.indent_frame.assign(states, 0);
  shared.dedent_state.assign(states, 0);
  for (StateId x = 0; x < states; ++x) {
    shared.indent_frame[x] = lr0.accessing_symbol(x) == spec.indent;
    shared.dedent_state[x] = lr0.accessing_symbol(x) == spec.dedent;
  }
  shared.newline_lookahead = intern_lookahead(shared, {spec.newline});
  shared.indent_lookahead = intern_lookahead(shared, {spec.indent});
  shared.dedent_lookahead = intern_lookahead(shared, {spec.dedent});
  shared.end_lookahead = intern_lookahead(shared, {shared.end_of_input});
  const lexer::LexerDfa& dfa = shared.dwa.dfa();
  std::vector<SymbolId> ordinary;
  shared.label_bracket.assign(dfa.terminals().size(), 0);
  for (SymbolId t = 0; t < dfa.terminals().size(); ++t) {
    shared.label_bracket[t] = spec.is_open(t) ? 1 : spec.is_close(t) ? -1 : 0;
    if (t == spec.newline || spec.is_produced(t) || spec.is_close(t) || dfa.terminals()[t].ignored)
      continue;
    ordinary.push_back(t);
  }
  ordinary.push_back(shared.end_of_input);
  shared.ordinary_or_end = intern_lookahead(shared, std::move(ordinary));

  // Labels whose feed changes the context are not plain lookaheads.
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    for (const std::uint32_t terminal : dfa.label_terminals(label))
      if (terminal == spec.newline || shared.label_bracket[terminal] != 0)
        shared.plain_lookaheads[label] = kNoLookahead;
  }

  const lexer::TerminalDwa& dwa = shared.dwa;
  shared.indent_checks.resize(dwa.num_nodes());
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    ParserDwaShared::IndentChecks& checks = shared.indent_checks[node];
    for (const lexer::DwaWeight& weight : dwa.weights(node)) {
      std::vector<SymbolId> plain;
      for (const std::uint32_t t : dwa.next_terminals(weight.end)) {
        if (t == spec.newline) {
          checks.newline = shared.pool.unite(checks.newline, weight.tokens);
        } else {
          plain.push_back(t);
        }
      }
      if (dwa.can_finish(weight.end) || shared.ends_through_ignored[weight.end] != 0) {
        checks.end = shared.pool.unite(checks.end, weight.tokens);
        plain.push_back(shared.end_of_input);
      }
      if (plain.empty()) continue;
      const LookaheadId lookahead = intern_lookahead(shared, std::move(plain));
      const auto same = std::find_if(checks.plain.begin(), checks.plain.end(),
                                     [&](const auto& entry) { return entry.first == lookahead; });
      if (same != checks.plain.end()) {
        same->second = shared.pool.unite(same->second, weight.tokens);
      } else {
        checks.plain.emplace_back(lookahead, weight.tokens);
      }
    }
  }
  shared.closes_below.assign(dwa.num_nodes(), 0);
  shared.newline_below.assign(dwa.num_nodes(), 0);
  for_each_node_children_first(dwa, [&](lexer::DwaNodeId node) {
    int closes = 0;
    bool newline = false;
    for (const lexer::DwaEdge& edge : dwa.edges(node)) {
      bool closer = false;
      for (const std::uint32_t t : dwa.label_terminals(edge.label)) {
        closer = closer || shared.label_bracket[t] < 0;
        newline = newline || t == spec.newline;
      }
      closes = std::max(closes, (closer ? 1 : 0) + shared.closes_below[edge.child]);
      newline = newline || shared.newline_below[edge.child] != 0;
    }
    shared.closes_below[node] = static_cast<std::uint8_t>(std::min(closes, 100));
    shared.newline_below[node] = newline ? 1 : 0;
  });
}

// A session's configuration with an accepted lexeme enters the Terminal DWA twice: the lexeme
// going on, and its label committed with the bytes after it lexed again, in a fork inhibited by
// the configuration's state (lexer_fork.h). At a token boundary right after the lexeme (nothing
// pending: the most common case by far, e.g. after an identifier) that fork is the start state
// with inhibitors, and the DWA records the same (label, fork) wherever one token ends just after
// such a lexeme: an edge on the label into a node with a weight ending in that fork. Those pairs
// get start states. Forks with bytes pending after the lexeme would add states for rare steps;
// such entries, like any the DWA never recorded, are fed to the parser at get_mask time.
std::vector<std::pair<lexer::LabelId, lexer::ForkId>> early_label_pairs(
    const lexer::TerminalDwa& dwa) {
  std::vector<std::pair<lexer::LabelId, lexer::ForkId>> pairs;
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    for (const lexer::DwaEdge& edge : dwa.edges(node)) {
      for (const lexer::DwaWeight& weight : dwa.weights(edge.child))
        if (!dwa.fork(weight.end).inhibitors.empty() && dwa.can_finish(weight.end))
          pairs.emplace_back(lexer::base_label(edge.label), weight.end);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// One thread of the construction. It computes the transitions of the reads it owns
// (ParserDwaSchedule::owner), with memo tables, virtual stacks, item ids and action splits of its
// own; what identifies a state's content goes through ParserDwaShared.
class ParserDwaWorker {
 public:
  ParserDwaWorker(ParserDwaShared& shared, ParserDwaSchedule& schedule, std::size_t index);

  // Interns the start states and requests their first transitions (worker 0, before the others
  // start); fills the result's start states.
  void seed(std::vector<DwaStateId>& start_states, std::vector<EarlyStart>& early_starts);
  // Computes requests until no worker has any left, or another one failed.
  void run();

  std::vector<FoundTransition>& found() { return found_; }
  std::vector<ParserDwaBranch>& found_branches() { return found_branches_; }
  std::size_t max_virtual_depth() const { return max_virtual_depth_; }
  std::size_t feed_memo_entries() const;
  std::size_t expand_memo_entries() const;

 private:
  // Accumulates outcomes; items and accepted tokens are merged at the end (accepted() unites the
  // parts once, instead of interning every partial union along the way).
  // Work that holds only where the conditions of `set` hold (grammars with an indenter).
  struct ConditionalPart {
    ConditionSetId set = 0;
    TokenSetId accepted;
    WorkId work = 0;  // plain or guarded
  };
  struct Collector {
    boost::container::small_vector<TokenSetId, 8> accepted_parts;
    boost::container::small_vector<Item, 8> items;
    std::vector<Group> groups;
    std::vector<ConditionalPart> conditionals;
  };

  // The tokens a continuation can still accept; an item whose tokens the current transition
  // already accepts cannot add anything below and is dropped.
  TokenSetId pending(std::uint32_t cont) const;
  // Sort and deduplicate in place, then intern (scratch vectors avoid an allocation per lookup).
  ItemSetId intern_items(std::span<Item> items);
  GroupListId intern_groups(std::vector<Group>& groups);
  WorkId make_work(ItemSetId items, GroupListId groups);
  const std::vector<Item>& item_set(ItemSetId id) const { return shared_.item_sets[id]; }
  const std::vector<SymbolId>& lookahead_terminals(LookaheadId id) const {
    return shared_.lookaheads[id];
  }
  Outcome finish(Collector& collector);
  TokenSetId accepted(Collector& collector);
  void merge(Collector& into, const Outcome& outcome);
  // Adds `outcome` as work valid only while every guard in `guards` fails to shift.
  void merge_guarded(Collector& into, const std::vector<ItemSetId>& guards, const Outcome& outcome);
  // The drop branch of a skippable terminal whose shiftability the top state cannot decide.
  void drop_skippable(Collector& into, SymbolId terminal, std::uint32_t child,
                      VirtualStackId stack);
  // Resumes every item of `items` on the LR state `read`, into `into`.
  void advance(Collector& into, ItemSetId items, StateId read);

  Outcome expand(std::uint32_t cont, VirtualStackId stack);
  // Feeds a label of the lexer as the session does (IncrementalRecognizer::feed_token): its
  // terminals as alternatives, an ignored tie skipped, a skippable terminal shifted or dropped by
  // the stack; then goes on at `child`.
  void feed_label(Collector& into, lexer::LabelId label, std::uint32_t child, VirtualStackId stack);
  Outcome feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack);
  LookaheadId intern_lookahead(std::span<SymbolId> terminals);
  LookaheadId intern_lookahead(std::initializer_list<SymbolId> terminals) {
    std::vector<SymbolId> copy(terminals);
    return intern_lookahead(std::span<SymbolId>(copy));
  }
  const ActionSplit& action_split(LookaheadId lookahead, StateId top);
  // kCheckSucceeds, kCheckFails, or the lookahead still open (for a guard: is_guard).
  std::uint32_t check_at_top(LookaheadId lookahead, StateId top, bool is_guard);
  Outcome step(const Item& item, std::uint32_t id, StateId read);
  bool decided_by(std::uint32_t cont, TokenSetId accepted);
  // Removes the items decided_by `accepted` (from a std::vector or a Collector's small_vector).
  template <class Items>
  void erase_decided(Items& items, TokenSetId accepted);
  std::uint32_t pair_id(std::uint32_t cont, LookaheadId lookahead);
  [[noreturn]] void throw_endless_reductions(LookaheadId lookahead) const;
  std::uint32_t item_id(const Item& item);
  std::pair<DwaStateId, TokenSetId> transition(DwaStateId state, StateId read);
  // What `work` yields on reading the LR state `read` below it.
  Outcome read_below(WorkId work, StateId read);
  Outcome expand_over(std::uint32_t cont, StateId target, VirtualStackId below);
  DwaStateId state_for(WorkId work);

  // ---- Grammars with an indenter (docs/wfa.md, "Indenter") ----
  bool indented() const { return shared_.indenter != nullptr; }
  IndentedContinuation record(std::uint32_t cont) const;
  std::uint32_t make_continuation(const IndentedContinuation& record);
  // Where a label leads in the trie (a node, or a fork's root), with the context after it; the
  // plain kNode / kStart for the neutral context.
  std::uint32_t trie_continuation(bool root, std::uint32_t id, IndentCtx ctx);
  ConditionSetId condition(ConditionKind kind, lexer::IndentText text, std::uint32_t value);
  ConditionSetId conjoin(ConditionSetId a, ConditionSetId b);
  // Adds `outcome` as work that holds only where `set` holds.
  void merge_conditional(Collector& into, ConditionSetId set, const Outcome& outcome);
  // The continuation's tokens are left to get_mask, which tries them on the session.
  void defer(Collector& into, std::uint32_t cont);
  // The work of a conditional WorkId.
  struct ConditionalWork {
    WorkId work = 0;  // the unconditional part: plain or guarded
    std::vector<ConditionalPart> parts;
  };
  // Work without the items `all` already decides and without tokens it already accepts.
  WorkId prune_work(WorkId work, TokenSetId all);
  // A check that does not depend on the tokens it accepts (payload full()), run as the guard of a
  // positive group holding `tokens`, or accepting them at once.
  void add_positive_check(Collector& into, const Outcome& check, TokenSetId tokens);
  ConditionalWork conditional_work(WorkId work) const;
  Outcome read_below_plain(WorkId work, StateId read);
  // expand() of a trie node or root (with the EOS check) in an indented build.
  void expand_trie(Collector& into, bool root, std::uint32_t id, IndentCtx ctx,
                   VirtualStackId stack);
  void expand_indented(Collector& into, const IndentedContinuation& record, VirtualStackId stack);
  void feed_label_indented(Collector& into, lexer::LabelId label, IndentCtx ctx, bool root,
                           std::uint32_t child, VirtualStackId stack);
  // A newline of the token, with its text, fed as the indenter feeds it.
  void feed_newline(Collector& into, lexer::IndentText text, IndentCtx ctx, bool root,
                    std::uint32_t child, VirtualStackId stack);
  // "Can a newline of free width come next?" for a weight's tokens.
  void newline_check(Collector& into, IndentCtx ctx, TokenSetId tokens, VirtualStackId stack);
  // Feeds a _DEDENT for a newline of width `text`, deciding now (the _INDENT frame it closes is
  // the state read) or where the frame is read.
  void feed_dedent(Collector& into, std::uint32_t text, std::uint32_t next, VirtualStackId stack);
  std::uint32_t dedent_continuation(DedentMode mode, std::uint32_t text, std::uint32_t next);

  // Asks for the transitions of `state` on `reads`; returns how many requests were new here
  // (those for another worker's reads are counted new: their owner drops duplicates).
  std::size_t request(DwaStateId state, std::span<const StateId> reads);
  // Queues a request for one of this worker's reads unless it was made before.
  bool enqueue(const Request& request);
  void flush_outboxes();
  void drain_inbox();
  // Computes every queued request of one read.
  void compute_read(StateId read);

  ParserDwaShared& shared_;
  ParserDwaSchedule& schedule_;
  std::size_t index_;
  const glr::LrTable& table_;
  const lexer::TerminalDwa& dwa_;

  VirtualStackPool stacks_;
  std::vector<Item> scratch_items_;
  std::vector<SymbolId> scratch_terminals_;
  std::vector<std::uint32_t> scratch_flat_groups_;
  std::vector<const RoaringBitmap*> scratch_bitmaps_;
  // Per item set, item_id() of each item: resuming a set is then one memo lookup per item.
  std::vector<std::vector<std::uint32_t>> item_ids_of_sets_;
  // Memo tables, keyed by packed 64-bit words: (continuation, lookahead) pairs and items get
  // dense ids first so that every key fits.
  lexer::FlatU64Map pair_ids_;  // (cont, lookahead) -> id
  lexer::FlatU64Map item_ids_;  // (pair id, pops, lhs) -> id
  // Per bottom state of the stack: every stack a step builds keeps the state it read at the
  // bottom, so while the worklist runs one read these tables stay in cache.
  std::vector<lexer::BasicFlatU64Map<Outcome>> feed_memos_;    // (pair id, stack)
  std::vector<lexer::BasicFlatU64Map<Outcome>> expand_memos_;  // (cont, stack)
  // Per LR state read: item id -> outcome. The worklist runs the transitions of one read
  // together, so that read's table stays in cache.
  std::vector<lexer::BasicFlatU64Map<Outcome>> step_memos_;
  std::deque<ActionSplit> splits_;  // a deque: feed() holds references across calls
  lexer::FlatU64Map split_ids_;     // (lookahead, top) -> index in splits_
  // check_at_top() answers, at [(2 * lookahead + is_guard) * LR states + top]; kNotComputed
  // where not asked yet. Slots past kDenseCheckSlots go to the map: lookaheads times states
  // grows as the square of an object schema's keys, and few of its slots are ever asked.
  static constexpr std::size_t kDenseCheckSlots = std::size_t{1} << 24;
  std::vector<std::uint32_t> checks_at_top_;
  lexer::FlatU64Map sparse_checks_at_top_;
  lexer::FlatU64Map decided_memo_;     // (pending tokens, accepted) -> decided_by()
  lexer::FlatU64Map known_item_sets_;  // content hash -> item set this worker interned or met
  lexer::BasicFlatU64Map<DwaStateId> known_states_;  // work -> state, as met by this worker
  std::size_t max_virtual_depth_ = 0;

  lexer::FlatU64Map requested_;                           // (state, read) asked of this worker
  std::vector<std::vector<DwaStateId>> pending_by_read_;  // states to expand, per owned read
  std::vector<StateId> reads_with_work_;        // reads whose bucket was empty when work arrived
  std::vector<std::vector<Request>> outboxes_;  // per worker, not yet in its inbox
  std::vector<Request> inbox_scratch_;
  std::vector<FoundTransition> found_;
  std::vector<ParserDwaBranch> found_branches_;  // conditions as condition sets, states provisional

  // The budgets of ParserDwaOptions: every kBudgetBatch transitions computed, this worker's new
  // live ones are added to the shared count and the limits are checked.
  void charge_transition(bool live);
  static constexpr std::uint32_t kBudgetBatch = 4096;
  std::uint32_t computed_since_check_ = 0;
  std::uint64_t live_since_check_ = 0;
};

constexpr std::uint32_t kNotComputed = 0xffffffffu;

ParserDwaWorker::ParserDwaWorker(ParserDwaShared& shared, ParserDwaSchedule& schedule,
                                 std::size_t index)
    : shared_(shared),
      schedule_(schedule),
      index_(index),
      table_(shared.table),
      dwa_(shared.dwa),
      feed_memos_(shared.table.num_states(), lexer::BasicFlatU64Map<Outcome>(16)),
      expand_memos_(shared.table.num_states(), lexer::BasicFlatU64Map<Outcome>(16)),
      step_memos_(shared.table.num_states(), lexer::BasicFlatU64Map<Outcome>(16)),
      pending_by_read_(shared.table.num_states()),
      outboxes_(schedule.inboxes.size()) {}

std::size_t ParserDwaWorker::feed_memo_entries() const {
  std::size_t entries = 0;
  for (const lexer::BasicFlatU64Map<Outcome>& memo : feed_memos_) entries += memo.size();
  return entries;
}

std::size_t ParserDwaWorker::expand_memo_entries() const {
  std::size_t entries = 0;
  for (const lexer::BasicFlatU64Map<Outcome>& memo : expand_memos_) entries += memo.size();
  return entries;
}

ItemSetId ParserDwaWorker::intern_items(std::span<Item> items) {
  if (items.empty()) return 0;
  std::sort(items.begin(), items.end());
  scratch_items_.assign(items.begin(), std::unique(items.begin(), items.end()));
  // Most sets were interned before, often by this worker: its own index answers those without
  // touching the shared tables (whose locks and lines the workers would otherwise trade).
  const std::uint64_t hash = ItemsHash{}(scratch_items_);
  if (const std::uint32_t* known = known_item_sets_.find(hash);
      known != nullptr && std::ranges::equal(item_set(*known), scratch_items_))
    return *known;
  const ItemSetId id = shared_.item_sets.intern(scratch_items_, hash);
  if (hash != lexer::FlatU64Map::kVacant) known_item_sets_.find_or_insert(hash, id);
  return id;
}

DwaStateId ParserDwaWorker::state_for(WorkId work) {
  if (const DwaStateId* known = known_states_.find(work)) return *known;
  const DwaStateId state = shared_.state_for(work);
  known_states_.find_or_insert(work, state);
  return state;
}

GroupListId ParserDwaWorker::intern_groups(std::vector<Group>& groups) {
  // Canonical form: groups with the same guards merged, sorted by guards, empty ones dropped.
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return std::tie(a.positive, a.guards) < std::tie(b.positive, b.guards);
  });
  std::vector<Group> merged;
  for (std::size_t i = 0; i < groups.size();) {
    Group group = groups[i];
    std::vector<Item> body(item_set(group.body));
    std::size_t j = i + 1;
    for (; j < groups.size() && groups[j].guards == group.guards &&
           groups[j].positive == group.positive;
         ++j) {
      group.held = shared_.pool.unite(group.held, groups[j].held);
      const std::vector<Item>& more = item_set(groups[j].body);
      body.insert(body.end(), more.begin(), more.end());
    }
    if (j > i + 1) group.body = intern_items(body);
    if (!group.held.is_empty() || group.body != 0) merged.push_back(std::move(group));
    i = j;
  }
  if (merged.empty()) return 0;
  scratch_flat_groups_.clear();
  for (const Group& group : merged) {
    scratch_flat_groups_.push_back(static_cast<std::uint32_t>(group.guards.size()) |
                                   (group.positive ? 0x80000000u : 0u));
    scratch_flat_groups_.insert(scratch_flat_groups_.end(), group.guards.begin(),
                                group.guards.end());
    scratch_flat_groups_.push_back(group.held.value());
    scratch_flat_groups_.push_back(group.body);
  }
  const std::lock_guard lock(shared_.guarded_mutex);
  if (const auto it = shared_.group_list_ids.find(scratch_flat_groups_);
      it != shared_.group_list_ids.end())
    return it->second;
  const auto id = static_cast<GroupListId>(shared_.group_lists.size());
  shared_.group_lists.push_back(std::move(merged));
  shared_.group_list_ids.emplace(scratch_flat_groups_, id);
  return id;
}

WorkId ParserDwaWorker::make_work(ItemSetId items, GroupListId groups) {
  if (groups == 0) return items;
  const std::lock_guard lock(shared_.guarded_mutex);
  const auto index = shared_.guarded_work_ids
                         .find_or_insert(std::uint64_t{items} << 32 | groups,
                                         static_cast<std::uint32_t>(shared_.guarded_work.size()))
                         .first;
  if (index == shared_.guarded_work.size()) shared_.guarded_work.emplace_back(items, groups);
  if (index >= kGuardedWork)
    throw Error("wfa: too many guarded Parser DWA configurations", ErrorCode::kLimit);
  return kGuardedWork | index;
}

TokenSetId ParserDwaWorker::accepted(Collector& collector) {
  auto& parts = collector.accepted_parts;
  if (parts.size() <= 1) return parts.empty() ? TokenSetPool::empty() : parts.front();
  const TokenSetId all = shared_.pool.unite_all({parts.data(), parts.size()}, scratch_bitmaps_);
  parts.assign(1, all);
  return all;
}

Outcome ParserDwaWorker::finish(Collector& collector) {
  const ItemSetId items = intern_items({collector.items.data(), collector.items.size()});
  const GroupListId groups = collector.groups.empty() ? 0 : intern_groups(collector.groups);
  const TokenSetId all = accepted(collector);
  const WorkId base = make_work(items, groups);
  if (collector.conditionals.empty()) return {all, base};
  // Conditional parts in canonical form: one per condition set, ascending, none empty.
  auto parts = std::move(collector.conditionals);
  collector.conditionals.clear();
  std::sort(parts.begin(), parts.end(),
            [](const ConditionalPart& a, const ConditionalPart& b) { return a.set < b.set; });
  std::vector<std::uint32_t> flat = {base};
  for (std::size_t i = 0; i < parts.size();) {
    std::size_t j = i;
    Collector part;
    for (; j < parts.size() && parts[j].set == parts[i].set; ++j)
      merge(part, {parts[j].accepted, parts[j].work});
    const Outcome merged = finish(part);
    if (!merged.accepted.is_empty() || merged.work != 0)
      flat.insert(flat.end(), {parts[i].set, merged.accepted.value(), merged.work});
    i = j;
  }
  if (flat.size() == 1) return {all, base};
  const std::uint32_t id = shared_.conditional_works.intern(flat, ItemsHash{}(flat));
  if (id >= kConditionalWork) throw Error("wfa: too many conditional Parser DWA configurations");
  return {all, kConditionalWork | id};
}

ParserDwaWorker::ConditionalWork ParserDwaWorker::conditional_work(WorkId work) const {
  ConditionalWork result;
  if ((work & kConditionalWork) == 0) {
    result.work = work;
    return result;
  }
  const std::vector<std::uint32_t>& flat = shared_.conditional_works[work & ~kConditionalWork];
  result.work = flat[0];
  for (std::size_t i = 1; i + 2 < flat.size(); i += 3)
    result.parts.push_back({flat[i], TokenSetId{flat[i + 1]}, flat[i + 2]});
  return result;
}

void ParserDwaWorker::merge_conditional(Collector& into, ConditionSetId set,
                                        const Outcome& outcome) {
  if (set == 0) {
    merge(into, outcome);
    return;
  }
  const ConditionalWork work = conditional_work(outcome.work);
  if (!outcome.accepted.is_empty() || work.work != 0)
    into.conditionals.push_back({set, outcome.accepted, work.work});
  for (const ConditionalPart& part : work.parts)
    into.conditionals.push_back({conjoin(set, part.set), part.accepted, part.work});
}

void ParserDwaWorker::add_positive_check(Collector& into, const Outcome& check, TokenSetId tokens) {
  if (tokens.is_empty()) return;
  if (!check.accepted.is_empty()) {
    into.accepted_parts.push_back(tokens);
  } else if (check.work != 0) {
    into.groups.push_back({{shared_.items_of(check.work)}, tokens, 0, true});
  }
}

WorkId ParserDwaWorker::prune_work(WorkId work, TokenSetId all) {
  if (work == 0 || all.is_empty()) return work;
  Collector rest;
  merge(rest, {TokenSetPool::empty(), work});
  erase_decided(rest.items, all);
  for (Group& group : rest.groups) {
    group.held = shared_.pool.subtract(group.held, all);
    if (group.positive) continue;
    std::vector<Item> body(item_set(group.body));
    erase_decided(body, all);
    group.body = intern_items(body);
  }
  return finish(rest).work;
}

void ParserDwaWorker::defer(Collector& into, std::uint32_t cont) {
  const TokenSetId tokens = pending(cont);
  if (!tokens.is_empty())
    into.conditionals.push_back({condition(ConditionKind::kDeferred, {}, 0), tokens, 0});
}

ConditionSetId ParserDwaWorker::condition(ConditionKind kind, lexer::IndentText text,
                                          std::uint32_t value) {
  const std::uint32_t record[2] = {
      static_cast<std::uint32_t>(kind) | static_cast<std::uint32_t>(text.kind) << 8,
      kind == ConditionKind::kDepthIs || kind == ConditionKind::kDepthAbove ? value : text.width};
  const std::uint32_t atom = shared_.condition_atoms.intern(record, ItemsHash{}(record));
  return shared_.condition_sets.intern({&atom, 1},
                                       ItemsHash{}(std::span<const std::uint32_t>(&atom, 1)));
}

ConditionSetId ParserDwaWorker::conjoin(ConditionSetId a, ConditionSetId b) {
  if (a == 0 || a == b) return b;
  if (b == 0) return a;
  const std::vector<std::uint32_t>& left = shared_.condition_sets[a];
  const std::vector<std::uint32_t>& right = shared_.condition_sets[b];
  std::vector<std::uint32_t> both;
  std::set_union(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(both));
  return shared_.condition_sets.intern(both, ItemsHash{}(both));
}

IndentedContinuation ParserDwaWorker::record(std::uint32_t cont) const {
  const std::vector<std::uint32_t>& words = shared_.indented_conts[payload_of(cont)];
  return {static_cast<IndentedType>(words[0]), words[1], words[2], words[3], words[4], words[5]};
}

std::uint32_t ParserDwaWorker::make_continuation(const IndentedContinuation& r) {
  const std::uint32_t words[6] = {static_cast<std::uint32_t>(r.type), r.a, r.b, r.c, r.ctx, r.text};
  const std::uint32_t id = shared_.indented_conts.intern(words, ItemsHash{}(words));
  if (id >= kPayloadLimit) throw Error("wfa: too many Parser DWA continuations");
  return continuation(ContinuationKind::kIndented, id);
}

std::uint32_t ParserDwaWorker::trie_continuation(bool root, std::uint32_t id, IndentCtx ctx) {
  const lexer::DwaNodeId node = root ? dwa_.root(id) : id;
  // Only what can still matter below the node tells contexts apart: past the closing brackets
  // left, the depth stays above 0; without a newline label below, no second newline comes.
  const int closes = shared_.closes_below[node];
  if (ctx.net > closes) ctx = {closes + 1, true, ctx.newline_seen};
  if (shared_.newline_below[node] == 0) ctx.newline_seen = false;
  if (ctx.neutral())
    return continuation(root ? ContinuationKind::kStart : ContinuationKind::kNode, id);
  return make_continuation(
      {root ? IndentedType::kRoot : IndentedType::kTrie, id, 0, 0, ctx.pack(), 0});
}

std::uint32_t ParserDwaWorker::dedent_continuation(DedentMode mode, std::uint32_t text,
                                                   std::uint32_t next) {
  return make_continuation(
      {IndentedType::kDedent, next, static_cast<std::uint32_t>(mode), 0, 0, text});
}

void ParserDwaWorker::merge(Collector& into, const Outcome& outcome) {
  if (!outcome.accepted.is_empty()) into.accepted_parts.push_back(outcome.accepted);
  WorkId base = outcome.work;
  if ((outcome.work & kConditionalWork) != 0) {
    const ConditionalWork work = conditional_work(outcome.work);
    into.conditionals.insert(into.conditionals.end(), work.parts.begin(), work.parts.end());
    base = work.work;
  }
  const std::vector<Item>& items = item_set(shared_.items_of(base));
  into.items.insert(into.items.end(), items.begin(), items.end());
  if ((base & kGuardedWork) != 0) {
    const std::vector<Group>& groups = shared_.group_lists[shared_.groups_of(base)];
    into.groups.insert(into.groups.end(), groups.begin(), groups.end());
  }
}

void ParserDwaWorker::merge_guarded(Collector& into, const std::vector<ItemSetId>& guards,
                                    const Outcome& outcome) {
  into.groups.push_back({guards, outcome.accepted, shared_.items_of(outcome.work)});
  for (const Group& inner : shared_.group_lists[shared_.groups_of(outcome.work)]) {
    Group group = inner;
    group.guards.insert(group.guards.end(), guards.begin(), guards.end());
    std::sort(group.guards.begin(), group.guards.end());
    group.guards.erase(std::unique(group.guards.begin(), group.guards.end()), group.guards.end());
    into.groups.push_back(std::move(group));
  }
}

void ParserDwaWorker::drop_skippable(Collector& into, SymbolId terminal, std::uint32_t child,
                                     VirtualStackId stack) {
  // The session drops the terminal iff the stack cannot shift it. The virtual stack may already
  // decide that; otherwise the check stays pending as a guard that reads on down the real stack.
  const Outcome shiftable =
      feed(intern_lookahead({terminal}), continuation(ContinuationKind::kGuard, 0), stack);
  if (!shiftable.accepted.is_empty()) return;
  const Outcome dropped = expand(child, stack);
  if (shiftable.work == 0) {
    merge(into, dropped);
  } else {
    merge_guarded(into, {shiftable.work}, dropped);  // a check suspends plain items
  }
}

void ParserDwaWorker::advance(Collector& into, ItemSetId items, StateId read) {
  if (items == 0) return;
  if (items >= item_ids_of_sets_.size())
    item_ids_of_sets_.resize(std::max<std::size_t>(items + 1, item_ids_of_sets_.size() * 2));
  const std::vector<Item>& set = item_set(items);  // interned arrays never move
  std::vector<std::uint32_t>& ids = item_ids_of_sets_[items];
  if (ids.empty()) {
    ids.reserve(set.size());
    for (const Item& item : set) ids.push_back(item.pops > 0 ? 0 : item_id(item));
  }
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (set[i].pops == 0) step_memos_[read].prefetch(ids[i]);
  // An item feeding a _DEDENT whose _INDENT frame was not in its virtual stack decides, when it
  // reads that frame, whether the newline lands on the level below it (docs/wfa.md, "Indenter").
  const bool frame = indented() && shared_.indent_frame[read] != 0;
  // Indexing, not references into item_ids_of_sets_: step() may grow it.
  for (std::size_t i = 0; i < set.size(); ++i) {
    Item item = set[i];
    if (frame && kind_of(item.cont) == ContinuationKind::kIndented) {
      const IndentedContinuation r = record(item.cont);
      if (r.type == IndentedType::kDedent && static_cast<DedentMode>(r.b) == DedentMode::kPending) {
        // Lands here where the width equals the level below this frame. Going on needs no
        // condition: where the width is not below that level, the next frame read (whose level
        // below is lower still) lets neither way on through, and the automaton is exact anyway.
        Item last = item;
        last.cont = dedent_continuation(DedentMode::kLast, r.text, r.a);
        Item more = item;
        more.cont = dedent_continuation(DedentMode::kMore, r.text, r.a);
        const ConditionSetId landed = condition(ConditionKind::kFrameEqual, unpack_text(r.text), 0);
        if (item.pops > 0) {
          --last.pops;
          --more.pops;
          into.conditionals.push_back({landed, TokenSetPool::empty(), intern_items({&last, 1})});
          into.items.push_back(more);
        } else {
          merge_conditional(into, landed, step(last, item_id(last), read));
          merge(into, step(more, item_id(more), read));
        }
        continue;
      }
    }
    if (item.pops > 0) {
      --item.pops;
      into.items.push_back(item);
    } else {
      merge(into, step(item, item_ids_of_sets_[items][i], read));
    }
  }
}

LookaheadId ParserDwaWorker::intern_lookahead(std::span<SymbolId> terminals) {
  std::sort(terminals.begin(), terminals.end());
  scratch_terminals_.assign(terminals.begin(), std::unique(terminals.begin(), terminals.end()));
  const LookaheadId id =
      shared_.lookaheads.intern(scratch_terminals_, ItemsHash{}(scratch_terminals_));
  if ((id & kLabelItem) != 0)
    throw Error("wfa: more than 2^31 lookaheads in one Parser DWA build", ErrorCode::kLimit);
  return id;
}

const ActionSplit& ParserDwaWorker::action_split(LookaheadId lookahead, StateId top) {
  const auto [index, added] = split_ids_.find_or_insert(std::uint64_t{lookahead} << 32 | top,
                                                        static_cast<std::uint32_t>(splits_.size()));
  if (!added) return splits_[index];
  ActionSplit& split = splits_.emplace_back();
  boost::container::small_vector<
      std::pair<glr::RuleId, boost::container::small_vector<SymbolId, 8>>, 4>
      reductions;
  for (const SymbolId terminal : lookahead_terminals(lookahead)) {
    for (const glr::Action action : table_.actions(top, terminal)) {
      switch (action.kind()) {
        case glr::ActionKind::kShift:
          if (std::find(split.shifts.begin(), split.shifts.end(), action.target()) ==
              split.shifts.end())
            split.shifts.push_back(action.target());
          break;
        case glr::ActionKind::kAccept:
          split.accepts = true;
          break;
        case glr::ActionKind::kReduce: {
          const auto same = std::find_if(reductions.begin(), reductions.end(),
                                         [&](const auto& r) { return r.first == action.rule(); });
          if (same != reductions.end()) {
            same->second.push_back(terminal);
          } else {
            reductions.push_back({action.rule(), {terminal}});
          }
          break;
        }
      }
    }
  }
  for (auto& [rule, terminals] : reductions)
    split.reductions.emplace_back(rule, intern_lookahead({terminals.data(), terminals.size()}));
  return split;
}

std::uint32_t ParserDwaWorker::check_at_top(LookaheadId lookahead, StateId top, bool is_guard) {
  const std::size_t slot =
      (std::size_t{lookahead} * 2 + (is_guard ? 1 : 0)) * table_.num_states() + top;
  const bool dense = slot < kDenseCheckSlots;
  if (dense) {
    if (slot >= checks_at_top_.size())
      checks_at_top_.resize(
          std::min(std::max(slot + 1, checks_at_top_.size() * 2), kDenseCheckSlots), kNotComputed);
    if (checks_at_top_[slot] != kNotComputed) return checks_at_top_[slot];
  } else if (const std::uint32_t* known = sparse_checks_at_top_.find(slot)) {
    return *known;
  }
  std::uint32_t verdict = kCheckFails;
  boost::container::small_vector<SymbolId, 16> open;
  for (const SymbolId terminal : lookahead_terminals(lookahead)) {
    // Skippable terminals are always takeable (IncrementalRecognizer::can_take); a guard asks
    // whether one is really shiftable.
    const ShiftVerdict shift =
        !is_guard && terminal != shared_.end_of_input && shared_.grammar.is_skippable(terminal)
            ? ShiftVerdict::kSure
            : shared_.verdicts->verdict(top, terminal);
    if (shift == ShiftVerdict::kSure) {
      verdict = kCheckSucceeds;
      break;
    }
    if (shift == ShiftVerdict::kDepends) open.push_back(terminal);
  }
  if (verdict != kCheckSucceeds && !open.empty())
    verdict = open.size() == lookahead_terminals(lookahead).size()
                  ? lookahead
                  : intern_lookahead({open.data(), open.size()});
  if (dense) {
    checks_at_top_[slot] = verdict;
  } else {
    sparse_checks_at_top_.find_or_insert(slot, verdict);
  }
  return verdict;
}

template <class Items>
void ParserDwaWorker::erase_decided(Items& items, TokenSetId accepted) {
  // Items come in runs of one continuation (item sets are sorted), so remember the last answer.
  std::uint32_t last_cont = 0xffffffffu;
  bool last_decided = false;
  const auto decided = [&](const Item& item) {
    if (item.cont != last_cont) {
      last_cont = item.cont;
      last_decided = decided_by(item.cont, accepted);
    }
    return last_decided;
  };
  items.erase(std::remove_if(items.begin(), items.end(), decided), items.end());
}

// Whether everything `cont` can still accept is accepted already. Many items of one continuation
// meet the same accepted set, and a subset test of large sets costs more than finding the pair.
bool ParserDwaWorker::decided_by(std::uint32_t cont, TokenSetId accepted) {
  const TokenSetId tokens = pending(cont);
  const std::uint64_t key = std::uint64_t{tokens.value()} << 32 | accepted.value();
  if (const std::uint32_t* known = decided_memo_.find(key)) return *known != 0;
  const bool decided = shared_.pool.is_subset(tokens, accepted);
  decided_memo_.find_or_insert(key, decided ? 1 : 0);
  return decided;
}

Outcome ParserDwaWorker::expand(std::uint32_t cont, VirtualStackId stack) {
  const std::uint64_t key = std::uint64_t{cont} << 32 | stack;
  if (const Outcome* memo = expand_memos_[stacks_.bottom(stack)].find(key)) {
    if (in_progress(*memo)) throw_endless_reductions(kNoLookahead);
    return *memo;
  }
  expand_memos_[stacks_.bottom(stack)].assign(key, kInProgress);
  Collector collector;
  if (indented()) {
    switch (kind_of(cont)) {
      case ContinuationKind::kStart:
      case ContinuationKind::kNode:
        expand_trie(collector, kind_of(cont) == ContinuationKind::kStart, payload_of(cont),
                    IndentCtx{}, stack);
        break;
      case ContinuationKind::kIndented:
        expand_indented(collector, record(cont), stack);
        break;
      default:
        break;
    }
    const Outcome outcome = finish(collector);
    expand_memos_[stacks_.bottom(stack)].assign(key, outcome);
    return outcome;
  }
  lexer::DwaNodeId node = 0;
  if (kind_of(cont) == ContinuationKind::kStart) {
    const lexer::ForkId fork = payload_of(cont);
    node = dwa_.root(fork);
    if (dwa_.can_finish(fork) && !shared_.eos.is_empty())
      merge(collector, feed(intern_lookahead({shared_.end_of_input}),
                            continuation(ContinuationKind::kAccept, shared_.eos.value()), stack));
  } else {
    node = payload_of(cont);
  }
  for (const auto& [lookahead, tokens] : shared_.checks[node])
    merge(collector,
          feed(lookahead, continuation(ContinuationKind::kAccept, tokens.value()), stack));
  // Edges whose label feeds a fixed lookahead: overlap their memo lookups.
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    if (const LookaheadId lookahead = shared_.plain_lookaheads[edge.label];
        lookahead != kNoLookahead)
      feed_memos_[stacks_.bottom(stack)].prefetch(
          std::uint64_t{pair_id(continuation(ContinuationKind::kNode, edge.child), lookahead)}
              << 32 |
          stack);
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    feed_label(collector, edge.label, continuation(ContinuationKind::kNode, edge.child), stack);
  const Outcome outcome = finish(collector);
  expand_memos_[stacks_.bottom(stack)].assign(key, outcome);
  return outcome;
}

void ParserDwaWorker::expand_trie(Collector& into, bool root, std::uint32_t id, IndentCtx ctx,
                                  VirtualStackId stack) {
  const lexer::DwaNodeId node = root ? dwa_.root(id) : id;
  const auto accept = [&](TokenSetId tokens) {
    if (tokens.value() >= kPayloadLimit) throw Error("wfa: too many token sets for the Parser DWA");
    return continuation(ContinuationKind::kAccept, tokens.value());
  };
  const auto finish_check = [&](TokenSetId tokens) {
    return make_continuation({IndentedType::kFinishCheck, tokens.value(), 0, 0, 0, 0});
  };
  // "Can the input end after the final _DEDENTs?" is asked once per stack for all tokens.
  const auto finish_check_of = [&]() {
    return feed(shared_.dedent_lookahead, finish_check(TokenSetPool::full()), stack);
  };
  if (root && dwa_.can_finish(id) && !shared_.eos.is_empty()) {
    // EOS: the indenter's final _DEDENTs, then the end of input.
    merge(into, feed(shared_.end_lookahead, accept(shared_.eos), stack));
    add_positive_check(into, finish_check_of(), shared_.eos);
  }
  const ParserDwaShared::IndentChecks& checks = shared_.indent_checks[node];
  for (const auto& [lookahead, tokens] : checks.plain)
    merge(into, feed(lookahead, accept(tokens), stack));
  // The end of input may need the indenter's final _DEDENTs first; a newline's width is free.
  // Each is one check per node, over all its weights that can take it.
  if (!checks.end.is_empty()) add_positive_check(into, finish_check_of(), checks.end);
  if (!checks.newline.is_empty()) newline_check(into, ctx, checks.newline, stack);
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    feed_label_indented(into, edge.label, ctx, false, edge.child, stack);
}

void ParserDwaWorker::newline_check(Collector& into, IndentCtx ctx, TokenSetId tokens,
                                    VirtualStackId stack) {
  // Inside brackets the indenter drops the newline: takeable like ignored text.
  if (ctx.net > 0) {
    into.accepted_parts.push_back(tokens);
    return;
  }
  if (ctx.depth_known && ctx.net < 0) return;
  // At depth 0 its width is free: the top again, wider (_INDENT) or a level below (_DEDENTs).
  // The check does not depend on the tokens: one positive group per stack holds them all.
  add_positive_check(into,
                     feed(shared_.newline_lookahead,
                          make_continuation({IndentedType::kNewlineCheck,
                                             TokenSetPool::full().value(), 0, 0, 0, 0}),
                          stack),
                     tokens);
  // With the depth before the token unknown, the newline is dropped where it is above -net. The
  // check above may accept some of the tokens there too: they are allowed there anyway.
  if (!ctx.depth_known)
    into.conditionals.push_back(
        {condition(ConditionKind::kDepthAbove, {}, static_cast<std::uint32_t>(-ctx.net)), tokens,
         0});
}

void ParserDwaWorker::feed_label_indented(Collector& into, lexer::LabelId label, IndentCtx ctx,
                                          bool root, std::uint32_t child, VirtualStackId stack) {
  const lexer::LexerDfa& dfa = dwa_.dfa();
  const lexer::LabelId base = lexer::base_label(label);
  if (dfa.label_is_ignored(base)) {
    merge(into, expand(trie_continuation(root, child, ctx), stack));
    return;
  }
  // A lexer label with the newline can only be an early label: its text is the session's.
  const lexer::IndentText text = lexer::is_indent_label(label)
                                     ? lexer::indent_text(label)
                                     : lexer::IndentText{lexer::IndentTextKind::kRelative, 0};
  boost::container::small_vector<SymbolId, 8> by_bracket[3];  // closing, other, opening
  bool skip = false;
  for (const std::uint32_t terminal : dfa.label_terminals(base)) {
    if (dfa.terminals()[terminal].ignored) {
      skip = true;
    } else if (terminal == shared_.indenter->newline) {
      feed_newline(into, text, ctx, root, child, stack);
    } else {
      by_bracket[shared_.label_bracket[terminal] + 1].push_back(terminal);
    }
  }
  if (skip) merge(into, expand(trie_continuation(root, child, ctx), stack));
  for (int effect = -1; effect <= 1; ++effect) {
    auto& terminals = by_bracket[effect + 1];
    if (terminals.empty()) continue;
    IndentCtx after = ctx;
    after.net += effect;
    merge(into, feed(intern_lookahead({terminals.data(), terminals.size()}),
                     trie_continuation(root, child, after), stack));
  }
}

void ParserDwaWorker::feed_newline(Collector& into, lexer::IndentText text, IndentCtx ctx,
                                   bool root, std::uint32_t child, VirtualStackId stack) {
  const auto process = [&](Collector& at, IndentCtx zero) {
    if (zero.newline_seen) {
      // A second newline in one token: left to get_mask (docs/wfa.md, "Indenter").
      defer(at, trie_continuation(root, child, zero));
      return;
    }
    if (text.kind == lexer::IndentTextKind::kNoNewline) return;  // the indenter refuses it
    const std::uint32_t next = trie_continuation(root, child, IndentCtx{0, true, true});
    merge(at,
          feed(shared_.newline_lookahead,
               make_continuation({IndentedType::kNewline, next, 0, 0, 0, pack_text(text)}), stack));
  };
  if (ctx.net > 0) {  // inside brackets: dropped
    merge(into, expand(trie_continuation(root, child, ctx), stack));
    return;
  }
  if (ctx.depth_known) {
    if (ctx.net == 0) process(into, ctx);
    return;
  }
  const auto level = static_cast<std::uint32_t>(-ctx.net);
  merge_conditional(into, condition(ConditionKind::kDepthAbove, {}, level),
                    expand(trie_continuation(root, child, ctx), stack));
  Collector at_zero;
  process(at_zero, IndentCtx{0, true, ctx.newline_seen});
  merge_conditional(into, condition(ConditionKind::kDepthIs, {}, level), finish(at_zero));
}

void ParserDwaWorker::feed_dedent(Collector& into, std::uint32_t text, std::uint32_t next,
                                  VirtualStackId stack) {
  // The virtual stack holds one state read from the real stack, at its bottom; the rest was
  // pushed, and only shifting _INDENT pushes a frame (never done before the token's first
  // newline). If the state read is a frame that no _DEDENT above it closed, this _DEDENT closes
  // it, and the level below it is asked of the walk now; otherwise the frame is further down.
  bool read_frame = shared_.indent_frame[stacks_.bottom(stack)] != 0;
  for (VirtualStackId v = stack; read_frame && stacks_.depth(v) > 1; v = stacks_.pop(v, 1))
    if (shared_.dedent_state[stacks_.top(v)] != 0) read_frame = false;
  if (!read_frame) {
    merge(into, feed(shared_.dedent_lookahead,
                     dedent_continuation(DedentMode::kPending, text, next), stack));
    return;
  }
  const lexer::IndentText width = unpack_text(text);
  merge_conditional(
      into, condition(ConditionKind::kFrameEqual, width, 0),
      feed(shared_.dedent_lookahead, dedent_continuation(DedentMode::kLast, text, next), stack));
  // Going on needs no condition (see the frame read in advance()).
  merge(into,
        feed(shared_.dedent_lookahead, dedent_continuation(DedentMode::kMore, text, next), stack));
}

void ParserDwaWorker::expand_indented(Collector& into, const IndentedContinuation& r,
                                      VirtualStackId stack) {
  const auto accept = [&](std::uint32_t tokens) {
    return continuation(ContinuationKind::kAccept, tokens);
  };
  const auto check = [&](IndentedType type, std::uint32_t tokens) {
    return make_continuation({type, tokens, 0, 0, 0, 0});
  };
  switch (r.type) {
    case IndentedType::kTrie:
    case IndentedType::kRoot:
      expand_trie(into, r.type == IndentedType::kRoot, r.a, IndentCtx::unpack(r.ctx), stack);
      return;
    case IndentedType::kNewline: {
      // The newline was shifted; what follows depends on its width against the top level.
      const lexer::IndentText text = unpack_text(r.text);
      merge_conditional(into, condition(ConditionKind::kTopEqual, text, 0), expand(r.a, stack));
      merge_conditional(into, condition(ConditionKind::kTopAbove, text, 0),
                        feed(shared_.indent_lookahead, r.a, stack));
      // Below the top: _DEDENTs. That needs no condition: a width at or above the top lands on
      // no level below it, so no frame read lets the work through (advance()).
      feed_dedent(into, r.text, r.a, stack);
      return;
    }
    case IndentedType::kDedent:
      switch (static_cast<DedentMode>(r.b)) {
        case DedentMode::kLast:
          merge(into, expand(r.a, stack));
          return;
        case DedentMode::kMore:
          feed_dedent(into, r.text, r.a, stack);
          return;
        case DedentMode::kPending:
          // The _DEDENT was shifted before its frame was read (not so in SynCode's grammars).
          defer(into, r.a);
          return;
      }
      return;
    case IndentedType::kNewlineCheck:
      merge(into, feed(shared_.ordinary_or_end, accept(r.a), stack));
      merge(into, feed(shared_.indent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      return;
    case IndentedType::kDedentCheck:
      merge(into, feed(shared_.ordinary_or_end, accept(r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kDedentCheck, r.a), stack));
      return;
    case IndentedType::kFinishCheck:
      merge(into, feed(shared_.end_lookahead, accept(r.a), stack));
      merge(into, feed(shared_.dedent_lookahead, check(IndentedType::kFinishCheck, r.a), stack));
      return;
  }
}

void ParserDwaWorker::feed_label(Collector& into, lexer::LabelId label, std::uint32_t child,
                                 VirtualStackId stack) {
  if (const LookaheadId lookahead = shared_.plain_lookaheads[label]; lookahead != kNoLookahead) {
    merge(into, feed(lookahead, child, stack));
    return;
  }
  const lexer::LexerDfa& dfa = dwa_.dfa();
  if (dfa.label_is_ignored(label)) {
    merge(into, expand(child, stack));
    return;
  }
  std::vector<SymbolId> alternatives;
  bool skip = false;  // a tie with an ignored terminal: the parser may skip the label
  for (const std::uint32_t terminal : dfa.label_terminals(label)) {
    if (dfa.terminals()[terminal].ignored) {
      skip = true;
    } else if (!shared_.grammar.is_skippable(terminal)) {
      alternatives.push_back(terminal);
    } else {
      // A skippable terminal is shifted where the stacks can take it and dropped where they
      // cannot (IncrementalRecognizer::feed_token). Which one happens must be decided by the
      // top state alone, because the dropped branch keeps the stack as it is.
      switch (shared_.verdicts->verdict(stacks_.top(stack), terminal)) {
        case ShiftVerdict::kSure:
          alternatives.push_back(terminal);
          break;
        case ShiftVerdict::kNever:
          skip = true;
          break;
        case ShiftVerdict::kDepends:
          alternatives.push_back(terminal);  // the shift fails by itself where it cannot
          drop_skippable(into, terminal, child, stack);
          break;
      }
    }
  }
  if (skip) merge(into, expand(child, stack));
  if (!alternatives.empty())
    merge(into, feed(intern_lookahead(std::span<SymbolId>(alternatives)), child, stack));
}

Outcome ParserDwaWorker::feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack) {
  const bool is_check =
      kind_of(cont) == ContinuationKind::kAccept || kind_of(cont) == ContinuationKind::kGuard;
  // What a successful check accepts: the weight's tokens, or for a guard the marker full().
  const TokenSetId on_success = kind_of(cont) == ContinuationKind::kAccept
                                    ? TokenSetId{payload_of(cont)}
                                    : TokenSetPool::full();
  if (is_check) {
    // A check: one shiftable terminal accepts the weight. Decided at the top state where the
    // table alone can, without a memo entry; otherwise only the terminals whose fate depends on
    // the states below are fed.
    const std::uint32_t verdict =
        check_at_top(lookahead, stacks_.top(stack), kind_of(cont) == ContinuationKind::kGuard);
    if (verdict == kCheckSucceeds) return {on_success, 0};
    if (verdict == kCheckFails) return {};
    lookahead = verdict;
  }
  const std::uint64_t key = std::uint64_t{pair_id(cont, lookahead)} << 32 | stack;
  if (const Outcome* memo = feed_memos_[stacks_.bottom(stack)].find(key)) {
    if (in_progress(*memo)) throw_endless_reductions(lookahead);
    return *memo;
  }
  feed_memos_[stacks_.bottom(stack)].assign(key, kInProgress);
  max_virtual_depth_ = std::max<std::size_t>(max_virtual_depth_, stacks_.depth(stack));
  const StateId top = stacks_.top(stack);
  const ActionSplit& split = action_split(lookahead, top);
  Collector collector;
  if (is_check) {
    if (split.accepts || !split.shifts.empty()) collector.accepted_parts.push_back(on_success);
  } else {
    for (const StateId target : split.shifts) {
      const bool root = kind_of(cont) == ContinuationKind::kStart ||
                        (kind_of(cont) == ContinuationKind::kIndented &&
                         record(cont).type == IndentedType::kRoot);
      merge(collector,
            root ? expand_over(cont, target, stack) : expand(cont, stacks_.push(target, stack)));
    }
  }
  for (const auto& [rule, reduced] : split.reductions) {
    const std::uint32_t length = table_.rule_length(rule);
    const SymbolId lhs = table_.rule_lhs(rule);
    const std::uint32_t depth = stacks_.depth(stack);
    if (length >= depth) {
      collector.items.push_back({cont, reduced, length - depth, lhs});
      continue;
    }
    const VirtualStackId below = stacks_.pop(stack, length);
    const StateId target = table_.goto_state(stacks_.top(below), lhs);
    if (target == glr::kNoState) continue;
    const VirtualStackId pushed = stacks_.push(target, below);
    if (pushed == stack || stacks_.depth(pushed) > shared_.options.max_virtual_depth) {
      const SymbolId terminal = lookahead_terminals(reduced).front();
      throw Error(
          fmt::format("wfa: the reductions on terminal '{}' never end: rule {} ({}) at {} repeats "
                      "without consuming input (a derivation cycle or hidden left recursion)",
                      terminal < shared_.grammar.grammar().terminals().size()
                          ? shared_.grammar.grammar().terminals()[terminal].name
                          : std::string("$END"),
                      rule, shared_.grammar.lalr().grammar().rule_text(rule),
                      shared_.grammar.lalr().grammar().origin(rule)),
          ErrorCode::kUnsupported);
    }
    merge(collector, feed(reduced, cont, pushed));
  }
  const Outcome outcome = finish(collector);
  feed_memos_[stacks_.bottom(stack)].assign(key, outcome);
  return outcome;
}

void ParserDwaWorker::throw_endless_reductions(LookaheadId lookahead) const {
  std::string terminal = "an ignored label";
  if (lookahead != kNoLookahead) {
    const SymbolId first = lookahead_terminals(lookahead).front();
    terminal = first < shared_.grammar.grammar().terminals().size()
                   ? "'" + shared_.grammar.grammar().terminals()[first].name + "'"
                   : std::string("$END");
  }
  throw Error(
      fmt::format(
          "wfa: the reductions on {} never end: they return to the same stack without consuming "
          "input (a derivation cycle such as a rule A: A A with A nullable, or A =>+ A)",
          terminal),
      ErrorCode::kUnsupported);
}

std::uint32_t ParserDwaWorker::pair_id(std::uint32_t cont, LookaheadId lookahead) {
  return pair_ids_
      .find_or_insert(std::uint64_t{cont} << 32 | lookahead,
                      static_cast<std::uint32_t>(pair_ids_.size()))
      .first;
}

std::uint32_t ParserDwaWorker::item_id(const Item& item) {
  // Rules are short and symbol ids small; the packing below relies on both.
  if (item.pops >= 256 || (item.lhs != glr::kNoSymbol && item.lhs >= 0xffffffu))
    throw Error(fmt::format("wfa: grammar too large for the Parser DWA's item packing ({} pops, "
                            "symbol {})",
                            item.pops, item.lhs),
                ErrorCode::kLimit);
  const std::uint32_t lhs = item.lhs == glr::kNoSymbol ? 0xffffffu : item.lhs;
  const std::uint64_t key =
      std::uint64_t{pair_id(item.cont, item.lookahead)} << 32 | item.pops << 24 | lhs;
  return item_ids_.find_or_insert(key, static_cast<std::uint32_t>(item_ids_.size())).first;
}

Outcome ParserDwaWorker::step(const Item& item, std::uint32_t id, StateId read) {
  if (const Outcome* memo = step_memos_[read].find(id)) return *memo;
  Outcome outcome;
  VirtualStackId stack = stacks_.push(read, VirtualStackPool::kEmpty);
  bool alive = true;
  if (item.lhs != glr::kNoSymbol) {
    const StateId target = table_.goto_state(read, item.lhs);
    if (target == glr::kNoState) {
      alive = false;
    } else {
      stack = stacks_.push(target, stack);
    }
  }
  if (alive) {
    if (item.lookahead == kNoLookahead) {
      outcome = expand(item.cont, stack);
    } else if ((item.lookahead & kLabelItem) != 0) {
      Collector collector;
      if (indented()) {
        // An early-label start: the label, then the fork's root (item.cont is kStart).
        feed_label_indented(collector, item.lookahead & ~kLabelItem, IndentCtx{}, true,
                            payload_of(item.cont), stack);
      } else {
        feed_label(collector, item.lookahead & ~kLabelItem, item.cont, stack);
      }
      outcome = finish(collector);
    } else {
      outcome = feed(item.lookahead, item.cont, stack);
    }
  }
  step_memos_[read].find_or_insert(id, outcome);
  return outcome;
}

std::pair<DwaStateId, TokenSetId> ParserDwaWorker::transition(DwaStateId state, StateId read) {
  const Outcome outcome = read_below(shared_.states[state.value()], read);
  if ((outcome.work & kConditionalWork) == 0) {
    const DwaStateId target = outcome.work == 0 ? ParserDwa::kDeadState : state_for(outcome.work);
    return {target, outcome.accepted};
  }
  // A branch group: the unconditional way on first, then one per conditional part.
  const ConditionalWork work = conditional_work(outcome.work);
  found_branches_.push_back(
      {0, work.work == 0 ? ParserDwa::kDeadState : state_for(work.work), TokenSetPool::empty()});
  for (const ConditionalPart& part : work.parts)
    found_branches_.push_back(
        {part.set, part.work == 0 ? ParserDwa::kDeadState : state_for(part.work), part.accepted});
  return {DwaStateId{ParserDwa::kBranchBit}, outcome.accepted};
}

Outcome ParserDwaWorker::read_below(WorkId work, StateId read) {
  if ((work & kConditionalWork) == 0) return read_below_plain(work, read);
  // The accepted tokens of conditional parts belong to the step that made them; their items
  // read on under their conditions.
  const ConditionalWork parts = conditional_work(work);
  Collector collector;
  merge(collector, read_below_plain(parts.work, read));
  for (const ConditionalPart& part : parts.parts)
    if (part.work != 0) merge_conditional(collector, part.set, read_below_plain(part.work, read));
  return finish(collector);
}

Outcome ParserDwaWorker::read_below_plain(WorkId work, StateId read) {
  const ItemSetId items = shared_.items_of(work);
  const GroupListId groups = shared_.groups_of(work);
  Collector collector;
  advance(collector, items, read);
  // Copy: advance() may intern new group lists.
  const std::vector<Group> guarded = shared_.group_lists[groups];
  for (const Group& group : guarded) {
    if (group.positive) {
      // Its check on this state: success allows the held tokens, no items left ends it.
      Collector check;
      advance(check, group.guards.front(), read);
      if (!check.accepted_parts.empty()) {
        collector.accepted_parts.push_back(group.held);
      } else if (!check.items.empty()) {
        collector.groups.push_back({{finish(check).work}, group.held, 0, true});
      }
      continue;
    }
    std::vector<ItemSetId> guards;
    bool shiftable = false;
    for (const ItemSetId guard : group.guards) {
      Collector check;
      advance(check, guard, read);
      shiftable = !check.accepted_parts.empty();
      if (shiftable) break;
      if (!check.items.empty()) guards.push_back(finish(check).work);  // plain items
    }
    if (shiftable) continue;  // the session shifts the terminal: the dropped branch is void
    Collector resumed;
    advance(resumed, group.body, read);
    if (!group.held.is_empty()) resumed.accepted_parts.push_back(group.held);
    const Outcome body = finish(resumed);
    if (guards.empty()) {
      merge(collector, body);
    } else {
      std::sort(guards.begin(), guards.end());
      guards.erase(std::unique(guards.begin(), guards.end()), guards.end());
      merge_guarded(collector, guards, body);
    }
  }
  if (shared_.predecessors[read].empty()) {
    // Nothing lies below `read` (the LR start state, the bottom of every stack): items die and
    // every guard failed, so the held tokens are allowed.
    for (const Group& group : collector.groups)
      if (!group.held.is_empty() && !group.positive) collector.accepted_parts.push_back(group.held);
    collector.items.clear();
    collector.groups.clear();
  }
  if (const TokenSetId all = accepted(collector); !all.is_empty()) {
    erase_decided(collector.items, all);
    for (Group& group : collector.groups) {
      group.held = shared_.pool.subtract(group.held, all);
      std::vector<Item> body(item_set(group.body));
      erase_decided(body, all);
      group.body = intern_items(body);
    }
    for (ConditionalPart& part : collector.conditionals) {
      part.accepted = shared_.pool.subtract(part.accepted, all);
      part.work = prune_work(part.work, all);
    }
  }
  return finish(collector);
}

// Equivalent to expand(cont, push(target, below)) for a virtual stack `below`, but shares the
// work: the fork's root is expanded on `target` alone (the memo entry every plain start state
// uses), and what that leaves suspended reads the states of `below` as it would read the real
// stack. Expanding on the whole stack instead made the early-label start states (kStart behind a
// feed) cost as much as all the other states together.
Outcome ParserDwaWorker::expand_over(std::uint32_t cont, StateId target, VirtualStackId below) {
  Outcome outcome = expand(cont, stacks_.push(target, VirtualStackPool::kEmpty));
  if (!indented()) {
    TokenSetId accepted = outcome.accepted;
    for (VirtualStackId rest = below; rest != VirtualStackPool::kEmpty && outcome.work != 0;
         rest = stacks_.pop(rest, 1)) {
      outcome = read_below(outcome.work, stacks_.top(rest));
      accepted = shared_.pool.unite(accepted, outcome.accepted);
    }
    return {accepted, outcome.work};
  }
  // With an indenter the work may hold conditional parts: what each read accepts (under its
  // conditions) is kept, what stays suspended reads on.
  Collector done;
  const auto keep_accepted = [&](const Outcome& from) {
    if (!from.accepted.is_empty()) done.accepted_parts.push_back(from.accepted);
    for (const ConditionalPart& part : conditional_work(from.work).parts)
      if (!part.accepted.is_empty()) done.conditionals.push_back({part.set, part.accepted, 0});
  };
  const auto without_accepted = [&](WorkId work) -> WorkId {
    if ((work & kConditionalWork) == 0) return work;
    Collector rest;
    const ConditionalWork parts = conditional_work(work);
    merge(rest, {TokenSetPool::empty(), parts.work});
    for (const ConditionalPart& part : parts.parts)
      if (part.work != 0) rest.conditionals.push_back({part.set, TokenSetPool::empty(), part.work});
    return finish(rest).work;
  };
  keep_accepted(outcome);
  WorkId work = without_accepted(outcome.work);
  for (VirtualStackId rest = below; rest != VirtualStackPool::kEmpty && work != 0;
       rest = stacks_.pop(rest, 1)) {
    outcome = read_below(work, stacks_.top(rest));
    keep_accepted(outcome);
    work = without_accepted(outcome.work);
  }
  merge(done, {TokenSetPool::empty(), work});
  return finish(done);
}

TokenSetId ParserDwaWorker::pending(std::uint32_t cont) const {
  switch (kind_of(cont)) {
    case ContinuationKind::kAccept:
      return TokenSetId{payload_of(cont)};
    case ContinuationKind::kNode:
      return shared_.subtrie_tokens[payload_of(cont)];
    case ContinuationKind::kStart:
      return shared_.start_pending[payload_of(cont)];
    case ContinuationKind::kGuard:
      return TokenSetPool::full();
    case ContinuationKind::kIndented: {
      const IndentedContinuation r = record(cont);
      switch (r.type) {
        case IndentedType::kTrie:
          return shared_.subtrie_tokens[r.a];
        case IndentedType::kRoot:
          return shared_.start_pending[r.a];
        case IndentedType::kNewline:
        case IndentedType::kDedent:
          return pending(r.a);
        case IndentedType::kNewlineCheck:
        case IndentedType::kDedentCheck:
        case IndentedType::kFinishCheck:
          return TokenSetId{r.a};
      }
      return TokenSetPool::full();
    }
  }
  return TokenSetPool::full();
}

void ParserDwaWorker::seed(std::vector<DwaStateId>& start_states,
                           std::vector<EarlyStart>& early_starts) {
  std::size_t requests = 0;
  start_states.reserve(dwa_.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa_.num_forks(); ++fork) {
    Item start{continuation(ContinuationKind::kStart, fork), kNoLookahead, 0, glr::kNoSymbol};
    const DwaStateId state = state_for(intern_items({&start, 1}));
    start_states.push_back(state);
    requests += request(state, shared_.start_reads.empty() ? std::span(shared_.first_reads)
                                                           : std::span(shared_.start_reads[fork]));
  }
  if (shared_.options.early_label_starts) {
    for (const auto& [label, fork] : early_label_pairs(dwa_)) {
      // A plain label is fed as its lookahead; one with a skippable terminal (Go's newline
      // EOS, which may go on as more newlines) as the label itself, shifted or dropped by the
      // stack the state reads.
      LookaheadId lookahead = shared_.plain_lookaheads[label];
      if (lookahead == kNoLookahead) {
        if (dwa_.dfa().label_is_ignored(label)) continue;
        lookahead = kLabelItem | label;
      }
      Item start{continuation(ContinuationKind::kStart, fork), lookahead, 0, glr::kNoSymbol};
      const DwaStateId state = state_for(intern_items({&start, 1}));
      early_starts.push_back({label, fork, state});
      requests += request(state, shared_.first_reads);
    }
  }
  schedule_.outstanding += static_cast<std::int64_t>(requests);
}

std::size_t ParserDwaWorker::request(DwaStateId state, std::span<const StateId> reads) {
  std::size_t added = 0;
  for (const StateId read : reads) {
    const std::size_t owner = schedule_.owner(read);
    if (owner != index_) {
      outboxes_[owner].push_back({state, read});
      ++added;
    } else if (enqueue({state, read})) {
      ++added;
    }
  }
  return added;
}

bool ParserDwaWorker::enqueue(const Request& request) {
  if (!requested_.find_or_insert(std::uint64_t{request.state.value()} << 32 | request.read, 1)
           .second)
    return false;
  std::vector<DwaStateId>& bucket = pending_by_read_[request.read];
  if (bucket.empty()) reads_with_work_.push_back(request.read);
  bucket.push_back(request.state);
  return true;
}

void ParserDwaWorker::flush_outboxes() {
  for (std::size_t worker = 0; worker < outboxes_.size(); ++worker) {
    std::vector<Request>& out = outboxes_[worker];
    if (out.empty()) continue;
    ParserDwaSchedule::Inbox& inbox = schedule_.inboxes[worker];
    const std::lock_guard lock(inbox.mutex);
    inbox.requests.insert(inbox.requests.end(), out.begin(), out.end());
    out.clear();
  }
}

void ParserDwaWorker::drain_inbox() {
  ParserDwaSchedule::Inbox& inbox = schedule_.inboxes[index_];
  {
    const std::lock_guard lock(inbox.mutex);
    inbox_scratch_.swap(inbox.requests);
  }
  std::int64_t duplicates = 0;
  for (const Request& request : inbox_scratch_) duplicates += enqueue(request) ? 0 : 1;
  inbox_scratch_.clear();
  if (duplicates != 0) schedule_.outstanding -= duplicates;
}

void ParserDwaWorker::charge_transition(bool live) {
  live_since_check_ += live ? 1 : 0;
  if (++computed_since_check_ < kBudgetBatch) return;
  computed_since_check_ = 0;
  const ParserDwaOptions& options = shared_.options;
  const std::uint64_t found =
      shared_.transitions_found.fetch_add(live_since_check_, std::memory_order_relaxed) +
      live_since_check_;
  live_since_check_ = 0;
  if (options.max_transitions != 0 && found > options.max_transitions) {
    throw Error(fmt::format("wfa: the Parser DWA needs more than {} transitions (limit "
                            "max_parser_dwa_transitions; raise it with "
                            "--max-parser-dwa-transitions)",
                            options.max_transitions),
                ErrorCode::kLimit);
  }
  if (options.max_memory_bytes != 0) {
    const std::size_t resident = resident_memory_bytes();
    if (resident > options.max_memory_bytes) {
      throw Error(fmt::format("wfa: building the Parser DWA took the process to {} MiB of "
                              "resident memory, above {} MiB (limit max_compile_memory_mib; "
                              "raise it with --max-compile-memory-mib)",
                              resident >> 20, options.max_memory_bytes >> 20),
                  ErrorCode::kLimit);
    }
  }
}

void ParserDwaWorker::compute_read(StateId read) {
  std::vector<DwaStateId>& bucket = pending_by_read_[read];  // the outer vector never grows
  while (!bucket.empty() && !schedule_.stop) {
    const DwaStateId state = bucket.back();
    bucket.pop_back();
    const auto branch_begin = static_cast<std::uint32_t>(found_branches_.size());
    const auto [target, weight] = transition(state, read);
    std::size_t added = 0;
    if (target == DwaStateId{ParserDwa::kBranchBit}) {
      const auto branch_end = static_cast<std::uint32_t>(found_branches_.size());
      found_.push_back({state, read, target, weight, branch_begin, branch_end});
      for (std::uint32_t b = branch_begin; b < branch_end; ++b)
        if (found_branches_[b].target != ParserDwa::kDeadState)
          added += request(found_branches_[b].target, shared_.predecessors[read]);
    } else if (target != ParserDwa::kDeadState || !weight.is_empty()) {
      found_.push_back({state, read, target, weight});
      if (target != ParserDwa::kDeadState) added = request(target, shared_.predecessors[read]);
    }
    charge_transition(target != ParserDwa::kDeadState || !weight.is_empty());
    // What this step requested is counted before the step itself is discounted.
    if (added != 1) schedule_.outstanding += static_cast<std::int64_t>(added) - 1;
    flush_outboxes();
  }
}

void ParserDwaWorker::run() {
  try {
    while (!schedule_.stop) {
      flush_outboxes();
      drain_inbox();
      if (!reads_with_work_.empty()) {
        const StateId read = reads_with_work_.back();
        reads_with_work_.pop_back();
        compute_read(read);
        continue;
      }
      if (schedule_.outstanding == 0) break;
      std::this_thread::yield();
    }
  } catch (...) {
    schedule_.fail(std::current_exception());
  }
}

}  // namespace

class ParserDwaBuilder {
 public:
  ParserDwaBuilder(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                   TokenSetPool& pool, std::optional<TokenId> eos, const ParserDwaOptions& options)
      : shared_(grammar, dwa, pool, eos, options) {
    compute_predecessors(shared_);
    require_single_stack_for_skippables(shared_);
    shared_.verdicts = std::make_unique<ShiftVerdicts>(shared_.table, shared_.predecessors);
    precompute_node_tables(shared_, pool);
    compute_start_reads(shared_);
    if (grammar.indenter() != nullptr) prepare_indenter(shared_);
  }

  ParserDwa build();

 private:
  // Numbers the states in breadth-first order from the start states (forks first, then early
  // starts), each state's transitions by ascending read: the same automaton whatever the number
  // of workers and whichever of them reached a state first.
  void assemble(ParserDwa& result, std::vector<FoundTransition> found,
                std::vector<ParserDwaBranch>& branches) const;

  ParserDwaShared shared_;
};

ParserDwa ParserDwaBuilder::build() {
  const auto started = std::chrono::steady_clock::now();
  std::size_t threads = shared_.options.threads;
  if (threads == 0)
    threads =
        std::min(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                 tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  threads = std::clamp<std::size_t>(threads, 1, shared_.table.num_states());
  ParserDwaSchedule schedule(threads);
  std::vector<std::unique_ptr<ParserDwaWorker>> workers;
  for (std::size_t i = 0; i < threads; ++i)
    workers.push_back(std::make_unique<ParserDwaWorker>(shared_, schedule, i));

  ParserDwa result;
  workers[0]->seed(result.start_states_, result.early_starts_);
  {
    // Workers wait for each other's requests, so each needs a thread of its own (a task
    // scheduler may run tasks one after another).
    std::vector<std::jthread> helpers;
    for (std::size_t i = 1; i < threads; ++i)
      helpers.emplace_back([&worker = *workers[i]] { worker.run(); });
    workers[0]->run();
  }
  if (schedule.error) std::rethrow_exception(schedule.error);

  std::vector<FoundTransition> found;
  std::vector<ParserDwaBranch> branches;
  ParserDwaStats& stats = result.stats_;
  for (const std::unique_ptr<ParserDwaWorker>& worker : workers) {
    const auto offset = static_cast<std::uint32_t>(branches.size());
    for (FoundTransition t : worker->found()) {
      t.branch_begin += offset;
      t.branch_end += offset;
      found.push_back(t);
    }
    branches.insert(branches.end(), worker->found_branches().begin(),
                    worker->found_branches().end());
    std::vector<FoundTransition>().swap(worker->found());
    std::vector<ParserDwaBranch>().swap(worker->found_branches());
    stats.max_virtual_depth = std::max(stats.max_virtual_depth, worker->max_virtual_depth());
    stats.feed_memo_entries += worker->feed_memo_entries();
    stats.expand_memo_entries += worker->expand_memo_entries();
  }
  workers.clear();
  assemble(result, std::move(found), branches);

  stats.states = shared_.states.size();
  stats.early_starts = result.early_starts_.size();
  stats.transitions = result.transitions_.size();
  std::vector<std::uint32_t> weights;
  for (const ParserDwaTransition& t : result.transitions_)
    if (!t.weight.is_empty()) weights.push_back(t.weight.value());
  std::sort(weights.begin(), weights.end());
  stats.distinct_weights =
      static_cast<std::size_t>(std::unique(weights.begin(), weights.end()) - weights.begin());
  for (const WorkId work : shared_.states) {
    const GroupListId groups = shared_.groups_of(work);
    std::size_t count = shared_.item_sets[shared_.items_of(work)].size();
    for (const Group& group : shared_.group_lists[groups]) {
      count += shared_.item_sets[group.body].size();
      for (const ItemSetId guard : group.guards) count += shared_.item_sets[guard].size();
    }
    stats.suspended_items += count;
    stats.max_items_per_state = std::max(stats.max_items_per_state, count);
    stats.guarded_states += groups != 0 ? 1 : 0;
  }
  stats.branch_groups = result.branch_begin_.size() - 1;
  stats.branches = result.branches_.size();
  for (const ParserDwaBranch& branch : result.branches_)
    for (const std::uint32_t atom : result.condition_set(branch.conditions))
      if (result.conditions_[atom].kind == ConditionKind::kDeferred) ++stats.deferred_branches;
  const ReadDepthSummary depth = summarize_read_depth(result);
  stats.has_cycles = depth.has_cycles;
  stats.longest_acyclic_read = depth.longest_acyclic_read;
  stats.build_threads = threads;
  stats.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

void ParserDwaBuilder::assemble(ParserDwa& result, std::vector<FoundTransition> found,
                                std::vector<ParserDwaBranch>& branches) const {
  // A condition set by content: its atoms' records, for an order that does not depend on which
  // worker interned what first.
  const auto set_content = [&](std::uint32_t set) {
    std::vector<std::uint32_t> content;
    for (const std::uint32_t atom : shared_.condition_sets[set]) {
      const std::vector<std::uint32_t>& record = shared_.condition_atoms[atom];
      content.insert(content.end(), record.begin(), record.end());
    }
    return content;
  };
  for (const FoundTransition& t : found) {
    std::sort(branches.begin() + t.branch_begin, branches.begin() + t.branch_end,
              [&](const ParserDwaBranch& a, const ParserDwaBranch& b) {
                return set_content(a.conditions) < set_content(b.conditions);
              });
  }
  const std::size_t states = shared_.states.size();
  std::vector<std::uint32_t> begin(states + 1, 0);
  for (const FoundTransition& t : found) ++begin[t.state.value() + 1];
  for (std::size_t s = 0; s < states; ++s) begin[s + 1] += begin[s];
  std::vector<FoundTransition> by_state(found.size());
  {
    std::vector<std::uint32_t> next(begin.begin(), begin.end() - 1);
    for (const FoundTransition& t : found) by_state[next[t.state.value()]++] = t;
  }
  std::vector<FoundTransition>().swap(found);

  std::vector<DwaStateId> canonical(states, ParserDwa::kDeadState);
  std::vector<DwaStateId> order;  // provisional ids in canonical order
  order.reserve(states);
  const auto visit = [&](DwaStateId state) {
    if (canonical[state.value()] != ParserDwa::kDeadState) return;
    canonical[state.value()] = DwaStateId{static_cast<std::uint32_t>(order.size())};
    order.push_back(state);
  };
  for (const DwaStateId state : result.start_states_) visit(state);
  for (const EarlyStart& start : result.early_starts_) visit(start.state);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const DwaStateId state = order[i];
    const auto first = by_state.begin() + begin[state.value()];
    const auto last = by_state.begin() + begin[state.value() + 1];
    std::sort(first, last,
              [](const FoundTransition& a, const FoundTransition& b) { return a.read < b.read; });
    for (auto t = first; t != last; ++t) {
      if (t->target == DwaStateId{ParserDwa::kBranchBit}) {
        for (std::uint32_t b = t->branch_begin; b < t->branch_end; ++b)
          if (branches[b].target != ParserDwa::kDeadState) visit(branches[b].target);
      } else if (t->target != ParserDwa::kDeadState) {
        visit(t->target);
      }
    }
  }
  if (order.size() != states)
    throw Error(fmt::format("wfa: internal error: {} of {} Parser DWA states are unreachable",
                            states - order.size(), states));

  // Conditions and their sets are numbered as they first appear in the output.
  std::unordered_map<std::uint32_t, std::uint32_t> atom_ids;
  std::unordered_map<std::uint32_t, std::uint32_t> set_ids = {{0u, 0u}};
  const auto output_set = [&](std::uint32_t set) {
    const auto [at, added] = set_ids.try_emplace(
        set, static_cast<std::uint32_t>(result.condition_set_begin_.size() - 1));
    if (!added) return at->second;
    for (const std::uint32_t atom : shared_.condition_sets[set]) {
      const auto [known, new_atom] =
          atom_ids.try_emplace(atom, static_cast<std::uint32_t>(result.conditions_.size()));
      if (new_atom) {
        const std::vector<std::uint32_t>& record = shared_.condition_atoms[atom];
        IndenterCondition condition;
        condition.kind = static_cast<ConditionKind>(record[0] & 0xffu);
        condition.text_kind = static_cast<lexer::IndentTextKind>((record[0] >> 8) & 0xffu);
        condition.value = record[1];
        result.conditions_.push_back(condition);
      }
      result.condition_atoms_.push_back(known->second);
    }
    std::sort(result.condition_atoms_.begin() + result.condition_set_begin_.back(),
              result.condition_atoms_.end());
    result.condition_set_begin_.push_back(
        static_cast<std::uint32_t>(result.condition_atoms_.size()));
    return at->second;
  };
  std::vector<ParserDwaTransition> transitions;
  std::vector<std::uint32_t> transition_begin(1, 0);
  transitions.reserve(by_state.size());
  for (const DwaStateId state : order) {
    for (std::uint32_t i = begin[state.value()]; i < begin[state.value() + 1]; ++i) {
      const FoundTransition& t = by_state[i];
      DwaStateId target = t.target;
      if (t.target == DwaStateId{ParserDwa::kBranchBit}) {
        target = DwaStateId{ParserDwa::kBranchBit |
                            static_cast<std::uint32_t>(result.branch_begin_.size() - 1)};
        for (std::uint32_t b = t.branch_begin; b < t.branch_end; ++b) {
          const ParserDwaBranch& branch = branches[b];
          result.branches_.push_back({output_set(branch.conditions),
                                      branch.target == ParserDwa::kDeadState
                                          ? branch.target
                                          : canonical[branch.target.value()],
                                      branch.weight});
        }
        result.branch_begin_.push_back(static_cast<std::uint32_t>(result.branches_.size()));
      } else if (t.target != ParserDwa::kDeadState) {
        target = canonical[t.target.value()];
      }
      transitions.push_back({t.read, target, t.weight});
    }
    transition_begin.push_back(static_cast<std::uint32_t>(transitions.size()));
  }
  result.transitions_ = std::move(transitions);
  result.transition_begin_ = std::move(transition_begin);
  for (DwaStateId& state : result.start_states_) state = canonical[state.value()];
  for (EarlyStart& start : result.early_starts_) start.state = canonical[start.state.value()];
}

ParserDwa build_parser_dwa(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                           TokenSetPool& pool, std::optional<TokenId> eos,
                           const ParserDwaOptions& options) {
  return ParserDwaBuilder(grammar, dwa, pool, eos, options).build();
}

}  // namespace glrmask::wfa
