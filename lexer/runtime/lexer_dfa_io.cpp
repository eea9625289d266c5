// LexerDfa::write / read: the lexing DFA as flat arrays, for compiled grammar images.
#include <fmt/format.h>

#include <algorithm>

#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

namespace {

constexpr std::uint32_t kLexerDfaSectionTag = 0x4146444c;  // "LDFA"

// `begin` is a table of offsets into an array of `size` entries: ascending from 0 to `size`, with
// `entries` + 1 values.
bool offsets_fit(const std::vector<std::uint32_t>& begin, std::size_t entries, std::size_t size) {
  return begin.size() == entries + 1 && begin.front() == 0 && begin.back() == size &&
         std::is_sorted(begin.begin(), begin.end());
}

// Each slice of `values` (by `begin`) strictly ascending and below `bound`.
bool slices_ascending_below(const std::vector<std::uint32_t>& begin,
                            const std::vector<std::uint32_t>& values, std::uint32_t bound) {
  for (std::size_t i = 0; i + 1 < begin.size(); ++i)
    for (std::uint32_t j = begin[i]; j < begin[i + 1]; ++j)
      if (values[j] >= bound || (j > begin[i] && values[j] <= values[j - 1])) return false;
  return true;
}

}  // namespace

void LexerDfa::write(BinaryWriter& out) const {
  out.put(kLexerDfaSectionTag);
  out.put<std::uint64_t>(terminals_.size());
  out.put<std::uint32_t>(start_);
  out.put_array<std::uint32_t>(transitions_);
  out.put_array<LabelId>(labels_);
  out.put_array<std::uint8_t>(final_);
  out.put_array<LabelId>(tentative_labels_);
  out.put_array<std::int16_t>(vetoes_);
  out.put_array<std::uint32_t>(label_begin_);
  out.put_array<std::uint32_t>(label_terminals_);
  out.put_array<std::uint8_t>(label_ignored_);
  out.put_array<std::uint32_t>(viable_begin_);
  out.put_array<std::uint32_t>(viable_);
  out.put_array<std::uint8_t>(byte_classes_);
  out.put<std::uint64_t>(stats_.terminals);
  out.put<std::uint64_t>(stats_.nfa_states);
  out.put<std::uint64_t>(stats_.byte_classes);
  out.put<std::uint64_t>(stats_.subset_states);
  out.put<std::uint64_t>(stats_.states);
  out.put<double>(stats_.build_seconds);
}

