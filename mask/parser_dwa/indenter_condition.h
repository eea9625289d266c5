// What a branch of the Parser DWA assumes about a session's indenter state (glr/indenter.h), for
// a grammar whose post-lexer is an indenter (docs/wfa.md, "Indenter").
//
// The indenter's state — bracket depth, indentation levels — is unbounded, so it is not folded
// into the automaton's states. A token's effect on it depends on the token's bytes (which the
// Terminal DWA's indent labels carry: lexer/terminal_dwa/indent_label.h) and on a few comparisons
// with the state: is the depth 0, is the newline's width above, equal to or below the top level,
// which level below does it land on. The construction follows every outcome and marks the work that
// depends on one with a condition; get_mask evaluates the conditions against the session's
// actual state while it walks the stack. Conditions about levels below the top are asked where
// the walk reads the stack's _INDENT frames: the level below the k-th open frame from the top is
// levels[n - k - 1] (frames and levels correspond one to one: every _INDENT the indenter emits is
// shifted, and a frame stays on the stack until its _DEDENT).
#pragma once

#include <cstdint>
#include <span>

#include "glr/indenter.h"
#include "lexer/terminal_dwa/indent_label.h"

namespace glrmask::mask {

enum class ConditionKind : std::uint8_t {
  kDepthIs,     // the bracket depth before the token is `value`
  kDepthAbove,  // ... is above `value`
  kTopEqual,    // the newline's width (IndentText in `text_kind`, `value`) equals the top level
  kTopAbove,    // ... is above it
  kFrameEqual,  // the width equals the level under the _INDENT frame being read
  kDeferred,    // not decided by the automaton: get_mask tries the weight's tokens on the session
};

struct IndenterCondition {
  ConditionKind kind = ConditionKind::kDeferred;
  lexer::IndentTextKind text_kind = lexer::IndentTextKind::kAbsolute;
  std::uint16_t reserved = 0;
  std::uint32_t value = 0;  // the depth, or the width of the newline's text

  bool operator==(const IndenterCondition&) const = default;
};

// The session's indenter state a walk evaluates conditions against.
struct IndenterContext {
  std::uint32_t depth = 0;
  std::span<const std::uint32_t> levels;  // increasing, above the implicit level 0
  // The text of the newline lexeme before the token (for relative widths): what the session's
  // lexer holds of it.
  glr::IndentScan carried;
};

// Whether `condition` holds when the walk reads a node with `frames_above` open _INDENT frames
// above it (only the kFrame conditions use that; -1 for the frame a _DEDENT on top of the stack
// has already closed, whose level below is the top). kDeferred never holds.
bool holds(const IndenterCondition& condition, const IndenterContext& context,
           std::int64_t frames_above);

}  // namespace glrmask::mask
