// JSON Schema `pattern` (an ECMA-262 regex over the *decoded* string) translated into a regex
// over the string's JSON spelling (regex.h), which is what the lexer reads: each character the
// pattern allows is matched in every spelling JSON has for it (a literal '"' as \" or \u0022, 'μ'
// as itself or \u03bc, a class that holds '\n' by \n and \u000a, ...).
//
// Semantics: JSON Schema patterns are not anchored (a search), so an alternative without a
// leading ^ may be preceded by any characters and one without a trailing $ followed by any.
// ^ and $ are accepted only there (at the ends of a top-level alternative). \d \w \s are the ASCII
// classes of ECMA-262 (a subset of Python's Unicode ones, so sound under either reading); '.' is
// any character but \n \r U+2028 U+2029. Lazy quantifiers match the same strings as greedy ones.
// \p{...} / \P{...} are Unicode general categories (unicode_properties.h), \cX a control letter.
// Refused with an error: lookaround, backreferences, \b \B, and anchors elsewhere.
// The parse is pattern_ast.h's (shared with ecma_regex.h, which evaluates patterns on values);
// this file writes its tree as a regex.
#pragma once

#include <string>
#include <string_view>

#include "lib/json_schema/string_spellings.h"

namespace glrmask::json_schema {

// Throws glrmask::Error "<where>: pattern column N: <reason>" (N counts code points from 1).
std::string translate_pattern(std::string_view pattern, const std::string& where,
                              StringSpellings spellings = StringSpellings::kEncoders);

// Translates a pattern that must match the whole content (a --regex constraint, or a
// patternProperties key): no implicit search, ^ and $ allowed at the ends.
std::string translate_anchored_pattern(std::string_view pattern, const std::string& where,
                                       StringSpellings spellings = StringSpellings::kEncoders);

}  // namespace glrmask::json_schema
