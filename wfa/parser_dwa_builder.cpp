#include "wfa/parser_dwa_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "glr/lr_table.h"
#include "lexer/flat_u64_map.h"
#include "lexer/fork_ignored_ending.h"
#include "lib/error.h"
#include "lib/hash_mix.h"
#include "wfa/parser_dwa_analysis.h"
#include "wfa/post_lexer_refusal.h"
#include "wfa/shift_verdicts.h"
#include "wfa/virtual_stack.h"

namespace glrmask::wfa {

namespace {

using glr::StateId;
using glr::SymbolId;

// What happens once the lookahead being fed is shifted. Packed as payload << 2 | kind.
enum class ContinuationKind : std::uint32_t {
  kNode = 0,    // continue in the label trie at a node: its weights and edges
  kAccept = 1,  // a weight's check succeeded: the payload is the TokenSetId to accept
  kStart = 2,   // a fork's root: the trie root plus the end-of-input check for EOS
  kGuard = 3,   // can the real stack shift a skippable terminal? (accepts the marker full())
};

constexpr std::uint32_t continuation(ContinuationKind kind, std::uint32_t payload) {
  return payload << 2 | static_cast<std::uint32_t>(kind);
}
constexpr ContinuationKind kind_of(std::uint32_t cont) {
  return static_cast<ContinuationKind>(cont & 3u);
}
constexpr std::uint32_t payload_of(std::uint32_t cont) {
  return cont >> 2;
}

// Terminals fed together: the alternatives of a lexical tie, or every terminal a weight's end fork
// can produce next (any one of them being shiftable accepts the weight). Interned; the reductions
// on a set split it by action, so the LR work is shared by the terminals that act alike.
using LookaheadId = std::uint32_t;
constexpr LookaheadId kNoLookahead = 0xffffffffu;

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
  // Also hashes group lists, flattened (see ParserDwaBuilder::intern_groups).
  std::size_t operator()(const std::vector<std::uint32_t>& terminals) const {
    std::uint64_t h = terminals.size();
    for (const SymbolId terminal : terminals) h = splitmix64_mix(h ^ terminal);
    return static_cast<std::size_t>(h);
  }
  std::size_t operator()(const std::vector<Item>& items) const {
    std::uint64_t h = items.size();
    for (const Item& item : items) {
      h = splitmix64_mix(h ^ (std::uint64_t{item.cont} << 32 | item.lookahead));
      h = splitmix64_mix(h ^ (std::uint64_t{item.pops} << 32 | item.lhs));
    }
    return static_cast<std::size_t>(h);
  }
};

using ItemSetId = std::uint32_t;    // 0 = no items
using GroupListId = std::uint32_t;  // 0 = no groups

// Work that is valid only if some skippable terminals turn out NOT to be shiftable by the real
// stack: the session drops such a terminal only when no stack can shift it (docs/wfa.md, "Guarded
// items"). Each guard is the item set of a pending "can it be shifted?" check; the group dies as
// soon as one guard accepts, and its held tokens and body items become unconditional once every
// guard has died. Groups nest by uniting their guards, so a group's body is plain items.
struct Group {
  std::vector<ItemSetId> guards;  // sorted, unique, non-empty
  TokenSetId held = TokenSetPool::empty();
  ItemSetId body = 0;

  friend bool operator==(const Group&, const Group&) = default;
};

// Suspended work: an item set id, or with kGuardedWork set an index of an interned (item set,
// group list) pair. Plain item sets are by far the common case (every grammar without skippable
// terminals), and keeping them one word keeps the memo tables' slots at 16 bytes.
using WorkId = std::uint32_t;  // 0 = nothing suspended
constexpr WorkId kGuardedWork = 0x80000000u;

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

}  // namespace

class ParserDwaBuilder {
 public:
  ParserDwaBuilder(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                   TokenSetPool& pool, std::optional<TokenId> eos, const ParserDwaOptions& options)
      : grammar_(grammar),
        table_(grammar.table()),
        dwa_(dwa),
        pool_(pool),
        options_(options),
        end_of_input_(grammar.end_of_input()),
        eos_(eos ? pool.singleton(*eos) : TokenSetPool::empty()),
        ends_through_ignored_(lexer::forks_ending_through_ignored(dwa)),
        checks_(dwa.num_nodes()),
        checks_done_(dwa.num_nodes(), 0) {
    item_sets_.emplace_back();  // id 0: the empty set
    item_set_ids_of_items_.emplace_back();
    group_lists_.emplace_back();  // id 0: no groups
    compute_predecessors();
    require_single_stack_for_skippables();
    verdicts_ = std::make_unique<ShiftVerdicts>(table_, predecessors_);
    subtrie_tokens_.assign(dwa.num_nodes(), kNotComputed);
  }

  ParserDwa build();

 private:
  // Accumulates outcomes; items and accepted tokens are merged at the end (accepted() unites the
  // parts once, instead of interning every partial union along the way).
  struct Collector {
    boost::container::small_vector<TokenSetId, 8> accepted_parts;
    boost::container::small_vector<Item, 8> items;
    std::vector<Group> groups;
  };

