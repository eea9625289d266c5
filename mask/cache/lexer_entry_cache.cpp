#include "mask/cache/lexer_entry_cache.h"

#include <algorithm>
#include <bit>

#include "lib/core/hash_mix.h"

namespace glrmask::mask {

LexerEntryCache::LexerEntryCache(std::size_t slots)
    : slots_(std::bit_ceil(std::max<std::size_t>(slots, 1))) {}

std::size_t LexerEntryCache::slot_of(const lexer::LexerConfiguration& configuration) const {
  std::uint64_t h = fmix64((std::uint64_t{configuration.state} << 32) ^ configuration.accepted);
  for (const char byte : configuration.pending)
    h = (h ^ static_cast<unsigned char>(byte)) * 0x100000001b3ULL;
  return static_cast<std::size_t>(fmix64(h)) & (slots_.size() - 1);
}

bool LexerEntryCache::holds(const Slot& slot, const lexer::LexerConfiguration& configuration) {
  return slot.used && slot.state == configuration.state &&
         slot.accepted == configuration.accepted &&
         slot.pending_size == configuration.pending.size() &&
         std::equal(configuration.pending.begin(), configuration.pending.end(),
                    slot.pending.begin());
}

std::optional<std::span<const LexerEntryCache::Entry>> LexerEntryCache::find(
    const lexer::LexerConfiguration& configuration) const {
  if (configuration.pending.size() > kMaxPending) return std::nullopt;
  const Slot& slot = slots_[slot_of(configuration)];
  if (!holds(slot, configuration)) return std::nullopt;
  return std::span<const Entry>(slot.entries.data(), slot.entry_count);
}

std::optional<LexerEntryCache::Entry> LexerEntryCache::make_entry(
    DwaStateId start, std::span<const lexer::LabelId> labels, bool early,
    std::span<const glr::TextPart> texts, glr::TextPart carried) {
  if (labels.size() > kMaxLabels) return std::nullopt;
  Entry entry;
  entry.start = start;
  entry.early = early;
  entry.label_count = static_cast<std::uint32_t>(labels.size());
  std::copy(labels.begin(), labels.end(), entry.labels.begin());
  std::copy(texts.begin(), texts.begin() + std::min(texts.size(), labels.size()),
            entry.texts.begin());
  entry.carried = carried;
  return entry;
}

std::optional<std::span<const LexerEntryCache::Entry>> LexerEntryCache::insert(
    const lexer::LexerConfiguration& configuration, std::span<const Entry> entries) {
  if (configuration.pending.size() > kMaxPending || entries.size() > kMaxEntries)
    return std::nullopt;
  Slot& slot = slots_[slot_of(configuration)];
  slot.used = true;
  slot.state = configuration.state;
  slot.accepted = configuration.accepted;
  slot.pending_size = static_cast<std::uint32_t>(configuration.pending.size());
  std::copy(configuration.pending.begin(), configuration.pending.end(), slot.pending.begin());
  slot.entry_count = static_cast<std::uint32_t>(entries.size());
  std::copy(entries.begin(), entries.end(), slot.entries.begin());
  return std::span<const Entry>(slot.entries.data(), slot.entry_count);
}

}  // namespace glrmask::mask
