// Inputs a new user gives by mistake, each refused with one line naming the option or the path
// and exit code 2 (issue "Reliability", findings 5 to 8): malformed numbers, a folder or a FIFO
// where a file is expected, error text holding control bytes or 400 KB names, an output path that
// cannot be written. Every case runs against the project's tiny tokenizer fixture: no real data.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using glrmask::testing::count_lines;
using glrmask::testing::run_command;
using glrmask::testing::ScratchDir;
using glrmask::testing::shell_quoted;
namespace fs = std::filesystem;

namespace {

std::string tiny_tokenizer() {
  return (glrmask::testing::fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json")
      .string();
}

// `glrmask ARGUMENTS` (already quoted for the shell), under a 20 s guard against a blocked open().
glrmask::testing::CommandResult run_glrmask(const std::string& arguments) {
  return run_command("timeout 20 " + shell_quoted(glrmask::testing::glrmask_binary()) + " " +
                     arguments + " </dev/null");
}

// Exit code 2 and exactly one line, which contains every one of `parts`.
void check_one_line_refusal(const std::string& arguments, const std::vector<std::string>& parts) {
  const auto run = run_glrmask(arguments);
  INFO("glrmask " << arguments.substr(0, 300) << "\n" << run.output.substr(0, 3000));
  CHECK(run.exit_code == 2);
  CHECK(count_lines(run.output) == 1);
  for (const std::string& part : parts) CHECK_THAT(run.output, Catch::Contains(part));
}

}  // namespace

TEST_CASE("every numeric option is parsed strictly and a bad value names the option") {
  ScratchDir scratch;
  const fs::path grammar = scratch.write("g.lark", "start: \"a\"+\n");
  const fs::path input = scratch.write("in.txt", "aa");
  const std::string source = shell_quoted(grammar) + " --tokenizer " + tiny_tokenizer();
  const std::string generate = "generate " + source + " --seed 1 --max-tokens 4 ";
  struct Case {
    std::string arguments;
    std::string option;
  };
  const std::vector<Case> cases = {
      {"demo --repeat abc", "--repeat"},
      {"demo --repeat 200abc", "--repeat"},
      {"demo --repeat -1", "--repeat"},
      {"mask " + source + " --input " + shell_quoted(input) + " --max-steps 3x", "--max-steps"},
      {"compile " + source + " -o " + shell_quoted(scratch.path / "a") + " --build-threads 2.5",
       "--build-threads"},
      {"lex " + shell_quoted(grammar) + " " + shell_quoted(input) + " --chunk 0x10", "--chunk"},
      {"generate " + source + " --seed 1e3 --max-tokens 4", "--seed"},
      {"generate " + source + " --seed 1 --max-tokens ' 4'", "--max-tokens"},
      {generate + "--count 99999999999999999999999", "--count"},
      {generate + "--min-tokens 1,5", "--min-tokens"},
      {generate + "--max-token-bytes 0", "--max-token-bytes"},
      {generate + "--eos-bias 0.5abc", "--eos-bias"},
      {generate + "--close-bias nan", "--close-bias"},
      {"check " + shell_quoted(grammar) + " " + shell_quoted(input) + " --max-step-work 1k",
       "--max-step-work"},
      {"check " + shell_quoted(grammar) + " " + shell_quoted(input) + " --max-commit-seconds -1",
       "--max-commit-seconds"},
      {"compile " + source + " -o " + shell_quoted(scratch.path / "a") +
           " --max-parser-dwa-states=x",
       "--max-parser-dwa-states"},
      {"mask " + source + " --input " + shell_quoted(input) +
           " --max-compile-memory-mib 1 --max-compile-memory-mib 2",
       "--max-compile-memory-mib"},
  };
  for (const Case& c : cases) check_one_line_refusal(c.arguments, {c.option});
}

TEST_CASE("a folder given as an input file is refused, not read as empty text") {
  ScratchDir scratch;
  const fs::path grammar = scratch.write("g.lark", "start: \"a\"*\n");
  const fs::path input = scratch.write("in.txt", "aa");
  const fs::path folder = scratch.path / "folder";
  fs::create_directory(folder);
  const std::string dir = shell_quoted(folder);
  const std::string tok = " --tokenizer " + tiny_tokenizer();
  for (const std::string& arguments : {
           "check " + shell_quoted(grammar) + " " + dir,
           "lex " + shell_quoted(grammar) + " " + dir,
           "tokenize" + tok + " " + dir,
           "mask " + shell_quoted(grammar) + tok + " --input " + dir,
           "check " + dir + " " + shell_quoted(input),
           "mask --json-schema " + dir + tok + " --input " + shell_quoted(input),
           "mask " + shell_quoted(grammar) + " --tokenizer " + dir + " --input " +
               shell_quoted(input),
       })
    check_one_line_refusal(arguments, {folder.string()});
}

TEST_CASE("a FIFO given as the artifact is refused at once instead of blocking in open") {
  ScratchDir scratch;
  const fs::path grammar = scratch.write("g.lark", "start: \"a\"*\n");
  const fs::path input = scratch.write("in.txt", "aa");
  const fs::path fifo = scratch.path / "artifact.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Without the fix this blocks until `timeout` kills it (exit code 124).
  check_one_line_refusal("mask " + shell_quoted(grammar) + " --tokenizer " + tiny_tokenizer() +
                             " --input " + shell_quoted(input) + " --artifact " +
                             shell_quoted(fifo),
                         {fifo.string(), "not a regular file"});
}

TEST_CASE("compile -o names the path given and the system's reason when it cannot write") {
  ScratchDir scratch;
  const fs::path grammar = scratch.write("g.lark", "start: \"a\"*\n");
  const std::string compile =
      "compile " + shell_quoted(grammar) + " --tokenizer " + tiny_tokenizer() + " -o ";
  // (compile prints its statistics before it writes, so only the error is checked here.)
  const auto folder = run_glrmask(compile + shell_quoted(scratch.path));
  CHECK(folder.exit_code == 2);
  CHECK_THAT(folder.output, Catch::Contains(scratch.path.string() +
                                            ": cannot write the artifact: it is a directory"));
  const fs::path orphan = scratch.path / "missing" / "a.glrmask";
  const auto run = run_glrmask(compile + shell_quoted(orphan));
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.output,
             Catch::Contains(orphan.string() + ": cannot write the artifact: No such file or "
                                               "directory") &&
                 !Catch::Contains(".partial") && !Catch::Contains("Success"));
}

