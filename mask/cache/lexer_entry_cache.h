// The Parser DWA entries of recurring lexer configurations, for get_mask.
//
// TerminalDwa::enter re-lexes the configuration's pending bytes into forks and looks each fork up
// in a hash map keyed by vectors: it allocates, and it cost 0.3-0.8 µs of every get_mask in cold
// teacher-forced runs of the Go and Java grammars with Llama-3 (tail_latency study, idle
// machine). A decoding run meets few distinct configurations (after an identifier that may go on,
// inside a string, at a token boundary, ...), so the engine keeps what it made of the entries of
// the ones it has seen (a start state, and the early labels it must still feed to the parser) in
// slots allocated up front: a hit is a hash and a compare, and allocates nothing. Configurations
// whose pending bytes or entries do not fit a slot are simply not cached.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "glr/fork_texts.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_dfa.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

class LexerEntryCache {
 public:
  static constexpr std::size_t kMaxPending = 24;  // bytes
  static constexpr std::size_t kMaxEntries = 4;
  static constexpr std::size_t kMaxLabels = 3;  // early labels per entry

  // Where a run starts for one Terminal DWA entry: feed `early_labels()` to (a copy of) the
  // session's stacks, then run the Parser DWA from `start`.
  struct Entry {
    DwaStateId start;
    bool early = false;  // the Terminal DWA entry had early labels (fed here or by `start`)
    std::uint32_t label_count = 0;
    std::array<lexer::LabelId, kMaxLabels> labels{};
    // With an indenter (glr/fork_texts.h): the texts of the labels still to feed, and the text
    // the walk's relative newline widths add to (IndenterContext::carried).
    std::array<glr::TextPart, kMaxLabels> texts{};
    glr::TextPart carried;
    std::span<const lexer::LabelId> early_labels() const { return {labels.data(), label_count}; }
  };
  // The entry, or nullopt when the labels do not fit one.
  static std::optional<Entry> make_entry(DwaStateId start, std::span<const lexer::LabelId> labels,
                                         bool early, std::span<const glr::TextPart> texts = {},
                                         glr::TextPart carried = {});

  explicit LexerEntryCache(std::size_t slots);

  // The cached entries of `configuration`, or nullopt.
  std::optional<std::span<const Entry>> find(const lexer::LexerConfiguration& configuration) const;
  // Stores `entries` as those of `configuration` (replacing whatever shared its slot) and returns
  // the stored copy, or nullopt when they do not fit a slot.
  std::optional<std::span<const Entry>> insert(const lexer::LexerConfiguration& configuration,
                                               std::span<const Entry> entries);

 private:
  struct Slot {
    bool used = false;
    std::uint32_t state = 0;
    lexer::LabelId accepted = 0;
    std::uint32_t pending_size = 0;
    std::array<char, kMaxPending> pending{};
    std::uint32_t entry_count = 0;
    std::array<Entry, kMaxEntries> entries{};
  };
  std::size_t slot_of(const lexer::LexerConfiguration& configuration) const;
  static bool holds(const Slot& slot, const lexer::LexerConfiguration& configuration);

  std::vector<Slot> slots_;  // direct mapped: a configuration has one slot
};

}  // namespace glrmask::mask
