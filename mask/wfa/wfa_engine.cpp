#include "mask/wfa/wfa_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "glr/parse_view.h"
#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"
#include "mask/wfa/indented_walk.h"

namespace glrmask::mask {

WfaEngine::WfaEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                     const Vocabulary& vocabulary)
    : WfaEngine(CompiledMask::compile(std::move(grammar), vocabulary), vocabulary) {}

WfaEngine::WfaEngine(std::shared_ptr<const CompiledMask> compiled, const Vocabulary& vocabulary,
                     std::size_t dense_cache_slots)
    : compiled_(std::move(compiled)),
      pool_(compiled_->pool()),
      terminal_dwa_(compiled_->terminal_dwa()),
      parser_dwa_(compiled_->parser_dwa()),
      weight_sources_(compiled_->weight_sources()),
      weight_classes_(compiled_->weight_classes()),
      vocabulary_(vocabulary),
      row_(weight_classes_.row_words()),
      cache_(dense_cache_slots, pool_.dense_word_count(), weight_classes_.row_words()),
      entry_cache_(kEntryCacheSlots) {
  if (vocabulary.size() != pool_.universe_size())
    throw Error(fmt::format("wfa: the compiled automaton is for a vocabulary of {} ids, not {}",
                            pool_.universe_size(), vocabulary.size()),
                ErrorCode::kInvalidArgument);
  collected_.reserve(64);
  if (compiled_->grammar().indenter() != nullptr)
    indented_ = std::make_unique<IndentedWalk>(*compiled_);
}

WfaEngine::~WfaEngine() = default;

void WfaEngine::fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) {
  if (const std::uint32_t* cached = compute(parse, words))
    std::copy(cached, cached + words.size(), words.begin());
}

std::span<const std::uint32_t> WfaEngine::mask_view(const glr::ParseView& parse,
                                                    std::span<std::uint32_t> scratch) {
  if (const std::uint32_t* cached = compute(parse, scratch)) return {cached, scratch.size()};
  return scratch;
}

const std::uint32_t* WfaEngine::compute(const glr::ParseView& parse,
                                        std::span<std::uint32_t> words) {
  check_mask_words("wfa", words.size(), pool_.universe_size());
  check_session_grammar("wfa", parse, compiled_->grammar());
  for (EngineCounter& counter : counters_) counter.value = 0;
  if (parse.is_finished()) {
    std::fill(words.begin(), words.end(), 0u);
    return nullptr;
  }
  if (indented_) return indented_->compute(*this, parse, words);
  summaries_.trim();
  visited_.clear();
  collected_.clear();
  const lexer::LexerConfiguration& configuration = parse.lexer_configuration();
  if (const auto cached = entry_cache_.find(configuration)) {
    for (const LexerEntryCache::Entry& entry : *cached) {
      counters_[kEarlyLabelEntries].value += entry.early ? 1 : 0;
      walk_entry(parse, entry.start, entry.early_labels());
    }
  } else {
    const std::vector<lexer::DwaEntry> entries = terminal_dwa_.enter(configuration);
    std::array<LexerEntryCache::Entry, LexerEntryCache::kMaxEntries> resolved;
    bool cacheable = entries.size() <= resolved.size();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const lexer::DwaEntry& entry = entries[i];
      DwaStateId start = parser_dwa_.start_state(entry.fork);
      std::span<const lexer::LabelId> feed = entry.labels;
      if (feed.size() == 1) {
        if (const auto early = parser_dwa_.early_start_state(feed.front(), entry.fork)) {
          start = *early;
          feed = {};
        }
      }
      if (!entry.labels.empty()) counters_[kEarlyLabelEntries].value += 1;
      walk_entry(parse, start, feed);
      const auto made = LexerEntryCache::make_entry(start, feed, !entry.labels.empty());
      if (!made || i >= resolved.size()) {
        cacheable = false;
      } else {
        resolved[i] = *made;
      }
    }
    if (cacheable) entry_cache_.insert(configuration, {resolved.data(), entries.size()});
  }
  return emit(words);
}