TEST_CASE("compile -o never follows a planted link and refuses a target that is not a file") {
  ScratchDir scratch;
  const fs::path grammar = scratch.write("g.lark", "start: \"a\"*\n");
  const std::string compile =
      "compile " + shell_quoted(grammar) + " --tokenizer " + tiny_tokenizer() + " -o ";
  // A link at the target: refused, and the file it points to keeps its bytes.
  const fs::path victim = scratch.write("victim.txt", "keep");
  const fs::path link = scratch.path / "link.glrmask";
  fs::create_symlink(victim, link);
  const auto linked = run_glrmask(compile + shell_quoted(link));
  CHECK(linked.exit_code == 2);
  CHECK_THAT(linked.output, Catch::Contains(link.string() + ": cannot write the artifact: it is "
                                                            "a symbolic link"));
  CHECK(glrmask::testing::read_file(victim) == "keep");
  CHECK(fs::is_symlink(link));
  // A FIFO at the target: refused instead of replaced by a regular file.
  const fs::path fifo = scratch.path / "out.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto piped = run_glrmask(compile + shell_quoted(fifo));
  CHECK(piped.exit_code == 2);
  CHECK_THAT(piped.output, Catch::Contains("it is a FIFO"));
  CHECK(fs::is_fifo(fifo));
  // Links planted under every name the old scheme used (PATH.<pid>.partial for the next pids)
  // are not followed: the artifact is written, the victim untouched, no temporary left behind.
  const fs::path out = scratch.path / "a.glrmask";
  for (int pid = 2; pid < 200; ++pid) {
    std::error_code ignored;
    fs::create_symlink(victim, fs::path(out.string() + "." + std::to_string(pid) + ".partial"),
                       ignored);
  }
  const auto written = run_glrmask(compile + shell_quoted(out));
  CHECK(written.exit_code == 0);
  CHECK(fs::is_regular_file(out));
  CHECK(fs::file_size(out) > 1000);
  CHECK(glrmask::testing::read_file(victim) == "keep");
  std::size_t regular_partials = 0;
  for (const auto& entry : fs::directory_iterator(scratch.path)) {
    if (entry.path().extension() == ".partial" && !fs::is_symlink(entry.path())) ++regular_partials;
  }
  CHECK(regular_partials == 0);
}