  void compute_predecessors();
  void require_single_stack_for_skippables() const;
  // The tokens a continuation can still accept; an item whose tokens the current transition
  // already accepts cannot add anything below and is dropped.
  TokenSetId pending(std::uint32_t cont);
  TokenSetId subtrie_tokens(lexer::DwaNodeId node);
  // Sort and deduplicate in place, then intern (scratch vectors avoid an allocation per lookup).
  ItemSetId intern_items(std::span<Item> items);
  GroupListId intern_groups(std::vector<Group>& groups);
  WorkId make_work(ItemSetId items, GroupListId groups);
  ItemSetId items_of(WorkId work) const {
    return (work & kGuardedWork) != 0 ? guarded_work_[work & ~kGuardedWork].first : work;
  }
  GroupListId groups_of(WorkId work) const {
    return (work & kGuardedWork) != 0 ? guarded_work_[work & ~kGuardedWork].second : 0;
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
  Outcome feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack);
  LookaheadId intern_lookahead(std::span<SymbolId> terminals);
  const ActionSplit& action_split(LookaheadId lookahead, StateId top);
  // kCheckSucceeds, kCheckFails, or the lookahead still open (for a guard: is_guard).
  std::uint32_t check_at_top(LookaheadId lookahead, StateId top, bool is_guard);
  LookaheadId intern_lookahead(std::initializer_list<SymbolId> terminals) {
    std::vector<SymbolId> copy(terminals);
    return intern_lookahead(std::span<SymbolId>(copy));
  }
  Outcome step(const Item& item, std::uint32_t id, StateId read);
  std::vector<std::pair<lexer::LabelId, lexer::ForkId>> early_label_pairs() const;
  // The lookahead a label feeds when that does not depend on the stack, else kNoLookahead.
  LookaheadId plain_lookahead(lexer::LabelId label);
  bool decided_by(std::uint32_t cont, TokenSetId accepted);
  std::uint32_t pair_id(std::uint32_t cont, LookaheadId lookahead);
  [[noreturn]] void throw_endless_reductions(LookaheadId lookahead) const;
  std::uint32_t item_id(const Item& item);
  const std::vector<std::pair<LookaheadId, TokenSetId>>& checks(lexer::DwaNodeId node);
  std::pair<DwaStateId, TokenSetId> transition(DwaStateId state, StateId read);
  // What `work` yields on reading the LR state `read` below it.
  Outcome read_below(WorkId work, StateId read);
  Outcome expand_over(std::uint32_t cont, StateId target, VirtualStackId below);
  DwaStateId state_for(WorkId work);
  // Queues the transitions of `state` on `reads` that were not queued before.
  void request(DwaStateId state, const std::vector<StateId>& reads);

  const glr::CompiledGrammar& grammar_;
  const glr::LrTable& table_;
  const lexer::TerminalDwa& dwa_;
  TokenSetPool& pool_;
  ParserDwaOptions options_;
  SymbolId end_of_input_;
  TokenSetId eos_;
  std::vector<char> ends_through_ignored_;

  VirtualStackPool stacks_;
  std::vector<Item> scratch_items_;
  std::vector<SymbolId> scratch_terminals_;
  std::vector<std::vector<Item>> item_sets_;
  // Per item set, item_id() of each item: resuming a set is then one memo lookup per item.
  std::vector<std::vector<std::uint32_t>> item_set_ids_of_items_;
  std::unordered_map<std::vector<Item>, ItemSetId, ItemsHash> item_set_ids_;
  std::vector<std::vector<Group>> group_lists_;
  std::unordered_map<std::vector<std::uint32_t>, GroupListId, ItemsHash> group_list_ids_;
  std::vector<std::uint32_t> scratch_flat_groups_;
  std::vector<std::pair<ItemSetId, GroupListId>> guarded_work_;
  lexer::FlatU64Map guarded_work_ids_;  // (item set, group list) -> index
  std::vector<std::vector<SymbolId>> lookaheads_;
  std::unordered_map<std::vector<SymbolId>, LookaheadId, ItemsHash> lookahead_ids_;
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
  // where not asked yet.
  std::vector<std::uint32_t> checks_at_top_;
  static constexpr LookaheadId kUnknownLookahead = 0xfffffffeu;
  std::vector<LookaheadId> plain_lookaheads_;  // per label: plain_lookahead(), kUnknownLookahead
  lexer::FlatU64Map decided_memo_;             // (pending tokens, accepted) -> decided_by()
  // Per trie node: (what the end fork can produce next, the tokens of the weights with that end
  // behaviour); the end of input counts as a terminal for forks that can finish.
  std::vector<std::vector<std::pair<LookaheadId, TokenSetId>>> checks_;
  std::vector<char> checks_done_;

  static constexpr std::uint32_t kNotComputed = 0xffffffffu;
  std::unique_ptr<ShiftVerdicts> verdicts_;
  std::vector<std::uint32_t> subtrie_tokens_;  // per trie node: TokenSetId value or kNotComputed
  std::vector<StateId> first_reads_;           // states a run may read first
  std::vector<std::vector<StateId>> predecessors_;  // per state, ascending
  // A Parser DWA state is a set of items plus guarded groups. Its transitions are needed on every
  // state that can sit below a state it was reached by reading, so the reads to expand accumulate
  // per state.
  std::vector<WorkId> states_;
  lexer::FlatU64Map state_ids_;           // work -> state
  std::vector<std::uint64_t> requested_;  // per state, a bitset over LR states
  std::size_t request_words_ = 0;
  std::vector<std::vector<DwaStateId>> pending_by_read_;  // states to expand, per LR state read
  std::vector<StateId> reads_with_work_;  // reads whose bucket was empty when work arrived
  std::vector<std::vector<ParserDwaTransition>> transitions_;  // per state, in discovery order
  std::size_t max_virtual_depth_ = 0;
};

