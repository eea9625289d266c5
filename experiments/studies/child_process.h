// Runs this program again as a child (`studies --child KIND ARGS...`) and captures its stdout, so a
// measurement's peak memory (VmHWM) belongs to it alone and every build starts cold.
#pragma once

#include <string>
#include <vector>

namespace glrmask::experiments {

struct ChildResult {
  int exit_code = 0;
  std::string output;  // stdout only; the child's progress goes to the shared stderr
};

ChildResult run_self_as_child(const std::vector<std::string>& args);

// The last line of a child's output, without trailing newlines: where a child prints its result.
std::string last_line(std::string output);

// The tab-separated fields of a child's result line.
std::vector<std::string> split_tabs(const std::string& line);

}  // namespace glrmask::experiments
