// GLRMASK_API marks what the shared library exports: the public classes and functions. The
// project builds with hidden visibility, so everything else stays internal to the library.
#pragma once

#if defined(__GNUC__)
#define GLRMASK_API __attribute__((visibility("default")))
#else
#define GLRMASK_API
#endif
