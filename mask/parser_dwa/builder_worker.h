// One thread of the Parser DWA construction (private to mask/parser_dwa/). The core of the work
// (expanding continuations, feeding lookaheads, reading the state below) is builder_worker.cpp;
// the indenter strategy's part builder_indenter.cpp; requests, inboxes and budgets
// builder_schedule.cpp.
#pragma once

#include "mask/parser_dwa/builder_model.h"

namespace glrmask::mask::construction {

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
  FlatU64Map pair_ids_;  // (cont, lookahead) -> id
  FlatU64Map item_ids_;  // (pair id, pops, lhs) -> id
  // Per bottom state of the stack: every stack a step builds keeps the state it read at the
  // bottom, so while the worklist runs one read these tables stay in cache.
  std::vector<BasicFlatU64Map<Outcome>> feed_memos_;    // (pair id, stack)
  std::vector<BasicFlatU64Map<Outcome>> expand_memos_;  // (cont, stack)
  // Per LR state read: item id -> outcome. The worklist runs the transitions of one read
  // together, so that read's table stays in cache.
  std::vector<BasicFlatU64Map<Outcome>> step_memos_;
  std::deque<ActionSplit> splits_;  // a deque: feed() holds references across calls
  FlatU64Map split_ids_;            // (lookahead, top) -> index in splits_
  // check_at_top() answers, at [(2 * lookahead + is_guard) * LR states + top]; kNotComputed
  // where not asked yet. Slots past kDenseCheckSlots go to the map: lookaheads times states
  // grows as the square of an object schema's keys, and few of its slots are ever asked.
  static constexpr std::size_t kDenseCheckSlots = std::size_t{1} << 24;
  std::vector<std::uint32_t> checks_at_top_;
  FlatU64Map sparse_checks_at_top_;
  FlatU64Map decided_memo_;     // (pending tokens, accepted) -> decided_by()
  FlatU64Map known_item_sets_;  // content hash -> item set this worker interned or met
  BasicFlatU64Map<DwaStateId> known_states_;  // work -> state, as met by this worker
  std::size_t max_virtual_depth_ = 0;

  FlatU64Map requested_;                                  // (state, read) asked of this worker
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

}  // namespace glrmask::mask::construction
