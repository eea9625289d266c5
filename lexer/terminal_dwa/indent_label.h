// Labels of the Terminal DWA that carry the text of a newline lexeme, for a grammar whose
// post-lexer is an indenter (glr/indenter.h, docs/indenter.md). The indenter turns a newline
// into _INDENT/_DEDENT tokens by the width of its text after the last '\n', so tokens that emit a
// newline of different widths must stay apart in the trie: the Terminal DWA built with
// IndentLabeling emits, for every label that contains the newline terminal, an *indent label*:
// the lexer label plus what the token's own bytes say about the newline's text.
//
// An indent label is a LabelId with kIndentLabelBit set; the lexer's labels are far below it.
// Kinds (IndentText):
//  - kAbsolute: the token's part of the newline's text holds a '\n'; `width` is what follows
//    the last one (spaces count 1, tabs tab_len).
//  - kRelative: the newline's lexeme began before the token and the token's part holds no '\n':
//    the width is the width of the lexeme's text before the token (a session's runtime value)
//    plus `width`. Only the first label of a token can be relative.
//  - kNoNewline: the lexeme began in the token and its text holds no '\n' (SynCode's _NL can be
//    a lone """docstring"""): the indenter refuses it.
#pragma once

#include <cstdint>

#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

enum class IndentTextKind : uint8_t { kAbsolute = 0, kRelative = 1, kNoNewline = 2 };

struct IndentText {
  IndentTextKind kind = IndentTextKind::kAbsolute;
  uint32_t width = 0;

  bool operator==(const IndentText&) const = default;
};

// What the Terminal DWA builder needs to emit indent labels.
struct IndentLabeling {
  uint32_t newline_terminal = 0;
  uint32_t tab_len = 4;
};

inline constexpr LabelId kIndentLabelBit = 0x80000000u;
inline constexpr uint32_t kIndentLabelBaseBits = 12;   // lexer labels below 4096
inline constexpr uint32_t kIndentLabelWidthBits = 17;  // widths below 131072

inline constexpr bool is_indent_label(LabelId label) {
  return (label & kIndentLabelBit) != 0;
}
// The lexer label (LexerDfa::label_terminals etc.) of any Terminal DWA label.
inline constexpr LabelId base_label(LabelId label) {
  return is_indent_label(label) ? (label & ((1u << kIndentLabelBaseBits) - 1)) : label;
}
inline IndentText indent_text(LabelId label) {
  return {static_cast<IndentTextKind>((label >> 29) & 3u),
          (label >> kIndentLabelBaseBits) & ((1u << kIndentLabelWidthBits) - 1)};
}
// Throws glrmask::Error when the lexer label or the width does not fit.
LabelId make_indent_label(LabelId base, IndentText text);

}  // namespace glrmask::lexer
