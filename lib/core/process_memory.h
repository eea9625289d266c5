// How much memory this process has used, for the statistics of the compile steps.
#pragma once

#include <cstddef>

namespace glrmask {

// The process's peak resident set size (VmHWM), or 0 where /proc is not available.
std::size_t peak_memory_bytes();
// The process's resident set size now (VmRSS), or 0.
std::size_t resident_memory_bytes();

}  // namespace glrmask