void ParserDwaBuilder::compute_predecessors() {
  const std::uint32_t n = table_.num_states();
  predecessors_.assign(n, {});
  std::vector<char> first(n, 0);
  first[0] = 1;
  for (StateId x = 0; x < n; ++x) {
    for (std::uint32_t cell = table_.row_begin(x); cell < table_.row_end(x); ++cell) {
      for (const glr::Action action : table_.cell_actions(cell)) {
        if (!action.is_shift()) continue;
        predecessors_[action.target()].push_back(x);
        first[action.target()] = 1;
      }
    }
    for (const glr::LrTable::GotoEntry& entry : table_.gotos(x))
      predecessors_[entry.target].push_back(x);
  }
  for (std::vector<StateId>& list : predecessors_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  for (StateId x = 0; x < n; ++x)
    if (first[x] != 0) first_reads_.push_back(x);
}

void ParserDwaBuilder::require_single_stack_for_skippables() const {
  if (grammar_.skippable_terminals().empty()) return;
  const std::string skippable =
      grammar_.grammar().terminals()[grammar_.skippable_terminals().front()].name;
  const auto terminal_name = [&](SymbolId terminal) {
    return terminal < grammar_.grammar().terminals().size()
               ? grammar_.grammar().terminals()[terminal].name
               : std::string("$END");
  };
  const auto refuse = [&](const std::string& fork) {
    throw Error(fmt::format(
        "wfa: the skippable terminal '{}' is dropped only when no stack can shift it, a condition "
        "over all stacks together, but the Parser DWA decides it per stack; the two agree only "
        "when the session never holds two stacks, and {} (use --policy lark, or the spanner "
        "engine)",
        skippable, fork));
  };
  for (StateId state = 0; state < table_.num_states(); ++state)
    for (std::uint32_t cell = table_.row_begin(state); cell < table_.row_end(state); ++cell)
      if (table_.cell_actions(cell).size() > 1)
        refuse(fmt::format("LR state {} forks on terminal '{}'", state,
                           terminal_name(table_.cell_terminal(cell))));
  const lexer::LexerDfa& dfa = dwa_.dfa();
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    const std::span<const std::uint32_t> tie = dfa.label_terminals(label);
    if (tie.size() > 1)
      refuse(fmt::format("the lexer emits a tie between '{}' and '{}'",
                         dfa.terminals()[tie[0]].name, dfa.terminals()[tie[1]].name));
  }
}

ItemSetId ParserDwaBuilder::intern_items(std::span<Item> items) {
  if (items.empty()) return 0;
  std::sort(items.begin(), items.end());
  scratch_items_.assign(items.begin(), std::unique(items.begin(), items.end()));
  if (const auto it = item_set_ids_.find(scratch_items_); it != item_set_ids_.end())
    return it->second;
  const auto id = static_cast<ItemSetId>(item_sets_.size());
  item_sets_.push_back(scratch_items_);
  item_set_ids_.emplace(scratch_items_, id);
  item_set_ids_of_items_.emplace_back();  // filled when the set is first advanced
  return id;
}

GroupListId ParserDwaBuilder::intern_groups(std::vector<Group>& groups) {
  // Canonical form: groups with the same guards merged, sorted by guards, empty ones dropped.
  std::sort(groups.begin(), groups.end(),
            [](const Group& a, const Group& b) { return a.guards < b.guards; });
  std::vector<Group> merged;
  for (std::size_t i = 0; i < groups.size();) {
    Group group = groups[i];
    std::vector<Item> body(item_sets_[group.body]);
    std::size_t j = i + 1;
    for (; j < groups.size() && groups[j].guards == group.guards; ++j) {
      group.held = pool_.unite(group.held, groups[j].held);
      const std::vector<Item>& more = item_sets_[groups[j].body];
      body.insert(body.end(), more.begin(), more.end());
    }
    if (j > i + 1) group.body = intern_items(body);
    if (!group.held.is_empty() || group.body != 0) merged.push_back(std::move(group));
    i = j;
  }
  if (merged.empty()) return 0;
  scratch_flat_groups_.clear();
  for (const Group& group : merged) {
    scratch_flat_groups_.push_back(static_cast<std::uint32_t>(group.guards.size()));
    scratch_flat_groups_.insert(scratch_flat_groups_.end(), group.guards.begin(),
                                group.guards.end());
    scratch_flat_groups_.push_back(group.held.value());
    scratch_flat_groups_.push_back(group.body);
  }
  if (const auto it = group_list_ids_.find(scratch_flat_groups_); it != group_list_ids_.end())
    return it->second;
  const auto id = static_cast<GroupListId>(group_lists_.size());
  group_lists_.push_back(std::move(merged));
  group_list_ids_.emplace(scratch_flat_groups_, id);
  return id;
}

