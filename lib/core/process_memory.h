// How much memory this process has used, for the statistics of the compile steps.
#pragma once

#include <cstddef>

namespace glrmask {

// The process's peak resident set size (VmHWM), or 0 where /proc is not available.
std::size_t peak_memory_bytes();
// The process's resident set size now (VmRSS), or 0.
std::size_t resident_memory_bytes();
// The resident pages that are the process's own (RssAnon: heap, stacks), or 0: what a second
// process that maps the same files adds to the machine's memory.
std::size_t private_memory_bytes();
// The resident pages of mapped files (RssFile), or 0: shared with every process mapping the same
// file through the page cache.
std::size_t file_backed_memory_bytes();

}  // namespace glrmask
