// The library's entry points against the command line on real data. The tree is installed
// (`cmake --install` into a scratch prefix); a user's project (tests/api/external) is configured
// with find_package(glrmask) and built against it, and the C self-checks are compiled with the
// flags of the installed glrmask.pc. Then that project's program (the C++ API), the C ABI (a
// program compiled as C, tests/api/c_abi_test.c), the installed Python package
// (tests/api/python/teacher_force.py) and `glrmask mask --engine wfa --steps` teacher-force the
// same texts with Llama-3 and must report the same mask at every step (compared by the mask digest
// of docs/cli.md): a Go program under SynCode's convention (--policy lark --skippable EOS), a Java
// program and a MaskBench instance.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "tests/support/test_support.h"

namespace glrmask {
namespace {

namespace fs = std::filesystem;
using testing::run_command;
using testing::shell_quoted;

struct Step {
  std::string token;
  std::string digest;
  bool operator==(const Step&) const = default;
};

// "step token digest" lines (the C and Python programs).
std::vector<Step> parse_lines(const std::string& output) {
  std::vector<Step> steps;
  std::istringstream in(output);
  std::string step, token, digest;
  while (in >> step >> token >> digest) steps.push_back({token, digest});
  return steps;
}

// The CSV of `glrmask mask --steps`: input,step,token,byte_offset,mask_us,mask_tokens,digest,...
std::vector<Step> parse_csv(const std::string& csv) {
  std::vector<Step> steps;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(field);
    REQUIRE(fields.size() >= 7);
    steps.push_back({fields[2], fields[6]});
  }
  // The command names the stop step by its token id; the programs by -1.
  if (!steps.empty()) steps.back().token = "-1";
  return steps;
}

// What the installed tree gives: the user project's program and the folder that holds the
// installed Python package.
struct Installed {
  fs::path program;
  fs::path python_path;
};

// Installs the build tree into `prefix`, builds tests/api/external against it and returns its
// program; also compiles and runs the C self-checks with the installed glrmask.pc's flags.
Installed install_and_build_external(const fs::path& scratch) {
  const fs::path prefix = scratch / "prefix";
  const auto install = run_command("cmake --install " + shell_quoted(fs::path(GLRMASK_BUILD_DIR)) +
                                   " --prefix " + shell_quoted(prefix));
  INFO(install.output);
  REQUIRE(install.exit_code == 0);
  REQUIRE(fs::exists(prefix / "include" / "glrmask" / "glrmask.hpp"));
  const fs::path build = scratch / "external";
  const auto configure =
      run_command("cmake -S " + shell_quoted(testing::source_dir() / "tests/api/external") +
                  " -B " + shell_quoted(build) +
                  " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + shell_quoted(prefix));
  INFO(configure.output);
  REQUIRE(configure.exit_code == 0);
  const auto built = run_command("cmake --build " + shell_quoted(build));
  INFO(built.output);
  REQUIRE(built.exit_code == 0);

  // pkg-config, as a Makefile user would: the C ABI's self-checks against the installed tree.
  const fs::path pc = prefix / "lib" / "pkgconfig";
  const fs::path libdir = fs::exists(pc) ? prefix / "lib" : prefix / "lib" / "x86_64-linux-gnu";
  const auto c_program = run_command(
      "PKG_CONFIG_PATH=" + shell_quoted(libdir / "pkgconfig") + " sh -c 'cc -std=c11 -Wall " +
      "-Werror -o " + (scratch / "c_abi_test").string() + " " +
      (testing::source_dir() / "tests/api/c_abi_test.c").string() +
      " $(pkg-config --cflags --libs glrmask)' && LD_LIBRARY_PATH=" + shell_quoted(libdir) + " " +
      shell_quoted(scratch / "c_abi_test"));
  INFO(c_program.output);
  REQUIRE(c_program.exit_code == 0);
  CHECK_THAT(c_program.output, Catch::Contains("all C ABI checks passed"));

  // The Python package: <libdir>/pythonX.Y/site-packages/glrmask.
  fs::path python_path;
  for (const auto& entry : fs::recursive_directory_iterator(prefix))
    if (entry.path().filename() == "__init__.py" &&
        entry.path().parent_path().filename() == "glrmask")
      python_path = entry.path().parent_path().parent_path();
  INFO("installed tree: " << prefix);
  REQUIRE_FALSE(python_path.empty());
  CHECK(python_path.filename() == "site-packages");
  bool has_module = false;
  for (const auto& entry : fs::directory_iterator(python_path / "glrmask"))
    has_module |= entry.path().filename().string().starts_with("_glrmask");
  CHECK(has_module);
  CHECK(fs::exists(python_path / "glrmask" / "__init__.pyi"));
  return {build / "teacher_force", python_path};
}

void compare_entry_points(const std::string& kind, const fs::path& grammar, const fs::path& text,
                          const std::string& options, const Installed& external) {
  INFO(kind << " " << grammar << " on " << text);
  testing::ScratchDir scratch;
  const fs::path csv = scratch.path / "steps.csv";
  const std::string source =
      kind == "lark" ? shell_quoted(grammar) : "--json-schema " + shell_quoted(grammar);
  const auto cli = run_command(shell_quoted(testing::glrmask_binary()) + " mask " + source +
                               " --tokenizer llama3 --engine wfa --input " + shell_quoted(text) +
                               " --steps " + shell_quoted(csv) + " " + options);
  INFO(cli.output);
  REQUIRE(cli.exit_code == 0);
  const std::vector<Step> expected = parse_csv(testing::read_file(csv));
  REQUIRE(expected.size() > 10);

  const std::string arguments =
      "llama3 " + kind + " " + shell_quoted(grammar) + " " + shell_quoted(text) + " " + options;
  const auto c = run_command(shell_quoted(fs::path(GLRMASK_C_ABI_TEST_BIN)) + " " + arguments);
  INFO(c.output.substr(0, 2000));
  REQUIRE(c.exit_code == 0);
  CHECK(parse_lines(c.output) == expected);

  const auto python = run_command(
      "PYTHONPATH=" + shell_quoted(external.python_path) + " " + GLRMASK_PYTHON_EXECUTABLE + " " +
      shell_quoted(testing::source_dir() / "tests/api/python/teacher_force.py") + " " + arguments);
  INFO(python.output.substr(0, 2000));
  REQUIRE(python.exit_code == 0);
  CHECK(parse_lines(python.output) == expected);

  const auto user = run_command(shell_quoted(external.program) + " " + arguments);
  INFO(user.output.substr(0, 2000));
  REQUIRE(user.exit_code == 0);
  CHECK(parse_lines(user.output) == expected);
}

TEST_CASE("bindings: an installed C++ project, C, Python and glrmask mask give the same masks") {
  if (!testing::require_tokenizer("llama3")) return glrmask::testing::skip_test_case();
  testing::ScratchDir install;
  const Installed external = install_and_build_external(install.path);
  if (!testing::require_data_dir("api bindings corpus test (Go, Java, MaskBench)"))
    return glrmask::testing::skip_test_case();
  const fs::path data = data_dir();
  const fs::path grammars = data / "grammars" / "syncode";
  compare_entry_points("lark", grammars / "go_grammar.lark",
                       data / "programs" / "go" / "sort__exchangesort.go",
                       "--policy lark --skippable EOS", external);
  compare_entry_points("lark", grammars / "java_grammar.lark",
                       data / "programs" / "java" / "nocomments" / "maths__TwinPrime.java", "",
                       external);

  // A MaskBench schema and its first valid instance, written as the benchmark writes them.
  testing::ScratchDir scratch;
  const fs::path file = data / "jsonschema" / "maskbench-dev" / "Github_easy---o10008.json";
  const auto extracted = run_command(
      GLRMASK_PYTHON_EXECUTABLE + std::string(" -c ") +
      shell_quoted("import json, sys; d = json.load(open(sys.argv[1], encoding='utf-8'));"
                   "open(sys.argv[2], 'w', encoding='utf-8').write(json.dumps(d['schema']));"
                   "open(sys.argv[3], 'w', encoding='utf-8')"
                   ".write(json.dumps(d['valid'][0], ensure_ascii=False))") +
      " " + shell_quoted(file) + " " + shell_quoted(scratch.path / "schema.json") + " " +
      shell_quoted(scratch.path / "instance.json"));
  INFO(extracted.output);
  REQUIRE(extracted.exit_code == 0);
  compare_entry_points("json_schema", scratch.path / "schema.json", scratch.path / "instance.json",
                       "", external);
}

}  // namespace
}  // namespace glrmask
