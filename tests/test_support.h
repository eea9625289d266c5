// Helpers shared by the tests: where fixtures and real data live, and a loud notice when the real
// data folder is absent (the test then covers only the project's own fixtures).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace glrmask::testing {

std::filesystem::path fixtures_dir();
std::filesystem::path source_dir();
std::filesystem::path glrmask_binary();

// Returns true when the shared real-data folder exists; otherwise prints a loud warning naming the
// test that loses coverage and returns false.
bool require_data_dir(std::string_view what);

// Returns true when the named tokenizer is in the setup cache; otherwise warns loudly.
bool require_tokenizer(std::string_view name);

std::string read_file(const std::filesystem::path& path);

struct CommandResult {
  int exit_code = 0;
  std::string output;  // stdout and stderr together
};
// Runs a shell command and captures what it prints.
CommandResult run_command(const std::string& command);

}  // namespace glrmask::testing
