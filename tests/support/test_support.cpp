#include "tests/support/test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "lib/core/settings.h"

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

namespace {
std::set<std::string>& skipped_names() {
  static std::set<std::string> names;
  return names;
}
}  // namespace

void skip_test_case() {
  const std::string name = Catch::getResultCapture().getCurrentTestName();
  std::cerr << "*** SKIPPED: " << name << " (an input it needs is absent, see above) ***\n";
  skipped_names().insert(name);
}

std::size_t skipped_test_cases() {
  return skipped_names().size();
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

GlrmaskRun run_glrmask_args(const std::vector<std::string>& args, const std::string* input) {
  static const ScratchDir scratch;
  std::string command = shell_quoted(glrmask_binary());
  for (const std::string& arg : args) command += " " + shell_quoted(arg);
  if (input) {
    std::ofstream(scratch.path / "stdin.txt", std::ios::binary) << *input;
    command += " <" + shell_quoted(scratch.path / "stdin.txt");
  }
  // run_command() adds `2>&1`; the group keeps stdout in the file and only stderr in the pipe.
  command = "{ " + command + " >" + shell_quoted(scratch.path / "stdout.txt") + "; }";
  const CommandResult result = run_command(command);
  return GlrmaskRun{result.exit_code, read_file(scratch.path / "stdout.txt"), result.output};
}

std::filesystem::path tokenizer_fixture(std::string_view name) {
  return fixtures_dir() / "tokenizers" / name / "tokenizer.json";
}

std::size_t count_lines(std::string_view text) {
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n' ? 1 : 0;
  return lines;
}

bool has_line(std::string_view text, std::string_view line) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (text.substr(0, end) == line) return true;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return false;
}

std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

ScratchDir::ScratchDir() {
  static std::atomic<unsigned> made{0};
  path = std::filesystem::temp_directory_path() /
         ("glrmask_test_" + std::to_string(::getpid()) + "_" + std::to_string(made++));
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;  // a destructor must not throw; a leftover folder is harmless
  std::filesystem::remove_all(path, ignored);
}

std::filesystem::path ScratchDir::write(const std::string& name, std::string_view text) const {
  std::ofstream(path / name, std::ios::binary) << text;
  return path / name;
}

}  // namespace glrmask::testing
