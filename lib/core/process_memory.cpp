#include "lib/core/process_memory.h"

#include <fstream>
#include <string>

namespace glrmask {

namespace {

// A "Name:   123 kB" line of /proc/self/status, in bytes; 0 where it is not available.
std::size_t status_field(const std::string& name) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(name, 0) == 0) return std::stoull(line.substr(name.size())) * 1024;
  }
  return 0;
}

}  // namespace

std::size_t peak_memory_bytes() {
  return status_field("VmHWM:");
}

std::size_t resident_memory_bytes() {
  return status_field("VmRSS:");
}

std::size_t private_memory_bytes() {
  return status_field("RssAnon:");
}

std::size_t file_backed_memory_bytes() {
  return status_field("RssFile:");
}

}  // namespace glrmask