WorkId ParserDwaBuilder::make_work(ItemSetId items, GroupListId groups) {
  if (groups == 0) return items;
  const auto index = guarded_work_ids_
                         .find_or_insert(std::uint64_t{items} << 32 | groups,
                                         static_cast<std::uint32_t>(guarded_work_.size()))
                         .first;
  if (index == guarded_work_.size()) guarded_work_.emplace_back(items, groups);
  if (index >= kGuardedWork) throw Error("wfa: too many guarded Parser DWA configurations");
  return kGuardedWork | index;
}

TokenSetId ParserDwaBuilder::accepted(Collector& collector) {
  auto& parts = collector.accepted_parts;
  if (parts.size() <= 1) return parts.empty() ? TokenSetPool::empty() : parts.front();
  const TokenSetId all = pool_.unite_all({parts.data(), parts.size()});
  parts.assign(1, all);
  return all;
}

Outcome ParserDwaBuilder::finish(Collector& collector) {
  const ItemSetId items = intern_items({collector.items.data(), collector.items.size()});
  const GroupListId groups = collector.groups.empty() ? 0 : intern_groups(collector.groups);
  return {accepted(collector), make_work(items, groups)};
}

void ParserDwaBuilder::merge(Collector& into, const Outcome& outcome) {
  if (!outcome.accepted.is_empty()) into.accepted_parts.push_back(outcome.accepted);
  const std::vector<Item>& items = item_sets_[items_of(outcome.work)];
  into.items.insert(into.items.end(), items.begin(), items.end());
  if ((outcome.work & kGuardedWork) != 0) {
    const std::vector<Group>& groups = group_lists_[groups_of(outcome.work)];
    into.groups.insert(into.groups.end(), groups.begin(), groups.end());
  }
}

void ParserDwaBuilder::merge_guarded(Collector& into, const std::vector<ItemSetId>& guards,
                                     const Outcome& outcome) {
  into.groups.push_back({guards, outcome.accepted, items_of(outcome.work)});
  for (const Group& inner : group_lists_[groups_of(outcome.work)]) {
    Group group = inner;
    group.guards.insert(group.guards.end(), guards.begin(), guards.end());
    std::sort(group.guards.begin(), group.guards.end());
    group.guards.erase(std::unique(group.guards.begin(), group.guards.end()), group.guards.end());
    into.groups.push_back(std::move(group));
  }
}

