// Writing byte strings into the JSON the decoding commands print (mask --json, generate
// --json-lines). Output is produced with fmt; no JSON library is needed to write it.
#pragma once

#include <string>
#include <string_view>

namespace glrmask::app {

// `bytes` as a quoted JSON string: `"` and `\` escaped, control characters as \n, \t, \r, \b, \f or
// \u00XX, other valid UTF-8 copied as is. A byte that is not part of valid UTF-8 (a token can end
// inside a character) becomes U+FFFD, since JSON strings hold characters, not bytes; callers that
// need the exact bytes say whether the text was valid (see is_valid_utf8).
std::string json_string(std::string_view bytes);

bool is_valid_utf8(std::string_view bytes);

}  // namespace glrmask::app
