// An error message as the one line the command-line tools promise (`glrmask CMD: message`): the
// library's messages may quote user text (a decoded regex holding a newline, a terminal named
// after a 400 KB literal) or list details on further lines; here control bytes become escapes
// (lib/core/escape.h) and an over-long message keeps its head (where the place is named) and its
// tail. The cap is on the escaped line and names how much was left out, which is why it is
// not escape_bytes' own max_bytes (that one counts input bytes and says only "...").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace glrmask::app {

inline constexpr std::size_t kMaxErrorLineBytes = 2000;

// `message` with \n and \t written as those escapes, every other C0 control byte, DEL, C1 control
// and byte that is not UTF-8 as \xNN, and backslashes as they are (escape_bytes with
// escape_backslash off); when the result is longer than `max_bytes`, the middle is replaced by
// " ... [N bytes left out] ... " (cut at UTF-8 character boundaries).
std::string error_line(std::string_view message, std::size_t max_bytes = kMaxErrorLineBytes);

// `message` in the program's words: the library names the API field an error is about
// (`Limits::max_step_work`, `GrammarOptions::postlex`), this program's users set it with an option
// (`max_step_work; raise it with --max-step-work`, `--postlex`).
std::string with_options(std::string_view message);

}  // namespace glrmask::app
