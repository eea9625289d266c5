// Cross-check against an independent LALR(1) implementation: Lark's own analyzer (Debian's
// python3-lark), driven by tests/reference/lark_lalr_states.py. On the project's fixtures and on
// every real grammar of the shared data folder, glr/ must find the same number of states, the
// same conflict counts and, state by state, the same lookahead set for every reduction.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "glr/analysis/bnf_text.h"
#include "glr/analysis/conflict_report.h"
#include "glr/lalr_automaton.h"
#include "lib/core/settings.h"
#include "tests/support/glr_test_support.h"
#include "tests/support/grammar_test_support.h"
#include "tests/support/test_support.h"

namespace glrmask::glr {
namespace {

namespace fs = std::filesystem;
using glrmask::testing::read_file;
using glrmask::testing::run_command;

// A Python that can import lark: the PATH's python3, or Debian's own when another interpreter
// shadows it. Empty when neither has it.
struct LarkAnswer {
  std::uint32_t states = 0;
  std::uint32_t shift_reduce = 0;
  std::uint32_t reduce_reduce = 0;
  std::string bnf;         // Lark's productions after EBNF expansion
  std::string lookaheads;  // sorted "kernel || item || terminals" lines
};

LarkAnswer ask_lark(const std::string& python, const fs::path& grammar) {
  const fs::path scratch =
      fs::temp_directory_path() /
      ("glr_lark_reference_" + std::to_string(::getpid()) + "_" + grammar.stem().string());
  const fs::path bnf = scratch.string() + ".bnf";
  const fs::path lookaheads = scratch.string() + ".la";
  const fs::path script =
      glrmask::testing::source_dir() / "tests" / "reference" / "lark_lalr_states.py";
  const auto result =
      run_command(python + " '" + script.string() + "' '" + grammar.string() + "' --bnf '" +
                  bnf.string() + "' --lookaheads '" + lookaheads.string() + "'");
  REQUIRE(result.exit_code == 0);
  LarkAnswer answer;
  std::istringstream lines(result.output);
  std::string key;
  std::uint32_t value = 0;
  while (lines >> key >> value) {
    if (key == "states") answer.states = value;
    if (key == "shift_reduce") answer.shift_reduce = value;
    if (key == "reduce_reduce") answer.reduce_reduce = value;
  }
  answer.bnf = read_file(bnf);
  answer.lookaheads = read_file(lookaheads);
  fs::remove(bnf);
  fs::remove(lookaheads);
  REQUIRE(answer.states > 0);
  return answer;
}

// The same rendering as the script's write_lookaheads().
std::string item_text(const LrGrammar& grammar, Item item) {
  if (item.rule == grammar.accept_rule()) return "$root@" + std::to_string(item.dot);
  std::string text = grammar.name(grammar.lhs(item.rule)) + ": ";
  const std::span<const SymbolId> rhs = grammar.rhs(item.rule);
  for (std::size_t i = 0; i < rhs.size(); ++i) text += (i ? " " : "") + grammar.name(rhs[i]);
  return text + "@" + std::to_string(item.dot);
}

std::string lookahead_lines(const LalrAutomaton& automaton) {
  const LrGrammar& grammar = automaton.grammar();
  std::vector<std::string> lines;
  for (StateId state = 0; state < automaton.lr0().num_states(); ++state) {
    std::vector<std::string> kernel;
    for (const Item& item : automaton.lr0().kernel(state))
      kernel.push_back(item_text(grammar, item));
    std::sort(kernel.begin(), kernel.end());
    std::string kernel_text;
    for (const std::string& item : kernel) kernel_text += (kernel_text.empty() ? "" : " | ") + item;
    for (const Reduction& reduction : automaton.lookaheads().reductions(state)) {
      std::vector<std::string> terminals;
      for (std::size_t t = reduction.lookahead.find_first(); t != TerminalSet::npos;
           t = reduction.lookahead.find_next(t)) {
        terminals.push_back(grammar.name(static_cast<SymbolId>(t)));
      }
      std::sort(terminals.begin(), terminals.end());
      std::string line =
          kernel_text + " || " +
          item_text(grammar, Item{reduction.rule, grammar.rhs_length(reduction.rule)}) + " || ";
      for (std::size_t i = 0; i < terminals.size(); ++i) line += (i ? " " : "") + terminals[i];
      lines.push_back(line);
    }
  }
  std::sort(lines.begin(), lines.end());
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

LarkAnswer compare_with_lark(const std::string& python, const fs::path& grammar) {
  INFO(grammar.string());
  const LarkAnswer lark = ask_lark(python, grammar);
  const LalrAutomaton automaton(parse_bnf(lark.bnf, grammar.filename().string() + " (via Lark)"));
  const ConflictReport report = report_conflicts(
      automaton, ConflictReportOptions{.examples = false, .canonical_state_limit = 0});
  CHECK(automaton.lr0().num_states() == lark.states);
  CHECK(report.stats.shift_reduce == lark.shift_reduce);
  CHECK(report.stats.reduce_reduce == lark.reduce_reduce);
  CHECK(lookahead_lines(automaton) == lark.lookaheads);
  return lark;
}

TEST_CASE("Same states, conflicts and lookaheads as Lark on the project's fixtures") {
  const std::string python = glrmask::testing::python_with_lark().value_or("");
  if (python.empty()) {
    WARN("python3 with the lark module (Debian python3-lark) is missing: reference check skipped");
    return glrmask::testing::skip_test_case();
  }
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(glrmask::testing::fixtures_dir() / "glr")) {
    if (entry.path().extension() != ".lark") continue;
    const LarkAnswer lark = compare_with_lark(python, entry.path());
    // The fixture read directly (quoted literals keep their own names) gives the same automaton.
    const LalrAutomaton direct(
        parse_bnf(read_file(entry.path()), entry.path().filename().string()));
    CHECK(direct.lr0().num_states() == lark.states);
    const ConflictStats stats = report_conflicts(direct).stats;
    CHECK(stats.shift_reduce == lark.shift_reduce);
    CHECK(stats.reduce_reduce == lark.reduce_reduce);
    ++compared;
  }
  CHECK(compared >= 9);
}

TEST_CASE("Same states, conflicts and lookaheads as Lark on the real grammars") {
  const std::string python = glrmask::testing::python_with_lark().value_or("");
  if (python.empty()) {
    WARN("python3 with the lark module (Debian python3-lark) is missing: reference check skipped");
    return glrmask::testing::skip_test_case();
  }
  if (!glrmask::testing::require_data_dir("glr_lark_reference_test (real Lark grammars)"))
    return glrmask::testing::skip_test_case();
  int compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(data_dir() / "grammars" / "syncode")) {
    const fs::path& path = entry.path();
    // lark-builtin/ holds the files %import reads, not grammars of their own.
    if (path.extension() != ".lark" || path.parent_path().filename() == "lark-builtin") continue;
    compare_with_lark(python, path);
    ++compared;
  }
  CHECK(compared >= 10);
}

TEST_CASE("Example prefixes reach their conflict states on the real grammars") {
  const std::string python = glrmask::testing::python_with_lark().value_or("");
  if (python.empty() ||
      !glrmask::testing::require_data_dir("glr example prefixes on real grammars")) {
    return glrmask::testing::skip_test_case();
  }
  for (const char* name : {"go_grammar.lark", "sql_grammar.lark", "java_grammar.lark",
                           "branch-js/javascript_grammar.lark"}) {
    INFO(name);
    const fs::path path = data_dir() / "grammars" / "syncode" / name;
    const LalrAutomaton automaton(parse_bnf(ask_lark(python, path).bnf, name));
    const ConflictReport report = report_conflicts(automaton);
    REQUIRE_FALSE(report.conflicts.empty());
    // Every conflict gets an example; replay a spread of them (all would take a while on JS).
    const std::size_t step = std::max<std::size_t>(1, report.conflicts.size() / 60);
    for (std::size_t i = 0; i < report.conflicts.size(); ++i) {
      const Conflict& conflict = report.conflicts[i];
      REQUIRE(conflict.example.has_value());
      if (i % step != 0) continue;
      const auto stacks =
          testing::stacks_before(automaton.table(), *conflict.example, conflict.lookahead);
      CHECK(std::any_of(stacks.begin(), stacks.end(),
                        [&](const testing::Stack& s) { return s.back() == conflict.state; }));
    }
  }
}

}  // namespace
}  // namespace glrmask::glr
