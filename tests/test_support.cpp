#include "tests/test_support.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lib/settings.h"

namespace glrmask::testing {

std::filesystem::path fixtures_dir() {
  return GLRMASK_FIXTURES_DIR;
}
std::filesystem::path source_dir() {
  return GLRMASK_SOURCE_DIR;
}
std::filesystem::path glrmask_binary() {
  return GLRMASK_GLRMASK_BIN;
}

bool require_data_dir(std::string_view what) {
  if (have_data_dir()) return true;
  std::cerr << "\n*** WARNING: real-data folder " << data_dir() << " is absent: " << what
            << " runs on the project's own fixtures only. Set GLRMASK_DATA. ***\n\n";
  return false;
}

bool require_tokenizer(std::string_view name) {
  try {
    resolve_tokenizer(name);
    return true;
  } catch (const std::exception& e) {
    std::cerr << "\n*** WARNING: " << e.what() << " ***\n\n";
    return false;
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace glrmask::testing
