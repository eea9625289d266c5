// Errors that reach a user. Every message names the place: a file with line and column, a byte
// offset, or a token id. The command-line tools print `what()` on one line and exit with code 2.
//
// The type is the public one (api/include/glrmask/error.hpp): what the library throws is what a
// caller of the API catches, with the code and the place as fields.
#pragma once

#include "glrmask/error.hpp"
