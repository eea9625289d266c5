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
#include "wfa/parser_dwa_analysis.h"
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

// splitmix64's finalizer: every input bit affects every output bit, so keys that differ in one
// packed field do not collide in the low bits the tables use.
constexpr std::uint64_t mix(std::uint64_t key) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ULL;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebULL;
  key ^= key >> 31;
  return key;
}

struct ItemsHash {
  std::size_t operator()(const std::vector<SymbolId>& terminals) const {
    std::uint64_t h = terminals.size();
    for (const SymbolId terminal : terminals) h = mix(h ^ terminal);
    return static_cast<std::size_t>(h);
  }
  std::size_t operator()(const std::vector<Item>& items) const {
    std::uint64_t h = items.size();
    for (const Item& item : items) {
      h = mix(h ^ (std::uint64_t{item.cont} << 32 | item.lookahead));
      h = mix(h ^ (std::uint64_t{item.pops} << 32 | item.lhs));
    }
    return static_cast<std::size_t>(h);
  }
};

using ItemSetId = std::uint32_t;  // 0 = no items

// What a piece of work yields: the tokens it proved allowed and the items it left suspended.
struct Outcome {
  TokenSetId accepted = TokenSetPool::empty();
  ItemSetId items = 0;
};

// Marks a memo entry whose computation is under way: meeting it again means the reductions
// came back to the same configuration without consuming anything.
constexpr Outcome kInProgress{TokenSetPool::empty(), 0xffffffffu};
bool in_progress(const Outcome& outcome) {
  return outcome.items == kInProgress.items;
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
    compute_predecessors();
    verdicts_ = std::make_unique<ShiftVerdicts>(table_, predecessors_);
    subtrie_tokens_.assign(dwa.num_nodes(), kNotComputed);
  }

  ParserDwa build();

 private:
  // Accumulates outcomes; items are merged at the end.
  struct Collector {
    TokenSetId accepted = TokenSetPool::empty();
    boost::container::small_vector<Item, 8> items;
  };

  void compute_predecessors();
  // The tokens a continuation can still accept; an item whose tokens the current transition
  // already accepts cannot add anything below and is dropped.
  TokenSetId pending(std::uint32_t cont);
  TokenSetId subtrie_tokens(lexer::DwaNodeId node);
  // Sort and deduplicate in place, then intern (scratch vectors avoid an allocation per lookup).
  ItemSetId intern_items(std::span<Item> items);
  Outcome finish(Collector& collector);
  void merge(Collector& into, const Outcome& outcome);

  Outcome expand(std::uint32_t cont, VirtualStackId stack);
  Outcome feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack);
  LookaheadId intern_lookahead(std::span<SymbolId> terminals);
  LookaheadId intern_lookahead(std::initializer_list<SymbolId> terminals) {
    std::vector<SymbolId> copy(terminals);
    return intern_lookahead(std::span<SymbolId>(copy));
  }
  Outcome step(const Item& item, StateId read);
  std::uint32_t pair_id(std::uint32_t cont, LookaheadId lookahead);
  [[noreturn]] void throw_endless_reductions(LookaheadId lookahead) const;
  std::uint32_t item_id(const Item& item);
  const std::vector<std::pair<LookaheadId, TokenSetId>>& checks(lexer::DwaNodeId node);
  std::pair<DwaStateId, TokenSetId> transition(ItemSetId items, StateId read);
  DwaStateId state_for(ItemSetId items);
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
  std::unordered_map<std::vector<Item>, ItemSetId, ItemsHash> item_set_ids_;
  std::vector<std::vector<SymbolId>> lookaheads_;
  std::unordered_map<std::vector<SymbolId>, LookaheadId, ItemsHash> lookahead_ids_;
  // Memo tables, keyed by packed 64-bit words: (continuation, lookahead) pairs and items get
  // dense ids first so that every key fits.
  lexer::FlatU64Map pair_ids_;                   // (cont, lookahead) -> id
  lexer::FlatU64Map item_ids_;                   // (pair id, pops, lhs) -> id
  lexer::BasicFlatU64Map<Outcome> feed_memo_;    // (pair id, stack)
  lexer::BasicFlatU64Map<Outcome> expand_memo_;  // (cont, stack)
  lexer::BasicFlatU64Map<Outcome> step_memo_;    // (item id, read)
  // Per trie node: (what the end fork can produce next, the tokens of the weights with that end
  // behaviour); the end of input counts as a terminal for forks that can finish.
  std::vector<std::vector<std::pair<LookaheadId, TokenSetId>>> checks_;
  std::vector<char> checks_done_;

  static constexpr std::uint32_t kNotComputed = 0xffffffffu;
  std::unique_ptr<ShiftVerdicts> verdicts_;
  std::vector<std::uint32_t> subtrie_tokens_;  // per trie node: TokenSetId value or kNotComputed
  std::vector<StateId> first_reads_;           // states a run may read first
  std::vector<std::vector<StateId>> predecessors_;  // per state, ascending
  // A Parser DWA state is a set of items. Its transitions are needed on every state that can sit
  // below a state it was reached by reading, so the reads to expand accumulate per state.
  std::vector<ItemSetId> states_;
  std::vector<DwaStateId> state_of_item_set_;  // per item set, or kDeadState
  std::vector<std::uint64_t> requested_;       // per state, a bitset over LR states
  std::size_t request_words_ = 0;
  std::vector<std::pair<DwaStateId, StateId>> worklist_;
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

