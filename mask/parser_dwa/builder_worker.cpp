#include "mask/parser_dwa/builder_worker.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "lib/core/check.h"
#include "lib/core/error.h"
#include "mask/parser_dwa/builder_preparation.h"

namespace glrmask::mask::construction {

ParserDwaWorker::ParserDwaWorker(ParserDwaShared& shared, ParserDwaSchedule& schedule,
                                 std::size_t index)
    : shared_(shared),
      schedule_(schedule),
      index_(index),
      table_(shared.table),
      dwa_(shared.dwa),
      feed_memos_(shared.table.num_states(), BasicFlatU64Map<Outcome>(16)),
      expand_memos_(shared.table.num_states(), BasicFlatU64Map<Outcome>(16)),
      step_memos_(shared.table.num_states(), BasicFlatU64Map<Outcome>(16)),
      pending_by_read_(shared.table.num_states()),
      outboxes_(schedule.inboxes.size()) {}

std::size_t ParserDwaWorker::feed_memo_entries() const {
  std::size_t entries = 0;
  for (const BasicFlatU64Map<Outcome>& memo : feed_memos_) entries += memo.size();
  return entries;
}

std::size_t ParserDwaWorker::expand_memo_entries() const {
  std::size_t entries = 0;
  for (const BasicFlatU64Map<Outcome>& memo : expand_memos_) entries += memo.size();
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
  if (hash != FlatU64Map::kVacant) known_item_sets_.find_or_insert(hash, id);
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
#if GLRMASK_DCHECK_IS_ON
  for (const Group& group : merged) {
    // The canonical form Group's comment states: guards sorted, unique and non-empty.
    GLRMASK_DCHECK(!group.guards.empty(), "a group without guards");
    GLRMASK_DCHECK(std::adjacent_find(group.guards.begin(), group.guards.end(),
                                      std::greater_equal<>()) == group.guards.end(),
                   "a group's guards are not sorted and unique");
    GLRMASK_DCHECK(!group.positive || (group.guards.size() == 1 && group.body == 0),
                   "a positive group has one guard and no body");
  }
#endif
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
  if (id >= kConditionalWork)
    throw Error("wfa: too many conditional Parser DWA configurations", ErrorCode::kLimit);
  return {all, kConditionalWork | id};
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
      throw EndlessReductionsError(
          fmt::format("wfa: the reductions on terminal '{}' never end: rule {} ({}) at {} repeats "
                      "without consuming input (a derivation cycle or hidden left recursion)",
                      terminal < shared_.grammar.grammar().terminals().size()
                          ? shared_.grammar.grammar().terminals()[terminal].name
                          : std::string("$END"),
                      rule, shared_.grammar.lalr().grammar().rule_text(rule),
                      shared_.grammar.lalr().grammar().origin(rule)));
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
  throw EndlessReductionsError(fmt::format(
      "wfa: the reductions on {} never end: they return to the same stack without consuming "
      "input (a derivation cycle such as a rule A: A A with A nullable, or A =>+ A)",
      terminal));
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

}  // namespace glrmask::mask::construction
