// Evaluates the ECMA-262 constructs no automaton holds (lookahead and lookbehind, backreferences,
// \b and \B, ^ and $ inside the pattern) on an ASCII value, for ecma_search: a backtracking
// machine of the project's own with an explicit stack (no recursion on the value's length) and a
// budget of steps, so that an exponential pattern such as ^(a+)+\1c on a long value ends in a
// clear error instead of a hang or a stack overflow (a library backtracker such as std::regex has
// neither bound).
//
// The semantics are ECMA-262's without flags (no `u`, `i`, `m`, `s`): ^ and $ match at the ends
// of the value only, '.' is any character but \n and \r, \d \w \s are ASCII classes, a capture
// group inside a quantified atom is cleared at each iteration, an iteration that matches the
// empty string ends the loop, lookarounds are atomic (their captures are those of their first
// match), a backreference to a group that did not participate matches the empty string. Only
// ASCII patterns are read (an escape may still name a character beyond ASCII, which then never
// matches); \p{...} and a `u`-mode escape such as \u{...} are refused.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace glrmask::json_schema {

// Steps of the machine one evaluation may take (an instruction executed is a step): a few
// milliseconds of work.
inline constexpr std::size_t kMaxBacktrackingSteps = std::size_t{1} << 22;
// Instructions a pattern may compile to (counted repetitions are copied).
inline constexpr std::size_t kMaxBacktrackingProgram = std::size_t{1} << 16;

// re.search semantics (not anchored unless the pattern is). `pattern` and `text` are ASCII (the
// caller checks). Throws glrmask::Error naming `where`: kSchema for a pattern it cannot read,
// with the column, and kLimit when the program or the steps exceed the budgets above.
bool backtracking_search(std::string_view pattern, std::string_view text, const std::string& where,
                         std::size_t max_steps = kMaxBacktrackingSteps);

}  // namespace glrmask::json_schema
