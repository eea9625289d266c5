// `glrmask parse --trees N` against Lark's Earley parser (ambiguity='explicit', every `_ambig`
// expanded by tests/reference/lark_trees.py): on the ambiguity fixtures the two list the same
// trees in the same notation, Lark's tree shaping included (?rule, _rule, aliases, !rule,
// filtered literals).
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace glrmask::testing {
namespace {

std::string python_with_lark() {
  for (const char* candidate : {"python3", "/usr/bin/python3"})
    if (run_command(std::string(candidate) + " -c 'import lark'").exit_code == 0) return candidate;
  return {};
}

// The trees of an output: blocks of lines separated by blank lines, each starting at a
// non-indented line; `tree N` headers and other notes are dropped.
std::vector<std::string> trees_of(const std::string& output, bool ours) {
  std::vector<std::string> trees;
  std::istringstream in(output);
  std::string current;
  bool in_tree = !ours;
  for (std::string line; std::getline(in, line);) {
    if (ours && line.rfind("tree ", 0) == 0) {
      in_tree = true;
      continue;
    }
    if (line.empty()) {
      if (!current.empty()) trees.push_back(current);
      current.clear();
      in_tree = !ours;
      continue;
    }
    if (in_tree) current += line + "\n";
  }
  if (!current.empty()) trees.push_back(current);
  std::sort(trees.begin(), trees.end());
  return trees;
}

TEST_CASE("parse --trees lists the trees Lark's Earley parser lists, shaped alike") {
  const std::string python = python_with_lark();
  if (python.empty()) {
    WARN("python3-lark is not installed: the tree comparison is skipped");
    return;
  }
  const auto script = source_dir() / "tests" / "reference" / "lark_trees.py";
  for (const std::string name : {"dangling_else", "expr", "shaping"}) {
    INFO(name);
    const auto grammar = fixtures_dir() / "ambiguity" / (name + ".lark");
    const auto text = fixtures_dir() / "ambiguity" / (name + ".txt");
    const CommandResult lark = run_command(python + " " + shell_quoted(script) + " " +
                                           shell_quoted(grammar) + " " + shell_quoted(text));
    REQUIRE(lark.exit_code == 0);
    const CommandResult ours =
        run_command(shell_quoted(glrmask_binary()) + " parse " + shell_quoted(grammar) + " " +
                    shell_quoted(text) + " --trees 100");
    REQUIRE(ours.exit_code == 0);
    const auto lark_trees = trees_of(lark.output, false);
    const auto our_trees = trees_of(ours.output, true);
    CHECK(lark_trees.size() >= 2);
    CHECK(our_trees == lark_trees);
  }
}

}  // namespace
}  // namespace glrmask::testing
