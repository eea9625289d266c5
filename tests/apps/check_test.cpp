// `glrmask check` on the real corpora: with SynCode's conventions (Lark's conflict policy, Go's EOS
// skippable) exactly the files SynCode's own parser accepts are accepted (programs/*/parses.txt,
// computed with Lark, not with this project); under the GLR policy the accepted set can only grow.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "lib/core/settings.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::run_command;

namespace {

std::set<std::string> read_lines(const std::filesystem::path& path) {
  std::set<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.insert(line);
  return lines;
}

// Runs check on every file with extension `ext` in `root` and its sub-folder `sub` (if given);
// returns the accepted files as paths relative to `root`, as parses.txt writes them.
std::set<std::string> accepted_files(const std::filesystem::path& grammar,
                                     const std::filesystem::path& root, const std::string& ext,
                                     const std::string& options, const std::string& sub = "") {
  std::string command = testing::glrmask_binary().string() + " check " + grammar.string() + " " +
                        options + " --quiet";
  std::set<std::string> all;
  std::vector<std::string> folders{""};
  if (!sub.empty()) folders.push_back(sub);
  for (const auto& folder : folders) {
    for (const auto& entry : std::filesystem::directory_iterator(root / folder)) {
      if (entry.path().extension() != ext) continue;
      all.insert(std::filesystem::relative(entry.path(), root).string());
      command += " " + entry.path().string();
    }
  }
  auto result = run_command(command);
  REQUIRE((result.exit_code == 0 || result.exit_code == 1));
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    auto colon = line.find(": rejected");
    if (colon == std::string::npos) continue;
    all.erase(std::filesystem::relative(line.substr(0, colon), root).string());
  }
  return all;
}

bool includes(const std::set<std::string>& big, const std::set<std::string>& small) {
  return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

}  // namespace

TEST_CASE("check accepts exactly SynCode's Go parses with --policy lark --skippable EOS") {
  if (!testing::require_data_dir("cli_check_test (Go corpus)"))
    return glrmask::testing::skip_test_case();
  auto grammar = data_dir() / "grammars/syncode/go_grammar.lark";
  auto folder = data_dir() / "programs/go";
  auto expected = read_lines(folder / "parses.txt");
  REQUIRE(expected.size() == 28);
  CHECK(accepted_files(grammar, folder, ".go", "--policy lark --skippable EOS") == expected);
  auto glr = accepted_files(grammar, folder, ".go", "--skippable EOS");
  CHECK(includes(glr, expected));
  // Without the skippable statement end almost nothing parses (programs/go/SOURCE.md).
  CHECK(accepted_files(grammar, folder, ".go", "--policy lark").size() <= 1);
}

TEST_CASE("check accepts exactly SynCode's Java parses (originals and comment-free copies)") {
  if (!testing::require_data_dir("cli_check_test (Java corpus)"))
    return glrmask::testing::skip_test_case();
  auto grammar = data_dir() / "grammars/syncode/java_grammar.lark";
  auto root = data_dir() / "programs/java";
  auto expected = read_lines(root / "parses.txt");
  REQUIRE(expected.size() == 51);  // 50 comment-free copies and one original (java/SOURCE.md)
  CHECK(accepted_files(grammar, root, ".java", "--policy lark", "nocomments") == expected);
  CHECK(includes(accepted_files(grammar, root, ".java", "", "nocomments"), expected));
}

TEST_CASE("check names the byte offset of an injected error and exits 1") {
  auto grammar = testing::fixtures_dir() / "cli" / "check_list.lark";
  auto good = std::filesystem::temp_directory_path() / "glrmask_check_good.txt";
  auto bad = std::filesystem::temp_directory_path() / "glrmask_check_bad.txt";
  std::ofstream(good) << "[1, 2, [3]]";
  std::ofstream(bad) << "[1, 2 3]";
  auto result = run_command(testing::glrmask_binary().string() + " check " + grammar.string() +
                            " " + good.string() + " " + bad.string());
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("glrmask_check_good.txt: accepted"));
  CHECK_THAT(result.output, Catch::Contains("glrmask_check_bad.txt: rejected") &&
                                Catch::Contains("byte offset 6"));
  CHECK_THAT(result.output, Catch::Contains("1 of 2 accepted"));
}