TEST_CASE("error messages stay on one line: control bytes escaped, long names cut") {
  ScratchDir scratch;
  const fs::path text = scratch.write("in.txt", "a");
  // A decoded regex holding a newline and a tab, quoted by the refusal of an empty match.
  check_one_line_refusal("check " +
                             shell_quoted(scratch.write("nl.lark", "start: A\nA: /\\n\\t*/?\n")) +
                             " " + shell_quoted(text),
                         {"nl.lark:2:1", "\\n\\t"});
  // A terminal named after a 400 KB literal (its name is the literal upper-cased): the message
  // keeps its place and stays short.
  const std::string literal(400000, 'a');
  const auto run =
      run_glrmask("check " +
                  shell_quoted(scratch.write(
                      "big.lark", "start: \"" + literal + "\" | \"" + literal + "\"\n")) +
                  " " + shell_quoted(text));
  CHECK(run.exit_code == 2);
  CHECK(count_lines(run.output) == 1);
  CHECK(run.output.size() < 4000);
  CHECK_THAT(run.output, Catch::Contains("big.lark:1:") && Catch::Contains("bytes left out"));
  // A regex whose language is empty: the refusal names the option, not an empty file name.
  check_one_line_refusal(
      "mask --regex '[^\\s\\S]' --tokenizer " + tiny_tokenizer() + " --input " + shell_quoted(text),
      {"glrmask mask: <regex>: "});
  // `start:` alone (Lark accepts it: the empty text is its only sentence) is refused with its
  // place and the reason, not "no terminals to compile".
  check_one_line_refusal(
      "check " + shell_quoted(scratch.write("empty.lark", "start:\n")) + " " + shell_quoted(text),
      {"empty.lark:1:1", "no terminals"});
}

TEST_CASE("a budget option stops the command with the limit named, not a verdict on the text") {
  ScratchDir scratch;
  const fs::path ambiguous = scratch.write("ss.lark", "start: s\ns: s s | \"a\"\n");
  const fs::path text = scratch.write("a.txt", std::string(300, 'a'));
  const auto check = run_glrmask("check " + shell_quoted(ambiguous) + " " + shell_quoted(text) +
                                 " --max-step-work 5000");
  INFO(check.output);
  CHECK(check.exit_code == 1);
  CHECK_THAT(check.output, Catch::Contains("not decided") && Catch::Contains("max_step_work"));
  CHECK(run_glrmask("check " + shell_quoted(ambiguous) + " " + shell_quoted(text) +
                    " --max-step-work 0 --max-commit-seconds 0")
            .exit_code == 0);
  const fs::path grammar = scratch.write("g.lark", "start: (\"a\" | \"b\" | \"c\")+\n");
  check_one_line_refusal("compile " + shell_quoted(grammar) + " --tokenizer " + tiny_tokenizer() +
                             " -o " + shell_quoted(scratch.path / "g.glrmask") +
                             " --max-parser-dwa-states 1",
                         {"max_parser_dwa_states", "--max-parser-dwa-states"});
}
