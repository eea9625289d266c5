// Reading the text a command works on (a program to check, lex or teacher-force).
#pragma once

#include <string>

namespace glrmask::app {

// The bytes of `file`, exactly; `-` reads standard input. Throws glrmask::Error naming the file
// when it cannot be opened.
std::string read_input_file(const std::string& file);

}  // namespace glrmask::app