void WfaEngine::walk_entry(const glr::ParseView& parse, DwaStateId start,
                           std::span<const lexer::LabelId> early_labels) {
  counters_[kEntries].value += 1;
  if (early_labels.empty()) {
    walk(start, parse.heads());
    return;
  }
  counters_[kEarlyLabelFeeds].value += 1;
  glr::GssHeads heads = parse.heads();
  for (const lexer::LabelId label : early_labels)
    if (!parse.recognizer().feed_token(heads, label)) return;
  walk(start, heads);
}

const std::uint32_t* WfaEngine::emit(std::span<std::uint32_t> words) {
  std::sort(collected_.begin(), collected_.end());
  collected_.erase(std::unique(collected_.begin(), collected_.end()), collected_.end());
  counters_[kWeights].value = static_cast<double>(collected_.size());
  if (collected_.empty()) {
    std::fill(words.begin(), words.end(), 0u);
    return nullptr;
  }
  if (const std::uint32_t* cached = cache_.find(collected_)) {
    counters_[kCacheHit].value = 1;
    return cached;
  }
  // Another set of weights may have united to the same tokens: the union of the class rows
  // says so exactly (weight_class_rows.h), at the cost of a few dozen words per weight.
  bool have_row = !row_.empty();
  if (have_row) {
    std::fill(row_.begin(), row_.end(), 0);
    for (const TokenSetId weight : collected_) {
      const std::uint64_t* row = weight_classes_.row(weight);
      if (row == nullptr) {  // not a transition weight of this automaton: cannot happen
        have_row = false;
        break;
      }
      for (std::size_t i = 0; i < row_.size(); ++i) row_[i] |= row[i];
    }
    if (have_row) {
      if (const std::uint32_t* cached = cache_.find_row(row_, collected_)) {
        counters_[kCacheHit].value = 1;
        counters_[kCacheRowHit].value = 1;
        return cached;
      }
    }
  }
  // A loaded artifact's sets are checked on their first use (mask_artifact.h): a damaged one
  // throws here, before anything is written. One atomic load per weight once checked.
  for (const TokenSetId weight : collected_) pool_.verify(weight);
  // Request every weight's export records, then their data, so that the cache misses of all the
  // weights overlap instead of queuing up behind each OR (lib/token_set/dense_sources.h).
  for (const TokenSetId weight : collected_) weight_sources_.prefetch_records(weight);
  for (const TokenSetId weight : collected_) weight_sources_.prefetch_data(weight);
  // A new union is written once, into the slot it claims (fill_mask copies it out from there).
  const std::span<std::uint32_t> slot =
      cache_.claim(collected_, have_row ? std::span<const std::uint64_t>(row_)
                                        : std::span<const std::uint64_t>{});
  const std::span<std::uint32_t> target = slot.empty() ? words : slot;
  write_dense_segments(weight_sources_.segments(collected_.front()), target);
  for (std::size_t i = 1; i < collected_.size(); ++i)
    or_dense_segments(weight_sources_.segments(collected_[i]), target);
  return slot.empty() ? nullptr : slot.data();
}