ItemSetId ParserDwaBuilder::intern_items(std::span<Item> items) {
  if (items.empty()) return 0;
  std::sort(items.begin(), items.end());
  scratch_items_.assign(items.begin(), std::unique(items.begin(), items.end()));
  if (const auto it = item_set_ids_.find(scratch_items_); it != item_set_ids_.end())
    return it->second;
  const auto id = static_cast<ItemSetId>(item_sets_.size());
  item_sets_.push_back(scratch_items_);
  item_set_ids_.emplace(scratch_items_, id);
  return id;
}

Outcome ParserDwaBuilder::finish(Collector& collector) {
  return {collector.accepted, intern_items({collector.items.data(), collector.items.size()})};
}

void ParserDwaBuilder::merge(Collector& into, const Outcome& outcome) {
  into.accepted = pool_.unite(into.accepted, outcome.accepted);
  const std::vector<Item>& items = item_sets_[outcome.items];
  into.items.insert(into.items.end(), items.begin(), items.end());
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

TokenSetId ParserDwaBuilder::pending(std::uint32_t cont) {
  switch (kind_of(cont)) {
    case ContinuationKind::kAccept:
      return TokenSetId{payload_of(cont)};
    case ContinuationKind::kNode:
      return subtrie_tokens(payload_of(cont));
    case ContinuationKind::kStart:
      return pool_.unite(subtrie_tokens(dwa_.root(payload_of(cont))), eos_);
  }
  return TokenSetPool::full();
}

Outcome ParserDwaBuilder::expand(std::uint32_t cont, VirtualStackId stack) {
  const std::uint64_t key = std::uint64_t{cont} << 32 | stack;
  if (const Outcome* memo = expand_memo_.find(key)) {
    if (in_progress(*memo)) throw_endless_reductions(kNoLookahead);
    return *memo;
  }
  expand_memo_.assign(key, kInProgress);
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
  for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
    const std::uint32_t child = continuation(ContinuationKind::kNode, edge.child);
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
            throw Error(fmt::format(
                "wfa: whether LR state {} can shift the skippable terminal '{}' depends on the "
                "states below it; the Parser DWA construction cannot decide where to drop it",
                stacks_.top(stack), grammar_.grammar().terminals()[terminal].name));
        }
      }
    }
    if (skip) merge(collector, expand(child, stack));
    if (!alternatives.empty())
      merge(collector, feed(intern_lookahead(std::span<SymbolId>(alternatives)), child, stack));
  }
  const Outcome outcome = finish(collector);
  expand_memo_.assign(key, outcome);
  return outcome;
}

