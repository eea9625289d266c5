// glrmask's version: the macros of glrmask/version.h for the headers a program compiled against,
// and version() for the library it runs with.
#pragma once

#include "glrmask/export.hpp"
#include "glrmask/version.h"

namespace glrmask {

// "0.2.0": the version of the loaded library (GLRMASK_VERSION_STRING is the headers').
GLRMASK_API const char* version() noexcept;

}  // namespace glrmask
