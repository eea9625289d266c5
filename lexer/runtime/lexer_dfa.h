// The lexing DFA of all terminals of a grammar: a dense byte transition table (the hot path),
// accept labels already reduced by the tie rules, and per-state facts the streaming lexer and the
// Terminal DWA need. Built by compile_lexer_dfa() (lexer_dfa_compiler.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lexer/runtime/terminal_spec.h"
#include "lib/core/binary_io.h"
#include "lib/core/check.h"

namespace glrmask::lexer {

// Names a set of terminals that end on the same lexeme and survived the tie rules; 0 means "no
// terminal ends here".
using LabelId = uint32_t;

struct LexerDfaStats {
  size_t terminals = 0;
  size_t nfa_states = 0;
  size_t byte_classes = 0;
  size_t subset_states = 0;  // before minimization, dead state included
  size_t states = 0;         // after minimization, dead state included
  double build_seconds = 0;
};

class LexerDfa {
 public:
  static constexpr uint32_t kDeadState = 0;
  static constexpr LabelId kNoLabel = 0;

  uint32_t start_state() const { return start_; }
  uint32_t num_states() const { return static_cast<uint32_t>(labels_.size()); }

  uint32_t next(uint32_t state, uint8_t byte) const {
    GLRMASK_DCHECK(state < num_states(), "DFA state {} of {}", state, num_states());
    return transitions_[size_t{state} * 256 + byte];
  }
  // next(state, byte) == transitions()[state * 256 + byte].
  const uint32_t* transitions() const { return transitions_.data(); }

  // The terminals whose lexeme ends in `state` (after the tie rules), or kNoLabel.
  LabelId label(uint32_t state) const { return labels_[state]; }
  // Accepting and without live successors: the lexeme is final the moment this state is reached.
  bool is_final(uint32_t state) const { return final_[state] != 0; }

  // A label held back one byte: the lexeme in `state` matches it unless the next byte is
  // veto_byte(state), which voids the match (a `(?!qq)` guard, docs/lexer.md "Lookaround"; at
  // the end of input the match stands). label(state) is kNoLabel for such a state, so code that
  // does not know about held-back labels treats it as not accepting; the streaming lexer and the
  // forks (lexer_fork.h) take the label once the next byte allows it.
  LabelId tentative_label(uint32_t state) const { return tentative_labels_[state]; }
  bool is_tentative(uint32_t state) const { return tentative_labels_[state] != kNoLabel; }
  uint8_t veto_byte(uint32_t state) const { return static_cast<uint8_t>(vetoes_[state]); }
  bool has_tentative_states() const { return has_tentative_; }

  size_t num_labels() const { return label_begin_.size() - 1; }
  // The label's terminals, ascending. Several means a real tie the parser has to resolve.
  std::span<const uint32_t> label_terminals(LabelId label) const {
    return {label_terminals_.data() + label_begin_[label],
            label_terminals_.data() + label_begin_[label + 1]};
  }
  // True when every terminal of the label is %ignore'd: the lexeme is dropped.
  bool label_is_ignored(LabelId label) const { return label_ignored_[label] != 0; }
  // True when the parser may read the label as "skip": purely ignored, or a tie with an ignored
  // alternative.
  bool label_may_be_skipped(LabelId label) const {
    if (label_is_ignored(label)) return true;
    for (const uint32_t terminal : label_terminals(label))
      if (terminals_[terminal].ignored) return true;
    return false;
  }
  // "NAME|FUNC" style rendering for messages.
  std::string describe_label(LabelId label) const;

  // Terminals that some continuation from `state` still ends in (ascending).
  std::span<const uint32_t> viable_terminals(uint32_t state) const {
    return {viable_.data() + viable_begin_[state], viable_.data() + viable_begin_[state + 1]};
  }

  const std::vector<TerminalSpec>& terminals() const { return terminals_; }
  const LexerDfaStats& stats() const { return stats_; }

  // The smallest byte of every class of bytes that no state tells apart (byte_classes.h),
  // ascending: computed once with the DFA, for the analyses that try one byte per class.
  const std::vector<uint8_t>& byte_classes() const { return byte_classes_; }

  // The tables as flat arrays, for compiled grammar images (lexer_dfa_io.cpp). The terminal
  // specs are not stored: read() takes them from the caller (terminal_specs() of the same
  // grammar) and refuses tables over another number of terminals. Every value used as an index
  // is checked, so damaged bytes end in glrmask::Error (ErrorCode::kArtifact), never in a read
  // out of bounds.
  void write(BinaryWriter& out) const;
  static LexerDfa read(BinaryReader& in, std::vector<TerminalSpec> terminals);

 private:
  friend class LexerDfaAssembler;
  LexerDfa() = default;  // only compile_lexer_dfa() makes one

  std::vector<TerminalSpec> terminals_;
  uint32_t start_ = 0;
  std::vector<uint32_t> transitions_;      // num_states * 256
  std::vector<LabelId> labels_;            // per state
  std::vector<uint8_t> final_;             // per state
  std::vector<LabelId> tentative_labels_;  // per state
  std::vector<int16_t> vetoes_;            // per state, -1 where none
  bool has_tentative_ = false;
  std::vector<uint32_t> label_begin_;  // per label + 1
  std::vector<uint32_t> label_terminals_;
  std::vector<uint8_t> label_ignored_;  // per label
  std::vector<uint32_t> viable_begin_;  // per state + 1
  std::vector<uint32_t> viable_;
  std::vector<uint8_t> byte_classes_;
  LexerDfaStats stats_;
};

}  // namespace glrmask::lexer