Outcome ParserDwaBuilder::feed(LookaheadId lookahead, std::uint32_t cont, VirtualStackId stack) {
  const std::uint64_t key = std::uint64_t{pair_id(cont, lookahead)} << 32 | stack;
  if (const Outcome* memo = feed_memo_.find(key)) {
    if (in_progress(*memo)) throw_endless_reductions(lookahead);
    return *memo;
  }
  feed_memo_.assign(key, kInProgress);
  max_virtual_depth_ = std::max<std::size_t>(max_virtual_depth_, stacks_.depth(stack));
  const StateId top = stacks_.top(stack);
  if (kind_of(cont) == ContinuationKind::kAccept) {
    // A check: one shiftable terminal accepts the weight. Decide at the top state where the
    // table alone can, and keep only the terminals whose fate depends on the states below.
    boost::container::small_vector<SymbolId, 16> open;
    for (const SymbolId terminal : lookaheads_[lookahead]) {
      // Skippable terminals are always takeable (IncrementalRecognizer::can_take).
      const ShiftVerdict verdict = terminal != end_of_input_ && grammar_.is_skippable(terminal)
                                       ? ShiftVerdict::kSure
                                       : verdicts_->verdict(top, terminal);
      if (verdict == ShiftVerdict::kSure) {
        const Outcome outcome{TokenSetId{payload_of(cont)}, 0};
        feed_memo_.assign(key, outcome);
        return outcome;
      }
      if (verdict == ShiftVerdict::kDepends) open.push_back(terminal);
    }
    if (open.size() != lookaheads_[lookahead].size()) {
      const Outcome outcome = open.empty()
                                  ? Outcome{}
                                  : feed(intern_lookahead({open.data(), open.size()}), cont, stack);
      feed_memo_.assign(key, outcome);
      return outcome;
    }
  }
  // Split the lookahead by action: shift targets, acceptance, and per rule the terminals that
  // reduce by it.
  boost::container::small_vector<StateId, 4> shifts;
  bool accepts = false;
  boost::container::small_vector<
      std::pair<glr::RuleId, boost::container::small_vector<SymbolId, 8>>, 4>
      reductions;
  for (const SymbolId terminal : lookaheads_[lookahead]) {
    for (const glr::Action action : table_.actions(top, terminal)) {
      switch (action.kind()) {
        case glr::ActionKind::kShift:
          if (std::find(shifts.begin(), shifts.end(), action.target()) == shifts.end())
            shifts.push_back(action.target());
          break;
        case glr::ActionKind::kAccept:
          accepts = true;
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
  Collector collector;
  if (kind_of(cont) == ContinuationKind::kAccept) {
    if (accepts || !shifts.empty())
      collector.accepted = pool_.unite(collector.accepted, TokenSetId{payload_of(cont)});
  } else {
    for (const StateId target : shifts) merge(collector, expand(cont, stacks_.push(target, stack)));
  }
  for (auto& [rule, terminals] : reductions) {
    const LookaheadId reduced = intern_lookahead({terminals.data(), terminals.size()});
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
  feed_memo_.assign(key, outcome);
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

Outcome ParserDwaBuilder::step(const Item& item, StateId read) {
  const std::uint64_t key = std::uint64_t{item_id(item)} << 32 | read;
  if (const Outcome* memo = step_memo_.find(key)) return *memo;
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
  step_memo_.find_or_insert(key, outcome);
  return outcome;
}

std::pair<DwaStateId, TokenSetId> ParserDwaBuilder::transition(ItemSetId items, StateId read) {
  Collector collector;
  // Copy: step() may intern new item sets and reallocate item_sets_.
  const std::vector<Item> current = item_sets_[items];
  for (const Item& item : current) {
    if (item.pops > 0) {
      Item popped = item;
      --popped.pops;
      collector.items.push_back(popped);
    } else {
      merge(collector, step(item, read));
    }
  }
  if (!collector.accepted.is_empty()) {
    collector.items.erase(std::remove_if(collector.items.begin(), collector.items.end(),
                                         [&](const Item& item) {
                                           return pool_.is_subset(pending(item.cont),
                                                                  collector.accepted);
                                         }),
                          collector.items.end());
  }
  const Outcome outcome = finish(collector);
  const DwaStateId target = outcome.items == 0 ? ParserDwa::kDeadState : state_for(outcome.items);
  return {target, outcome.accepted};
}

DwaStateId ParserDwaBuilder::state_for(ItemSetId items) {
  if (state_of_item_set_.size() <= items)
    state_of_item_set_.resize(std::size_t{items} + 1, ParserDwa::kDeadState);
  DwaStateId& state = state_of_item_set_[items];
  if (state == ParserDwa::kDeadState) {
    state = static_cast<DwaStateId>(states_.size());
    states_.push_back(items);
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
    worklist_.emplace_back(state, read);
  }
}

ParserDwa ParserDwaBuilder::build() {
  const auto started = std::chrono::steady_clock::now();
  request_words_ = (std::size_t{table_.num_states()} + 63) / 64;
  ParserDwa result;
  result.start_states_.reserve(dwa_.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa_.num_forks(); ++fork) {
    Item start{continuation(ContinuationKind::kStart, fork), kNoLookahead, 0, glr::kNoSymbol};
    const ItemSetId items = intern_items({&start, 1});
    const DwaStateId state = state_for(items);
    result.start_states_.push_back(state);
    request(state, first_reads_);
  }
  while (!worklist_.empty()) {
    const auto [state, read] = worklist_.back();
    worklist_.pop_back();
    const auto [target, weight] = transition(states_[state], read);
    if (target == ParserDwa::kDeadState && weight.is_empty()) continue;
    transitions_[state].push_back({read, target, weight});
    if (target != ParserDwa::kDeadState) request(target, predecessors_[read]);
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
  stats.transitions = result.transitions_.size();
  std::vector<std::uint32_t> weights;
  for (const ParserDwaTransition& t : result.transitions_)
    if (!t.weight.is_empty()) weights.push_back(t.weight.value());
  std::sort(weights.begin(), weights.end());
  stats.distinct_weights =
      static_cast<std::size_t>(std::unique(weights.begin(), weights.end()) - weights.begin());
  for (const ItemSetId items : states_) {
    stats.suspended_items += item_sets_[items].size();
    stats.max_items_per_state = std::max(stats.max_items_per_state, item_sets_[items].size());
  }
  stats.max_virtual_depth = max_virtual_depth_;
  stats.feed_memo_entries = feed_memo_.size();
  stats.expand_memo_entries = expand_memo_.size();
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
  return ParserDwaBuilder(grammar, dwa, pool, eos, options).build();
}

}  // namespace glrmask::wfa
