// Helpers shared by the tests: where fixtures and real data live, and a loud notice when the real
// data folder is absent (the test then covers only the project's own fixtures).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace glrmask::testing {

std::filesystem::path fixtures_dir();
std::filesystem::path source_dir();
std::filesystem::path glrmask_binary();

// Returns true when the shared real-data folder exists; otherwise prints a loud warning naming the
// test that loses coverage and returns false.
bool require_data_dir(std::string_view what);

// Returns true when the named tokenizer is in the setup cache; otherwise warns loudly.
bool require_tokenizer(std::string_view name);

// Marks the running test case as skipped: an input it needs (the real-data folder, a tokenizer,
// node, python3-lark) is absent, so it returns early, or leaves a section out. The test program
// then exits with kSkipExitCode when every test case it ran was skipped and none failed, which
// CTest (SKIP_RETURN_CODE, one test case per entry) reports as "Skipped", not as a pass. Use as
// `if (!require_data_dir("...")) return skip_test_case();`.
void skip_test_case();
// How many test cases skip_test_case() marked so far in this process.
std::size_t skipped_test_cases();
inline constexpr int kSkipExitCode = 77;

std::string read_file(const std::filesystem::path& path);

// tests/fixtures/tokenizers/<name>/tokenizer.json.
std::filesystem::path tokenizer_fixture(std::string_view name);

// The number of newline characters in `text`; whether one of its lines is exactly `line`.
std::size_t count_lines(std::string_view text);
bool has_line(std::string_view text, std::string_view line);

struct CommandResult {
  int exit_code = 0;
  std::string output;  // stdout and stderr together
};
// Runs a shell command and captures what it prints.
CommandResult run_command(const std::string& command);

// `glrmask ARGS` (each argument quoted), with `input` on standard input when given: its exit
// code, standard output and standard error apart.
struct GlrmaskRun {
  int exit_code = 0;
  std::string out;  // stdout
  std::string err;  // stderr
};
GlrmaskRun run_glrmask_args(const std::vector<std::string>& args,
                            const std::string* input = nullptr);

// `text` as one word for the shell: in single quotes, each `'` written as `'\''`.
std::string shell_quoted(std::string_view text);
inline std::string shell_quoted(const std::string& text) {
  return shell_quoted(std::string_view(text));
}
inline std::string shell_quoted(const char* text) {
  return shell_quoted(std::string_view(text));
}
inline std::string shell_quoted(const std::filesystem::path& path) {
  return shell_quoted(std::string_view(path.native()));
}

// A fresh folder under the system's temporary directory, unique to this process and object, removed
// with everything in it when the object goes out of scope.
struct ScratchDir {
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Writes `text` (bytes, as is) to the file `name` in the folder and returns its path.
  std::filesystem::path write(const std::string& name, std::string_view text) const;

  std::filesystem::path path;
};

}  // namespace glrmask::testing