void ParserDwaBuilder::drop_skippable(Collector& into, SymbolId terminal, std::uint32_t child,
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

void ParserDwaBuilder::advance(Collector& into, ItemSetId items, StateId read) {
  if (item_set_ids_of_items_[items].empty() && items != 0) {
    std::vector<std::uint32_t> ids;
    ids.reserve(item_sets_[items].size());
    for (const Item& item : item_sets_[items]) ids.push_back(item.pops > 0 ? 0 : item_id(item));
    item_set_ids_of_items_[items] = std::move(ids);
  }
  const std::vector<std::uint32_t>& ids = item_set_ids_of_items_[items];
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (item_sets_[items][i].pops == 0) step_memos_[read].prefetch(ids[i]);
  // Indexing, not references: step() may intern item sets and reallocate item_sets_.
  for (std::size_t i = 0; i < item_sets_[items].size(); ++i) {
    Item item = item_sets_[items][i];
    if (item.pops > 0) {
      --item.pops;
      into.items.push_back(item);
    } else {
      merge(into, step(item, item_set_ids_of_items_[items][i], read));
    }
  }
}

LookaheadId ParserDwaBuilder::intern_lookahead(std::span<SymbolId> terminals) {
  std::sort(terminals.begin(), terminals.end());
  scratch_terminals_.assign(terminals.begin(), std::unique(terminals.begin(), terminals.end()));
  if (const auto it = lookahead_ids_.find(scratch_terminals_); it != lookahead_ids_.end())
    return it->second;
  const auto id = static_cast<LookaheadId>(lookaheads_.size());
  lookaheads_.push_back(scratch_terminals_);
  lookahead_ids_.emplace(scratch_terminals_, id);
  return id;
}

const ActionSplit& ParserDwaBuilder::action_split(LookaheadId lookahead, StateId top) {
  const auto [index, added] = split_ids_.find_or_insert(std::uint64_t{lookahead} << 32 | top,
                                                        static_cast<std::uint32_t>(splits_.size()));
  if (!added) return splits_[index];
  ActionSplit& split = splits_.emplace_back();
  boost::container::small_vector<
      std::pair<glr::RuleId, boost::container::small_vector<SymbolId, 8>>, 4>
      reductions;
  for (const SymbolId terminal : lookaheads_[lookahead]) {
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

std::uint32_t ParserDwaBuilder::check_at_top(LookaheadId lookahead, StateId top, bool is_guard) {
  const std::size_t slot =
      (std::size_t{lookahead} * 2 + (is_guard ? 1 : 0)) * table_.num_states() + top;
  if (slot >= checks_at_top_.size())
    checks_at_top_.resize(std::max(slot + 1, checks_at_top_.size() * 2), kNotComputed);
  if (checks_at_top_[slot] != kNotComputed) return checks_at_top_[slot];
  std::uint32_t verdict = kCheckFails;
  boost::container::small_vector<SymbolId, 16> open;
  for (const SymbolId terminal : lookaheads_[lookahead]) {
    // Skippable terminals are always takeable (IncrementalRecognizer::can_take); a guard asks
    // whether one is really shiftable.
    const ShiftVerdict shift =
        !is_guard && terminal != end_of_input_ && grammar_.is_skippable(terminal)
            ? ShiftVerdict::kSure
            : verdicts_->verdict(top, terminal);
    if (shift == ShiftVerdict::kSure) {
      verdict = kCheckSucceeds;
      break;
    }
    if (shift == ShiftVerdict::kDepends) open.push_back(terminal);
  }
  if (verdict != kCheckSucceeds && !open.empty())
    verdict = open.size() == lookaheads_[lookahead].size()
                  ? lookahead
                  : intern_lookahead({open.data(), open.size()});
  checks_at_top_[slot] = verdict;
  return verdict;
}

const std::vector<std::pair<LookaheadId, TokenSetId>>& ParserDwaBuilder::checks(
    lexer::DwaNodeId node) {
  if (checks_done_[node] != 0) return checks_[node];
  std::vector<std::pair<LookaheadId, TokenSetId>> list;
  for (const lexer::DwaWeight& weight : dwa_.weights(node)) {
    const std::span<const std::uint32_t> next = dwa_.next_terminals(weight.end);
    std::vector<SymbolId> terminals(next.begin(), next.end());
    if (dwa_.can_finish(weight.end) || ends_through_ignored_[weight.end] != 0)
      terminals.push_back(end_of_input_);
    if (terminals.empty()) continue;
    const LookaheadId lookahead = intern_lookahead(std::span<SymbolId>(terminals));
    const auto same = std::find_if(list.begin(), list.end(),
                                   [&](const auto& entry) { return entry.first == lookahead; });
    if (same != list.end()) {
      same->second = pool_.unite(same->second, weight.tokens);
    } else {
      list.emplace_back(lookahead, weight.tokens);
    }
  }
  checks_[node] = std::move(list);
  checks_done_[node] = 1;
  return checks_[node];
}

TokenSetId ParserDwaBuilder::subtrie_tokens(lexer::DwaNodeId node) {
  if (subtrie_tokens_[node] != kNotComputed) return TokenSetId{subtrie_tokens_[node]};
  TokenSetId tokens = TokenSetPool::empty();
  for (const lexer::DwaWeight& weight : dwa_.weights(node))
    tokens = pool_.unite(tokens, weight.tokens);
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    tokens = pool_.unite(tokens, subtrie_tokens(edge.child));
  subtrie_tokens_[node] = tokens.value();
  return tokens;
}

// Whether everything `cont` can still accept is accepted already. Many items of one continuation
// meet the same accepted set, and a subset test of large sets costs more than finding the pair.
bool ParserDwaBuilder::decided_by(std::uint32_t cont, TokenSetId accepted) {
  const TokenSetId tokens = pending(cont);
  const std::uint64_t key = std::uint64_t{tokens.value()} << 32 | accepted.value();
  if (const std::uint32_t* known = decided_memo_.find(key)) return *known != 0;
  const bool decided = pool_.is_subset(tokens, accepted);
  decided_memo_.find_or_insert(key, decided ? 1 : 0);
  return decided;
}

TokenSetId ParserDwaBuilder::pending(std::uint32_t cont) {
  switch (kind_of(cont)) {
    case ContinuationKind::kAccept:
      return TokenSetId{payload_of(cont)};
    case ContinuationKind::kNode:
      return subtrie_tokens(payload_of(cont));
    case ContinuationKind::kStart:
      return pool_.unite(subtrie_tokens(dwa_.root(payload_of(cont))), eos_);
    case ContinuationKind::kGuard:
      return TokenSetPool::full();
  }
  return TokenSetPool::full();
}

Outcome ParserDwaBuilder::expand(std::uint32_t cont, VirtualStackId stack) {
  const std::uint64_t key = std::uint64_t{cont} << 32 | stack;
  if (const Outcome* memo = expand_memos_[stacks_.bottom(stack)].find(key)) {
    if (in_progress(*memo)) throw_endless_reductions(kNoLookahead);
    return *memo;
  }
  expand_memos_[stacks_.bottom(stack)].assign(key, kInProgress);
  Collector collector;
  const lexer::LexerDfa& dfa = dwa_.dfa();
  lexer::DwaNodeId node = 0;
  if (kind_of(cont) == ContinuationKind::kStart) {
    const lexer::ForkId fork = payload_of(cont);
    node = dwa_.root(fork);
    if (dwa_.can_finish(fork) && !eos_.is_empty())
      merge(collector, feed(intern_lookahead({end_of_input_}),
                            continuation(ContinuationKind::kAccept, eos_.value()), stack));
  } else {
    node = payload_of(cont);
  }
  for (const auto& [lookahead, tokens] : checks(node))
    merge(collector,
          feed(lookahead, continuation(ContinuationKind::kAccept, tokens.value()), stack));
  // Edges whose label feeds a fixed lookahead: overlap their memo lookups.
  for (const lexer::DwaEdge& edge : dwa_.edges(node))
    if (const LookaheadId lookahead = plain_lookahead(edge.label); lookahead != kNoLookahead)
      feed_memos_[stacks_.bottom(stack)].prefetch(
          std::uint64_t{pair_id(continuation(ContinuationKind::kNode, edge.child), lookahead)}
              << 32 |
          stack);
  for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
    const std::uint32_t child = continuation(ContinuationKind::kNode, edge.child);
    if (const LookaheadId lookahead = plain_lookahead(edge.label); lookahead != kNoLookahead) {
      merge(collector, feed(lookahead, child, stack));
      continue;
    }
    if (dfa.label_is_ignored(edge.label)) {
      merge(collector, expand(child, stack));
      continue;
    }
    std::vector<SymbolId> alternatives;
    bool skip = false;  // a tie with an ignored terminal: the parser may skip the label
    for (const std::uint32_t terminal : dfa.label_terminals(edge.label)) {
      if (dfa.terminals()[terminal].ignored) {
        skip = true;
      } else if (!grammar_.is_skippable(terminal)) {
        alternatives.push_back(terminal);
      } else {
        // A skippable terminal is shifted where the stacks can take it and dropped where they
        // cannot (IncrementalRecognizer::feed_token). Which one happens must be decided by the
        // top state alone, because the dropped branch keeps the stack as it is.
        switch (verdicts_->verdict(stacks_.top(stack), terminal)) {
          case ShiftVerdict::kSure:
            alternatives.push_back(terminal);
            break;
          case ShiftVerdict::kNever:
            skip = true;
            break;
          case ShiftVerdict::kDepends:
            alternatives.push_back(terminal);  // the shift fails by itself where it cannot
            drop_skippable(collector, terminal, child, stack);
            break;
        }
      }
    }
    if (skip) merge(collector, expand(child, stack));
    if (!alternatives.empty())
      merge(collector, feed(intern_lookahead(std::span<SymbolId>(alternatives)), child, stack));
  }
  const Outcome outcome = finish(collector);
  expand_memos_[stacks_.bottom(stack)].assign(key, outcome);
  return outcome;
}

Outcome ParserDwaBuilder::feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack) {
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
      merge(collector, kind_of(cont) == ContinuationKind::kStart
                           ? expand_over(cont, target, stack)
                           : expand(cont, stacks_.push(target, stack)));
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
    if (pushed == stack || stacks_.depth(pushed) > options_.max_virtual_depth) {
      const SymbolId terminal = lookaheads_[reduced].front();
      throw Error(fmt::format(
          "wfa: the reductions on terminal '{}' never end: rule {} ({}) at {} repeats "
          "without consuming input (a derivation cycle or hidden left recursion)",
          terminal < grammar_.grammar().terminals().size()
              ? grammar_.grammar().terminals()[terminal].name
              : std::string("$END"),
          rule, grammar_.lalr().grammar().rule_text(rule), grammar_.lalr().grammar().origin(rule)));
    }
    merge(collector, feed(reduced, cont, pushed));
  }
  const Outcome outcome = finish(collector);
  feed_memos_[stacks_.bottom(stack)].assign(key, outcome);
  return outcome;
}

