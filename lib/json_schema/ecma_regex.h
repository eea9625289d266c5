// Evaluates a JSON Schema `pattern` (ECMA-262 syntax) on a decoded string, for the decisions the
// compiler takes on concrete strings: which enum values a pattern keeps, which declared property
// names a patternProperties pattern matches, whether a value has a format.
//
// The pattern is read by the parser translate_pattern uses (pattern_ast.h), with its semantics
// (pattern.h: \d \w \s ASCII, '.' without line terminators, lazy read as greedy), and run as a
// Thompson automaton over the text's code points (pattern_nfa.h): a class such as [é-ü] or
// \p{Lu} compares characters, not UTF-8 bytes, and time is linear in the text, so neither a long
// value nor an ambiguous repetition such as ^(a|aa)*$ can exhaust the stack or the clock.
//
// Lookaround, backreferences and \b \B (and anchors inside the pattern) have no automaton here;
// they go to a backtracking machine (backtracking_matcher.h: an explicit stack, a budget of
// steps, a clear kLimit error when a pattern backtracks too much), on an ASCII pattern and an
// ASCII value of at most kMaxFallbackBytes bytes, where its classes are exact. On any other value
// such a pattern is refused rather than evaluated on bytes.
#pragma once

#include <cstddef>
#include <string>

namespace glrmask::json_schema {

inline constexpr std::size_t kMaxFallbackBytes = std::size_t{1} << 16;

// re.search semantics (not anchored). Throws glrmask::Error naming `where` when the pattern cannot
// be read (the parse error of translate_pattern, with its column), when its automaton would be
// too large (pattern_nfa.h), when `text` is not valid UTF-8, or when a lookaround, backreference
// or word boundary would have to be evaluated outside the backtracking fallback above, and (kLimit)
// when that fallback exceeds its budget of steps.
bool ecma_search(const std::string& pattern, const std::string& text, const std::string& where);

}  // namespace glrmask::json_schema