LexerDfa LexerDfa::read(BinaryReader& in, std::vector<TerminalSpec> terminals) {
  if (in.get<std::uint32_t>("lexer DFA section tag") != kLexerDfaSectionTag)
    in.fail("expected the lexer DFA section");
  const auto stored_terminals = in.get<std::uint64_t>("lexer DFA terminal count");
  if (stored_terminals != terminals.size())
    in.fail(fmt::format("the lexer DFA was built over {} terminals, the grammar has {}",
                        stored_terminals, terminals.size()));
  LexerDfa dfa;
  dfa.terminals_ = std::move(terminals);
  dfa.start_ = in.get<std::uint32_t>("lexer DFA start state");
  dfa.transitions_ = in.get_array<std::uint32_t>("lexer DFA transitions");
  dfa.labels_ = in.get_array<LabelId>("lexer DFA labels");
  dfa.final_ = in.get_array<std::uint8_t>("lexer DFA final states");
  dfa.tentative_labels_ = in.get_array<LabelId>("lexer DFA tentative labels");
  dfa.vetoes_ = in.get_array<std::int16_t>("lexer DFA veto bytes");
  dfa.label_begin_ = in.get_array<std::uint32_t>("lexer DFA label offsets");
  dfa.label_terminals_ = in.get_array<std::uint32_t>("lexer DFA label terminals");
  dfa.label_ignored_ = in.get_array<std::uint8_t>("lexer DFA ignored labels");
  dfa.viable_begin_ = in.get_array<std::uint32_t>("lexer DFA viable terminal offsets");
  dfa.viable_ = in.get_array<std::uint32_t>("lexer DFA viable terminals");
  dfa.byte_classes_ = in.get_array<std::uint8_t>("lexer DFA byte classes");
  dfa.stats_.terminals = in.get<std::uint64_t>("lexer DFA statistics");
  dfa.stats_.nfa_states = in.get<std::uint64_t>("lexer DFA statistics");
  dfa.stats_.byte_classes = in.get<std::uint64_t>("lexer DFA statistics");
  dfa.stats_.subset_states = in.get<std::uint64_t>("lexer DFA statistics");
  dfa.stats_.states = in.get<std::uint64_t>("lexer DFA statistics");
  dfa.stats_.build_seconds = in.get<double>("lexer DFA statistics");

  const std::size_t states = dfa.labels_.size();
  if (states == 0 || states >= UINT32_MAX / 2 || dfa.start_ >= states || dfa.start_ == kDeadState ||
      dfa.transitions_.size() != states * 256 || dfa.final_.size() != states ||
      dfa.tentative_labels_.size() != states || dfa.vetoes_.size() != states)
    in.fail(fmt::format("the lexer DFA's per-state arrays disagree on its {} states", states));
  for (std::size_t i = 0; i < dfa.transitions_.size(); ++i)
    if (dfa.transitions_[i] >= states)
      in.fail(fmt::format("lexer DFA transition {} of state {} goes to state {} of {}", i % 256,
                          i / 256, dfa.transitions_[i], states));
  for (std::size_t byte = 0; byte < 256; ++byte)
    if (dfa.transitions_[byte] != kDeadState) in.fail("the lexer DFA's dead state has a successor");
  if (dfa.label_begin_.empty() ||
      !offsets_fit(dfa.label_begin_, dfa.label_begin_.size() - 1, dfa.label_terminals_.size()) ||
      dfa.label_begin_[1] != 0 || dfa.label_ignored_.size() != dfa.label_begin_.size() - 1)
    in.fail("the lexer DFA's label offsets are inconsistent");
  const auto num_terminals = static_cast<std::uint32_t>(dfa.terminals_.size());
  if (!slices_ascending_below(dfa.label_begin_, dfa.label_terminals_, num_terminals))
    in.fail("a lexer DFA label names terminals out of order or out of range");
  const std::size_t labels = dfa.label_begin_.size() - 1;
  for (std::size_t s = 0; s < states; ++s) {
    if (dfa.labels_[s] >= labels || dfa.tentative_labels_[s] >= labels)
      in.fail(fmt::format("lexer DFA state {} has a label outside the {} labels", s, labels));
    if (dfa.vetoes_[s] < -1 || dfa.vetoes_[s] > 255)
      in.fail(fmt::format("lexer DFA state {} has veto byte {}", s, dfa.vetoes_[s]));
    if (dfa.final_[s] > 1) in.fail(fmt::format("lexer DFA state {} has a final flag", s));
  }
  for (const std::uint8_t ignored : dfa.label_ignored_)
    if (ignored > 1) in.fail("a lexer DFA label has an ignored flag other than 0 or 1");
  if (!offsets_fit(dfa.viable_begin_, states, dfa.viable_.size()) ||
      !slices_ascending_below(dfa.viable_begin_, dfa.viable_, num_terminals))
    in.fail("the lexer DFA's viable terminals are inconsistent");
  if (dfa.byte_classes_.empty() || dfa.byte_classes_.front() != 0 ||
      std::adjacent_find(dfa.byte_classes_.begin(), dfa.byte_classes_.end(),
                         std::greater_equal<>()) != dfa.byte_classes_.end())
    in.fail("the lexer DFA's byte classes are not ascending from byte 0");
  dfa.has_tentative_ = std::any_of(dfa.tentative_labels_.begin(), dfa.tentative_labels_.end(),
                                   [](LabelId label) { return label != kNoLabel; });
  return dfa;
}

}  // namespace glrmask::lexer