void ParserDwaBuilder::throw_endless_reductions(LookaheadId lookahead) const {
  std::string terminal = "an ignored label";
  if (lookahead != kNoLookahead) {
    const SymbolId first = lookaheads_[lookahead].front();
    terminal = first < grammar_.grammar().terminals().size()
                   ? "'" + grammar_.grammar().terminals()[first].name + "'"
                   : std::string("$END");
  }
  throw Error(fmt::format(
      "wfa: the reductions on {} never end: they return to the same stack without consuming "
      "input (a derivation cycle such as a rule A: A A with A nullable, or A =>+ A)",
      terminal));
}

std::uint32_t ParserDwaBuilder::pair_id(std::uint32_t cont, LookaheadId lookahead) {
  return pair_ids_
      .find_or_insert(std::uint64_t{cont} << 32 | lookahead,
                      static_cast<std::uint32_t>(pair_ids_.size()))
      .first;
}

std::uint32_t ParserDwaBuilder::item_id(const Item& item) {
  // Rules are short and symbol ids small; the packing below relies on both.
  if (item.pops >= 256 || (item.lhs != glr::kNoSymbol && item.lhs >= 0xffffffu))
    throw Error(
        fmt::format("wfa: grammar too large for the Parser DWA's item packing ({} pops, "
                    "symbol {})",
                    item.pops, item.lhs));
  const std::uint32_t lhs = item.lhs == glr::kNoSymbol ? 0xffffffu : item.lhs;
  const std::uint64_t key =
      std::uint64_t{pair_id(item.cont, item.lookahead)} << 32 | item.pops << 24 | lhs;
  return item_ids_.find_or_insert(key, static_cast<std::uint32_t>(item_ids_.size())).first;
}

Outcome ParserDwaBuilder::step(const Item& item, std::uint32_t id, StateId read) {
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
  if (alive)
    outcome = item.lookahead == kNoLookahead ? expand(item.cont, stack)
                                             : feed(item.lookahead, item.cont, stack);
  step_memos_[read].find_or_insert(id, outcome);
  return outcome;
}