void WfaEngine::walk(DwaStateId start, std::span<const glr::GssNodeRef> heads) {
  // Each (node, state) pair is walked once, so heads must be distinct nodes (GssHeads are); the
  // start is a state, not the dead target.
  GLRMASK_DCHECK(glr::are_canonical_heads(heads));
  GLRMASK_DCHECK(start != ParserDwa::kDeadState && start.value() < parser_dwa_.num_states());
  pending_.clear();
  for (const glr::GssNodeRef& head : heads)
    if (visited_.insert(head.get(), start)) pending_.push_back({head.get(), start, 0});
  while (!pending_.empty()) {
    const Pending at = pending_.back();
    pending_.pop_back();
    if (at.depth >= summary_depth_) {
      const std::span<const TokenSetId> below = summaries_.weights(summarize(at.node, at.state));
      collected_.insert(collected_.end(), below.begin(), below.end());
      counters_[kDepthRead].value =
          std::max(counters_[kDepthRead].value, static_cast<double>(at.depth + chain_.size()));
      continue;
    }
    counters_[kPairsVisited].value += 1;
    counters_[kDepthRead].value =
        std::max(counters_[kDepthRead].value, static_cast<double>(at.depth + 1));
    const ParserDwaTransition* t = parser_dwa_.find(at.state, at.node->state());
    if (t == nullptr) continue;
    if (!t->weight.is_empty()) collected_.push_back(t->weight);
    if (t->target == ParserDwa::kDeadState) continue;
    for (const glr::GssNode* below : at.node->below())
      if (visited_.insert(below, t->target)) pending_.push_back({below, t->target, at.depth + 1});
  }
}

StackSummaries::SummaryId WfaEngine::summarize(const glr::GssNode* node, DwaStateId state) {
  // Down the chain of nodes with one edge, to a kept summary, the automaton's end, or a node
  // with several edges; then back up, each link's summary its weight plus the one below.
  chain_.clear();
  StackSummaries::SummaryId below = StackSummaries::kEmpty;
  for (;;) {
    if (const auto kept = summaries_.find(node, state)) {
      below = *kept;
      break;
    }
    counters_[kPairsVisited].value += 1;
    const ParserDwaTransition* t = parser_dwa_.find(state, node->state());
    if (t == nullptr) {
      chain_.push_back({node, state, TokenSetId()});
      break;
    }
    chain_.push_back({node, state, t->weight});
    if (t->target == ParserDwa::kDeadState) break;
    // An edge into an earlier block cannot lead back to this node (blocks point only to earlier
    // ones), so the chain ends; edges inside one block (ε-reductions) may form cycles.
    const std::span<const glr::GssNode* const> edges = node->below();
    if (edges.size() != 1 || &edges.front()->block() == &node->block()) {
      below = summarize_below(node, t->target);
      break;
    }
    node = edges.front();
    state = t->target;
  }
  for (std::size_t i = chain_.size(); i-- > 0;) {
    if (!chain_[i].weight.is_empty()) below = summaries_.with(below, chain_[i].weight);
    summaries_.insert(chain_[i].node, chain_[i].state, below);
  }
  return below;
}

StackSummaries::SummaryId WfaEngine::summarize_below(const glr::GssNode* node, DwaStateId state) {
  // The plain walk from (each node below, state), with its own visited pairs (the main walk's
  // would leave out what it already took, which this summary must hold), answering kept pairs
  // by their summaries.
  below_visited_.clear();
  below_pending_.clear();
  below_weights_.clear();
  for (const glr::GssNode* below : node->below())
    if (below_visited_.insert(below, state)) below_pending_.push_back({below, state, 0});
  while (!below_pending_.empty()) {
    const Pending at = below_pending_.back();
    below_pending_.pop_back();
    if (const auto kept = summaries_.find(at.node, at.state)) {
      const std::span<const TokenSetId> weights = summaries_.weights(*kept);
      below_weights_.insert(below_weights_.end(), weights.begin(), weights.end());
      continue;
    }
    counters_[kPairsVisited].value += 1;
    const ParserDwaTransition* t = parser_dwa_.find(at.state, at.node->state());
    if (t == nullptr) continue;
    if (!t->weight.is_empty()) below_weights_.push_back(t->weight);
    if (t->target == ParserDwa::kDeadState) continue;
    for (const glr::GssNode* below : at.node->below())
      if (below_visited_.insert(below, t->target)) below_pending_.push_back({below, t->target, 0});
  }
  std::sort(below_weights_.begin(), below_weights_.end());
  below_weights_.erase(std::unique(below_weights_.begin(), below_weights_.end()),
                       below_weights_.end());
  return summaries_.make(below_weights_);
}

}  // namespace glrmask::mask
