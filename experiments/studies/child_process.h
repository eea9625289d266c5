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

}  // namespace glrmask::experiments
