#include "experiments/studies/child_process.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "lib/core/error.h"

namespace glrmask::experiments {
namespace {

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

ChildResult run_self_as_child(const std::vector<std::string>& args) {
  std::string command = shell_quote(std::filesystem::read_symlink("/proc/self/exe").string());
  command += " --child";
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw Error("cannot start a child process: " + command, ErrorCode::kIo);
  ChildResult result;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string last_line(std::string output) {
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const std::size_t newline = output.rfind('\n');
  return newline == std::string::npos ? output : output.substr(newline + 1);
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, '\t');) fields.push_back(field);
  return fields;
}

}  // namespace glrmask::experiments
