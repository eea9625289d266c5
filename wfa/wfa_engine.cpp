#include "wfa/wfa_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "glr/session.h"
#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::wfa {

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
      row_(weight_classes_.row_words()),
      cache_(dense_cache_slots, pool_.dense_word_count(), weight_classes_.row_words()),
      entry_cache_(kEntryCacheSlots) {
  if (vocabulary.size() != pool_.universe_size())
    throw Error(fmt::format("wfa: the compiled automaton is for a vocabulary of {} ids, not {}",
                            pool_.universe_size(), vocabulary.size()));
  collected_.reserve(64);
}

void WfaEngine::fill_mask(const glr::Session& session, std::span<std::uint32_t> words) {
  if (const std::uint32_t* cached = compute(session, words))
    std::copy(cached, cached + words.size(), words.begin());
}

std::span<const std::uint32_t> WfaEngine::mask_view(const glr::Session& session,
                                                    std::span<std::uint32_t> scratch) {
  if (const std::uint32_t* cached = compute(session, scratch)) return {cached, scratch.size()};
  return scratch;
}

const std::uint32_t* WfaEngine::compute(const glr::Session& session,
                                        std::span<std::uint32_t> words) {
  const std::uint32_t universe = pool_.universe_size();
  if (words.size() != dense_word_count(universe)) {
    throw Error(fmt::format("wfa mask: {} words given, the vocabulary ({} ids) needs {}",
                            words.size(), universe, dense_word_count(universe)));
  }
  if (&session.grammar() != &compiled_->grammar()) {
    throw Error(
        fmt::format("wfa mask: the session at byte offset {} uses another grammar than the engine",
                    session.byte_offset()));
  }
  for (EngineCounter& counter : counters_) counter.value = 0;
  if (session.is_finished()) {
    std::fill(words.begin(), words.end(), 0u);
    return nullptr;
  }
  visited_.clear();
  collected_.clear();
  const lexer::LexerConfiguration& configuration = session.lexer_configuration();
  if (const auto cached = entry_cache_.find(configuration)) {
    for (const LexerEntryCache::Entry& entry : *cached) {
      counters_[kEarlyLabelEntries].value += entry.early ? 1 : 0;
      walk_entry(session, entry.start, entry.early_labels());
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
      walk_entry(session, start, feed);
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

void WfaEngine::walk_entry(const glr::Session& session, DwaStateId start,
                           std::span<const lexer::LabelId> early_labels) {
  counters_[kEntries].value += 1;
  if (early_labels.empty()) {
    walk(start, session.heads());
    return;
  }
  counters_[kEarlyLabelFeeds].value += 1;
  glr::GssHeads heads = session.heads();
  for (const lexer::LabelId label : early_labels)
    if (!session.recognizer().feed_token(heads, label)) return;
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

}  // namespace glrmask::wfa