std::pair<DwaStateId, TokenSetId> ParserDwaBuilder::transition(DwaStateId state, StateId read) {
  const Outcome outcome = read_below(states_[state], read);
  const DwaStateId target = outcome.work == 0 ? ParserDwa::kDeadState : state_for(outcome.work);
  return {target, outcome.accepted};
}

Outcome ParserDwaBuilder::read_below(WorkId work, StateId read) {
  const ItemSetId items = items_of(work);
  const GroupListId groups = groups_of(work);
  Collector collector;
  advance(collector, items, read);
  // Copy: advance() may intern new group lists.
  const std::vector<Group> guarded = group_lists_[groups];
  for (const Group& group : guarded) {
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
  if (predecessors_[read].empty()) {
    // Nothing lies below `read` (the LR start state, the bottom of every stack): items die and
    // every guard failed, so the held tokens are allowed.
    for (const Group& group : collector.groups)
      if (!group.held.is_empty()) collector.accepted_parts.push_back(group.held);
    collector.items.clear();
    collector.groups.clear();
  }
  if (const TokenSetId all = accepted(collector); !all.is_empty()) {
    // Items come in runs of one continuation (item sets are sorted), so remember the last answer.
    std::uint32_t last_cont = 0xffffffffu;
    bool last_decided = false;
    const auto decided = [&](const Item& item) {
      if (item.cont != last_cont) {
        last_cont = item.cont;
        last_decided = decided_by(item.cont, all);
      }
      return last_decided;
    };
    collector.items.erase(std::remove_if(collector.items.begin(), collector.items.end(), decided),
                          collector.items.end());
    for (Group& group : collector.groups) {
      group.held = pool_.subtract(group.held, all);
      std::vector<Item> body(item_sets_[group.body]);
      body.erase(std::remove_if(body.begin(), body.end(), decided), body.end());
      group.body = intern_items(body);
    }
  }
  return finish(collector);
}

// Equivalent to expand(cont, push(target, below)) for a virtual stack `below`, but shares the
// work: the fork's root is expanded on `target` alone (the memo entry every plain start state
// uses), and what that leaves suspended reads the states of `below` as it would read the real
// stack. Expanding on the whole stack instead made the early-label start states (kStart behind a
// feed) cost as much as all the other states together.
Outcome ParserDwaBuilder::expand_over(std::uint32_t cont, StateId target, VirtualStackId below) {
  Outcome outcome = expand(cont, stacks_.push(target, VirtualStackPool::kEmpty));
  TokenSetId accepted = outcome.accepted;
  for (VirtualStackId rest = below; rest != VirtualStackPool::kEmpty && outcome.work != 0;
       rest = stacks_.pop(rest, 1)) {
    outcome = read_below(outcome.work, stacks_.top(rest));
    accepted = pool_.unite(accepted, outcome.accepted);
  }
  return {accepted, outcome.work};
}

DwaStateId ParserDwaBuilder::state_for(WorkId work) {
  const auto [state, added] =
      state_ids_.find_or_insert(work, static_cast<DwaStateId>(states_.size()));
  if (added) {
    states_.push_back(work);
    requested_.resize(requested_.size() + request_words_, 0);
    transitions_.emplace_back();
  }
  return state;
}

void ParserDwaBuilder::request(DwaStateId state, const std::vector<StateId>& reads) {
  std::uint64_t* bits = requested_.data() + std::size_t{state} * request_words_;
  for (const StateId read : reads) {
    const std::uint64_t bit = std::uint64_t{1} << (read % 64);
    if ((bits[read / 64] & bit) != 0) continue;
    bits[read / 64] |= bit;
    if (pending_by_read_[read].empty()) reads_with_work_.push_back(read);
    pending_by_read_[read].push_back(state);
  }
}

// A session's configuration with an accepted lexeme enters the Terminal DWA twice: the lexeme
// going on, and its label committed with the bytes after it lexed again, in a fork inhibited by
// the configuration's state (lexer_fork.h). At a token boundary right after the lexeme (nothing
// pending: the most common case by far, e.g. after an identifier) that fork is the start state
// with inhibitors, and the DWA records the same (label, fork) wherever one token ends just after
// such a lexeme: an edge on the label into a node with a weight ending in that fork. Those pairs
// get start states. Forks with bytes pending after the lexeme would add states for rare steps;
// such entries, like any the DWA never recorded, are fed to the parser at get_mask time.
std::vector<std::pair<lexer::LabelId, lexer::ForkId>> ParserDwaBuilder::early_label_pairs() const {
  std::vector<std::pair<lexer::LabelId, lexer::ForkId>> pairs;
  for (lexer::DwaNodeId node = 0; node < dwa_.num_nodes(); ++node) {
    for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
      for (const lexer::DwaWeight& weight : dwa_.weights(edge.child))
        if (!dwa_.fork(weight.end).inhibitors.empty() && dwa_.can_finish(weight.end))
          pairs.emplace_back(edge.label, weight.end);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// The lookahead a start state feeds for an early label, or kNoLookahead for labels whose feed
// is not a plain shift: ignored or skippable terminals, whose handling depends on the stacks
// (IncrementalRecognizer::feed_token); the engine feeds those itself.
LookaheadId ParserDwaBuilder::plain_lookahead(lexer::LabelId label) {
  if (plain_lookaheads_.empty())
    plain_lookaheads_.assign(dwa_.dfa().num_labels(), kUnknownLookahead);
  LookaheadId& known = plain_lookaheads_[label];
  if (known != kUnknownLookahead) return known;
  const lexer::LexerDfa& dfa = dwa_.dfa();
  known = kNoLookahead;
  if (dfa.label_is_ignored(label)) return known;
  std::vector<SymbolId> terminals;
  for (const std::uint32_t terminal : dfa.label_terminals(label)) {
    if (dfa.terminals()[terminal].ignored || grammar_.is_skippable(terminal)) return known;
    terminals.push_back(terminal);
  }
  if (!terminals.empty()) known = intern_lookahead(std::span<SymbolId>(terminals));
  return known;
}

ParserDwa ParserDwaBuilder::build() {
  const auto started = std::chrono::steady_clock::now();
  request_words_ = (std::size_t{table_.num_states()} + 63) / 64;
  pending_by_read_.resize(table_.num_states());
  step_memos_.resize(table_.num_states(), lexer::BasicFlatU64Map<Outcome>(16));
  feed_memos_.resize(table_.num_states(), lexer::BasicFlatU64Map<Outcome>(16));
  expand_memos_.resize(table_.num_states(), lexer::BasicFlatU64Map<Outcome>(16));
  ParserDwa result;
  result.start_states_.reserve(dwa_.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa_.num_forks(); ++fork) {
    Item start{continuation(ContinuationKind::kStart, fork), kNoLookahead, 0, glr::kNoSymbol};
    const ItemSetId items = intern_items({&start, 1});
    const DwaStateId state = state_for(items);
    result.start_states_.push_back(state);
    request(state, first_reads_);
  }
  const std::vector<std::pair<lexer::LabelId, lexer::ForkId>> early_pairs =
      options_.early_label_starts ? early_label_pairs()
                                  : std::vector<std::pair<lexer::LabelId, lexer::ForkId>>{};
  for (const auto& [label, fork] : early_pairs) {
    const LookaheadId lookahead = plain_lookahead(label);
    if (lookahead == kNoLookahead) continue;
    Item start{continuation(ContinuationKind::kStart, fork), lookahead, 0, glr::kNoSymbol};
    const DwaStateId state = state_for(intern_items({&start, 1}));
    result.early_starts_.push_back({label, fork, state});
    request(state, first_reads_);
  }
  while (!reads_with_work_.empty()) {
    const StateId read = reads_with_work_.back();
    reads_with_work_.pop_back();
    std::vector<DwaStateId>& bucket = pending_by_read_[read];  // the outer vector never grows
    while (!bucket.empty()) {
      const DwaStateId state = bucket.back();
      bucket.pop_back();
      const auto [target, weight] = transition(state, read);
      if (target == ParserDwa::kDeadState && weight.is_empty()) continue;
      transitions_[state].push_back({read, target, weight});
      if (target != ParserDwa::kDeadState) request(target, predecessors_[read]);
    }
  }
  for (std::vector<ParserDwaTransition>& list : transitions_) {
    std::sort(
        list.begin(), list.end(),
        [](const ParserDwaTransition& a, const ParserDwaTransition& b) { return a.read < b.read; });
    result.transitions_.insert(result.transitions_.end(), list.begin(), list.end());
    result.transition_begin_.push_back(static_cast<std::uint32_t>(result.transitions_.size()));
    std::vector<ParserDwaTransition>().swap(list);
  }
  ParserDwaStats& stats = result.stats_;
  stats.states = states_.size();
  stats.early_starts = result.early_starts_.size();
  stats.transitions = result.transitions_.size();
  std::vector<std::uint32_t> weights;
  for (const ParserDwaTransition& t : result.transitions_)
    if (!t.weight.is_empty()) weights.push_back(t.weight.value());
  std::sort(weights.begin(), weights.end());
  stats.distinct_weights =
      static_cast<std::size_t>(std::unique(weights.begin(), weights.end()) - weights.begin());
  for (const WorkId work : states_) {
    const GroupListId groups = groups_of(work);
    std::size_t count = item_sets_[items_of(work)].size();
    for (const Group& group : group_lists_[groups]) {
      count += item_sets_[group.body].size();
      for (const ItemSetId guard : group.guards) count += item_sets_[guard].size();
    }
    stats.suspended_items += count;
    stats.max_items_per_state = std::max(stats.max_items_per_state, count);
    stats.guarded_states += groups != 0 ? 1 : 0;
  }
  stats.max_virtual_depth = max_virtual_depth_;
  for (const lexer::BasicFlatU64Map<Outcome>& memo : feed_memos_)
    stats.feed_memo_entries += memo.size();
  for (const lexer::BasicFlatU64Map<Outcome>& memo : expand_memos_)
    stats.expand_memo_entries += memo.size();
  const ReadDepthSummary depth = summarize_read_depth(result);
  stats.has_cycles = depth.has_cycles;
  stats.longest_acyclic_read = depth.longest_acyclic_read;
  stats.build_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

ParserDwa build_parser_dwa(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                           TokenSetPool& pool, std::optional<TokenId> eos,
                           const ParserDwaOptions& options) {
  refuse_post_lexer(grammar, "wfa");
  return ParserDwaBuilder(grammar, dwa, pool, eos, options).build();
}

}  // namespace glrmask::wfa
