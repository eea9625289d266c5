// Hand-written matchers for the pre-tokenizer regular expressions of the supported tokenizers.
// They reproduce what the reference (JavaScript, `gu` flags) matches, including its backtracking
// order among alternatives, its \s set, and its rewrite of (?i:'s|'t|...) into ASCII-only
// case-insensitive classes. Working on code points of UTF-8 text directly avoids a regex engine
// whose Unicode semantics would differ from the reference in small ways.
#pragma once

#include <cstddef>
#include <string_view>

#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

// The end of the match of `regex` that starts exactly at byte `pos` of valid UTF-8 `text`, or `pos`
// when the expression has no match starting there. None of the expressions matches the empty
// string.
std::size_t match_split_regex(SplitRegex regex, std::string_view text, std::size_t pos);

}  // namespace glrmask
