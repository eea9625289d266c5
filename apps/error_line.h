// An error message as the one line the command-line tools promise (`glrmask CMD: message`): the
// library's messages may quote user text (a decoded regex holding a newline, a terminal named
// after a 400 KB literal) or list details on further lines; here control bytes become escapes
// and an over-long message keeps its head (where the place is named) and its tail.
//
// Local to the tools until lib/core has one shared byte-escaping helper; then this becomes a call
// to it with a length cap.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace glrmask::app {

inline constexpr std::size_t kMaxErrorLineBytes = 2000;

// `message` with \n, \t, \r written as those escapes and every other C0 control byte and DEL as
// \xNN; when the result is longer than `max_bytes`, the middle is replaced by
// " ... [N bytes left out] ... " (cut at UTF-8 character boundaries).
std::string error_line(std::string_view message, std::size_t max_bytes = kMaxErrorLineBytes);

}  // namespace glrmask::app
