// The experiment harness (experiments/studies, docs/experiments.md) on a fixture grammar and the
// tiny byte-level tokenizer: every study it runs here writes a header naming the machine and
// commit, CSVs whose rows all have the header's width, a Markdown report with its tables and
// plots, and well-formed SVG plots. Step counts are checked against the Encoder (tested on its
// own against the reference tokenizer) and byte offsets against the input's length.
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/tokenizer/encoder.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::read_file;
using glrmask::testing::run_command;
namespace fs = std::filesystem;

namespace {

fs::path studies_binary() {
  // Built beside the glrmask program: <build>/apps/glrmask, <build>/experiments/studies.
  return testing::glrmask_binary().parent_path().parent_path() / "experiments" / "studies";
}

fs::path tiny_tokenizer() {
  return testing::fixtures_dir() / "tokenizers" / "tiny_byte_level" / "tokenizer.json";
}
fs::path fixture_grammar() {
  return testing::fixtures_dir() / "cli" / "if_else.lark";
}
fs::path fixture_input() {
  return testing::fixtures_dir() / "cli" / "if_else.txt";
}

testing::CommandResult run_study(const std::string& study, const fs::path& out,
                                 const std::string& extra = "") {
  return run_command(
      fmt::format("{} {} --grammar-file {} --inputs {} --tokenizers {} --out {} {}",
                  testing::shell_quoted(studies_binary()), study,
                  testing::shell_quoted(fixture_grammar()), testing::shell_quoted(fixture_input()),
                  testing::shell_quoted(tiny_tokenizer()), testing::shell_quoted(out), extra));
}

// A CSV without quoted cells (the fixture runs write none) as rows of cells.
std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    REQUIRE(line.find('"') == std::string::npos);
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
      cells.push_back(line.substr(start, comma - start));
    cells.push_back(line.substr(start));
    rows.push_back(std::move(cells));
  }
  return rows;
}

// Column name -> index of the CSV's header row.
std::map<std::string, std::size_t> columns_of(const std::vector<std::vector<std::string>>& csv) {
  std::map<std::string, std::size_t> columns;
  for (std::size_t i = 0; i < csv.at(0).size(); ++i) columns[csv[0][i]] = i;
  return columns;
}

void check_well_formed_csv(const std::vector<std::vector<std::string>>& csv) {
  REQUIRE(csv.size() >= 2);
  for (const auto& row : csv) CHECK(row.size() == csv[0].size());
}

void check_svg(const fs::path& path) {
  REQUIRE(fs::exists(path));
  const std::string svg = read_file(path);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("<svg") != std::string::npos);
  std::string tail = svg;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  CHECK(tail.ends_with("</svg>"));
  // gnuplot draws a curve or a box as a path; an empty plot has only axes and text.
  CHECK(svg.find("<path") != std::string::npos);
}

void check_header(const fs::path& dir, const std::string& study) {
  const std::string header = read_file(dir / "header.txt");
  CHECK(header.find("study: " + study + "\n") != std::string::npos);
  CHECK(header.find("size: small\n") != std::string::npos);
  for (const char* key :
       {"date: 2", "commit: ", "cpu: ", "cores: ", "memory: ", "tokenizer tiny_byte_level: "})
    CHECK(header.find(key) != std::string::npos);
  CHECK(header.find("cores: 0\n") == std::string::npos);
  // The report starts with the same header, then its tables.
  const std::string readme = read_file(dir / "README.md");
  CHECK(readme.rfind("# ", 0) == 0);
  CHECK(readme.find("- **study**: " + study) != std::string::npos);
}

std::size_t expected_steps() {
  const Encoder encoder = Encoder::load(tiny_tokenizer());
  return encoder.encode(read_file(fixture_input())).size() + 1;  // the tokens, then EOS
}

}  // namespace

TEST_CASE("tail_latency writes its header, CSVs, report and histograms") {
  testing::ScratchDir scratch;
  const auto result = run_study("tail_latency", scratch.path, "--engines oracle,spanner");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(scratch.path, "tail_latency");

  const auto summary = read_csv(scratch.path / "summary.csv");
  check_well_formed_csv(summary);
  auto column = columns_of(summary);
  REQUIRE(summary.size() == 3);  // header + oracle + spanner
  const std::size_t steps = expected_steps();
  for (std::size_t row = 1; row < summary.size(); ++row) {
    CHECK(summary[row][column["grammar"]] == "if_else");
    CHECK(summary[row][column["tokenizer"]] == "tiny_byte_level");
    CHECK(summary[row][column["steps"]] == std::to_string(steps));
    CHECK(summary[row][column["failures"]] == "0");
    const double p50 = std::stod(summary[row][column["mask_p50"]]);
    const double p99 = std::stod(summary[row][column["mask_p99"]]);
    const double max = std::stod(summary[row][column["mask_max"]]);
    CHECK(0 < p50);
    CHECK(p50 <= p99);
    CHECK(p99 <= max);
  }
  CHECK(summary[1][column["engine"]] == "oracle");
  CHECK(summary[2][column["engine"]] == "spanner");

  // Per step: steps 0..n-1 per engine, offsets rising to the input's end (the EOS step).
  const auto per_step = read_csv(scratch.path / "steps.csv");
  check_well_formed_csv(per_step);
  column = columns_of(per_step);
  REQUIRE(per_step.size() == 1 + 2 * steps);
  const std::size_t input_bytes = read_file(fixture_input()).size();
  for (std::size_t row = 1; row < per_step.size(); ++row) {
    CHECK(per_step[row][column["step"]] == std::to_string((row - 1) % steps));
    if ((row - 1) % steps == steps - 1)
      CHECK(per_step[row][column["byte_offset"]] == std::to_string(input_bytes));
  }
  // The fixture tokenizer has no run of 8 hyphens, so no step can have allowed one. Every mask
  // holds at least the next token, and the default reads all of it.
  for (std::size_t row = 1; row < per_step.size(); ++row) {
    CHECK(per_step[row][column["hyphen_run"]] == "0");
    CHECK(std::stoul(per_step[row][column["mask_tokens"]]) > 0);
  }
  CHECK(read_file(scratch.path / "header.txt").find("mask read: every token counted") !=
        std::string::npos);

  // Histogram columns are fractions of each series' steps: each sums to 1.
  const auto histogram = read_csv(scratch.path / "mask_histogram.csv");
  check_well_formed_csv(histogram);
  for (std::size_t series = 1; series < histogram[0].size(); ++series) {
    double total = 0;
    for (std::size_t row = 1; row < histogram.size(); ++row)
      total += std::stod(histogram[row][series]);
    CHECK(total == Approx(1.0).epsilon(1e-4));
  }
  check_svg(scratch.path / "mask_histogram.svg");
  check_svg(scratch.path / "commit_histogram.svg");
  const std::string readme = read_file(scratch.path / "README.md");
  CHECK(readme.find("| grammar | tokenizer | engine |") != std::string::npos);
  CHECK(readme.find("|---|") != std::string::npos);
  CHECK(readme.find("(mask_histogram.svg)") != std::string::npos);

  // --mask-read bit: the same steps, no mask counted.
  const auto bit_result =
      run_study("tail_latency", scratch.path / "bit", "--engines spanner --mask-read bit");
  INFO(bit_result.output);
  REQUIRE(bit_result.exit_code == 0);
  const auto bit_steps = read_csv(scratch.path / "bit" / "steps.csv");
  check_well_formed_csv(bit_steps);
  REQUIRE(bit_steps.size() == 1 + steps);
  for (std::size_t row = 1; row < bit_steps.size(); ++row)
    CHECK(bit_steps[row][column["mask_tokens"]] == "0");
  CHECK(read_file(scratch.path / "bit" / "header.txt")
            .find("mask read: only the next token's bit (--mask-read bit)") != std::string::npos);
}

TEST_CASE("exactness compares every step of the spanner with the oracle") {
  testing::ScratchDir scratch;
  const auto result = run_study("exactness", scratch.path);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(scratch.path, "exactness");
  const auto table = read_csv(scratch.path / "exactness.csv");
  check_well_formed_csv(table);
  auto column = columns_of(table);
  // By default every registered engine but the oracle is compared; the spanner is one of them.
  bool spanner_seen = false;
  for (std::size_t row = 1; row < table.size(); ++row) {
    CHECK(table[row][column["engine"]] != "oracle");
    CHECK(table[row][column["reference"]] == "oracle");  // the default --reference
    CHECK(table[row][column["steps"]] == std::to_string(expected_steps()));
    if (table[row][column["engine"]] == "spanner") {
      spanner_seen = true;
      CHECK(table[row][column["mismatch_steps"]] == "0");
      CHECK(table[row][column["reference_rejections"]] == "0");
    }
  }
  CHECK(spanner_seen);
  check_svg(scratch.path / "exactness.svg");
  // A row per program and engine, written as each program finished; their steps add up to the
  // table's.
  const auto programs = read_csv(scratch.path / "programs.csv");
  check_well_formed_csv(programs);
  auto program_column = columns_of(programs);
  std::map<std::string, std::uint64_t> steps_per_engine;
  for (std::size_t row = 1; row < programs.size(); ++row)
    steps_per_engine[programs[row][program_column["engine"]]] +=
        std::stoull(programs[row][program_column["steps"]]);
  for (std::size_t row = 1; row < table.size(); ++row)
    CHECK(std::to_string(steps_per_engine[table[row][column["engine"]]]) ==
          table[row][column["steps"]]);
  // The wfa's counters summed over the steps, deferred tokens among them.
  const std::string counters = read_file(scratch.path / "counters.csv");
  CHECK(counters.find(",wfa,deferred_tokens,") != std::string::npos);
}

TEST_CASE("vocab_scaling and batch_throughput write one row per measurement") {
  testing::ScratchDir scratch;
  auto result = run_study("vocab_scaling", scratch.path / "vocab", "--engines spanner");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto scaling = read_csv(scratch.path / "vocab" / "vocab_scaling.csv");
  check_well_formed_csv(scaling);
  REQUIRE(scaling.size() == 2);
  auto column = columns_of(scaling);
  CHECK(scaling[1][column["steps"]] == std::to_string(expected_steps()));
  check_svg(scratch.path / "vocab" / "vocab_scaling.svg");

  // A padded vocabulary (BASE+DONOR@SIZE) keeps the base's tokenization: same steps, more ids.
  const fs::path donor =
      testing::fixtures_dir() / "tokenizers" / "tiny_sentencepiece" / "tokenizer.json";
  const std::string padded = fmt::format("{}+{}@275", tiny_tokenizer().string(), donor.string());
  result = run_study(
      "vocab_scaling", scratch.path / "padded",
      fmt::format("--engines spanner --tokenizers {},{}", testing::shell_quoted(tiny_tokenizer()),
                  testing::shell_quoted(padded)));
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto padded_rows = read_csv(scratch.path / "padded" / "vocab_scaling.csv");
  check_well_formed_csv(padded_rows);
  REQUIRE(padded_rows.size() == 3);
  column = columns_of(padded_rows);
  CHECK(padded_rows[1][column["vocabulary"]] == "272");
  CHECK(padded_rows[2][column["vocabulary"]] == "275");
  CHECK(padded_rows[2][column["tokenizer"]] == "tiny_byte_level+tiny_sentencepiece@275");
  CHECK(padded_rows[2][column["steps"]] == padded_rows[1][column["steps"]]);
  CHECK(read_file(scratch.path / "padded" / "header.txt")
            .find("tokenizer tiny_byte_level+tiny_sentencepiece@275:") != std::string::npos);

  result = run_study("batch_throughput", scratch.path / "batch", "--engines spanner");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto batch = read_csv(scratch.path / "batch" / "batch_throughput.csv");
  check_well_formed_csv(batch);
  column = columns_of(batch);
  REQUIRE(batch.size() == 1 + 9);  // B = 1, 2, 4, ..., 256
  for (std::size_t row = 1; row < batch.size(); ++row) {
    const std::size_t b = std::size_t{1} << (row - 1);
    CHECK(batch[row][column["batch"]] == std::to_string(b));
    CHECK(batch[row][column["masks"]] ==
          std::to_string(b * std::stoul(batch[row][column["rounds"]])));
    CHECK(std::stod(batch[row][column["masks_per_s"]]) > 0);
  }
  check_svg(scratch.path / "batch" / "batch_throughput.svg");
}

TEST_CASE("ambiguity records GSS width and readings per step, and the last step's derivations") {
  testing::ScratchDir scratch;
  const auto result = run_study("ambiguity", scratch.path);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(scratch.path, "ambiguity");
  const auto summary = read_csv(scratch.path / "summary.csv");
  check_well_formed_csv(summary);
  // The fixture's convention is the GLR policy (no corpus options): two settings, each masked by
  // the wfa and the spanner.
  CHECK(summary.size() == 5);
  const auto steps = read_csv(scratch.path / "steps.csv");
  check_well_formed_csv(steps);
  const auto column = columns_of(steps);
  CHECK(steps.size() == 1 + 4 * expected_steps());
  // "if x then if y then z else w": its EOS step sees the whole text, whose readings are its two
  // derivations (the dangling else).
  for (std::size_t row = 1; row < steps.size(); ++row) {
    if (std::stoul(steps[row][column.at("step")]) + 1 != expected_steps()) continue;
    CHECK(steps[row][column.at("readings")] == "2");
    CHECK(std::stoul(steps[row][column.at("byte_offset")]) == read_file(fixture_input()).size());
  }
  check_well_formed_csv(read_csv(scratch.path / "by_width.csv"));
  check_well_formed_csv(read_csv(scratch.path / "widest.csv"));
  check_svg(scratch.path / "mask_by_heads.svg");
  check_svg(scratch.path / "pairs_by_heads.svg");
  CHECK(read_file(scratch.path / "README.md").find("## The widest steps") != std::string::npos);
}

TEST_CASE("the harness names bad input") {
  testing::ScratchDir scratch;
  auto result = run_study("no_such_study", scratch.path);
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("unknown study 'no_such_study'") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--engines nope");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("--engines") != std::string::npos);
  CHECK(result.output.find("'nope'") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--size huge");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("--size") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--tokenizers llama2+gemma3@");
  CHECK(result.exit_code != 0);
  CHECK(result.output.find("the size after '@' is not a number") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--tokenizers llama2@1000");
  CHECK(result.exit_code != 0);
  CHECK(result.output.find("no donor tokenizer after the base") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--mask-read all");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("--mask-read: expected count or bit, got 'all'") != std::string::npos);
  result = run_study("tail_latency", scratch.path, "--mask-output copy");
  CHECK(result.exit_code == 2);
  CHECK(result.output.find("--mask-output: expected view or buffer, got 'copy'") !=
        std::string::npos);
}

TEST_CASE("tail_latency times mask_view unless told to fill a buffer, and says which") {
  for (const std::string mode : {"view", "buffer"}) {
    testing::ScratchDir scratch;
    const auto result =
        run_study("tail_latency", scratch.path, "--engines wfa --mask-output " + mode);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    const std::string header = read_file(scratch.path / "header.txt");
    CHECK(header.find(mode == "view" ? "mask output: mask_view (cached results not copied)\n"
                                     : "mask output: fill_mask into the caller's buffer\n") !=
          std::string::npos);
    const auto summary = read_csv(scratch.path / "summary.csv");
    auto column = columns_of(summary);
    REQUIRE(summary.size() == 2);
    CHECK(summary[1][column["failures"]] == "0");
    CHECK(summary[1][column["steps"]] == std::to_string(expected_steps()));
  }
}

TEST_CASE("preprocessing and terminal_dwa measure each cell in a child process") {
  testing::ScratchDir scratch;
  auto result = run_study("preprocessing", scratch.path / "pre", "--engines oracle,spanner");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(scratch.path / "pre", "preprocessing");
  const auto detail = read_csv(scratch.path / "pre" / "preprocessing.csv");
  check_well_formed_csv(detail);
  auto column = columns_of(detail);
  REQUIRE(detail.size() == 3);  // one tokenizer x one grammar x two engines
  for (std::size_t row = 1; row < detail.size(); ++row) {
    CHECK(detail[row][column["status"]] == "ok");
    CHECK(detail[row][column["grammar"]] == "if_else");
    CHECK(detail[row][column["steps"]] == std::to_string(expected_steps()));
    CHECK(detail[row][column["failures"]] == "0");
    // Offline time is the sum of its two parts; the peak includes the inputs' peak.
    CHECK(std::stod(detail[row][column["offline_s"]]) ==
          Approx(std::stod(detail[row][column["compile_s"]]) +
                 std::stod(detail[row][column["engine_build_s"]]))
              .margin(0.002));
    CHECK(std::stod(detail[row][column["peak_mib"]]) >=
          std::stod(detail[row][column["inputs_peak_mib"]]));
    CHECK(std::stod(detail[row][column["offline_cpu_s"]]) >= 0);
  }
  const auto layout = read_csv(scratch.path / "pre" / "table1.csv");
  check_well_formed_csv(layout);
  CHECK(layout[0].size() == 3 + 3 * 2);  // model, V, grammar + three columns per engine
  check_svg(scratch.path / "pre" / "preprocessing.svg");

  result = run_command(
      fmt::format("{} terminal_dwa --grammar-file {} --inputs {} --tokenizers {} "
                  "--out {}",
                  testing::shell_quoted(studies_binary()), testing::shell_quoted(fixture_grammar()),
                  testing::shell_quoted(fixture_input()), testing::shell_quoted(tiny_tokenizer()),
                  testing::shell_quoted(scratch.path / "dwa")));
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  const auto dwa = read_csv(scratch.path / "dwa" / "terminal_dwa.csv");
  check_well_formed_csv(dwa);
  column = columns_of(dwa);
  REQUIRE(dwa.size() == 2);
  CHECK(dwa[1][column["grammar"]] == "if_else");
  CHECK(dwa[1][column["note"]].empty());
  CHECK(std::stoul(dwa[1][column["tokens"]]) > 0);
  check_svg(scratch.path / "dwa" / "terminal_dwa.svg");
}

TEST_CASE("token_classes partitions the vocabulary of the fixture grammar") {
  testing::ScratchDir scratch;
  const auto result = run_study("token_classes", scratch.path / "classes");
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(scratch.path / "classes", "token_classes");
  const auto table = read_csv(scratch.path / "classes" / "token_classes.csv");
  check_well_formed_csv(table);
  auto column = columns_of(table);
  REQUIRE(table.size() == 2);
  const auto& row = table[1];
  CHECK(row[column["grammar"]] == "if_else");
  CHECK(row[column["note"]].empty());
  const auto vocabulary = std::stoul(row[column["vocabulary"]]);
  const auto classes = std::stoul(row[column["classes"]]);
  // Letters that begin no keyword are interchangeable, so there are fewer classes than tokens.
  CHECK(classes > 2);
  CHECK(classes < vocabulary);
  CHECK(std::stoul(row[column["lexer_classes"]]) >= classes);
  CHECK(row[column["lexer_refines_parser"]] == "yes");
  CHECK(row[column["collisions"]] == "0");
  CHECK(std::stod(row[column["compression"]]) ==
        Approx(static_cast<double>(vocabulary) / static_cast<double>(classes)).margin(0.05));
  CHECK(std::stoul(row[column["largest_class"]]) < vocabulary);
  CHECK(read_file(scratch.path / "classes" / "README.md").find("## Example classes") !=
        std::string::npos);
  check_svg(scratch.path / "classes" / "token_classes.svg");
}

TEST_CASE("psc_tables counts pass rates PSC's way and measures the compile artifact") {
  testing::ScratchDir scratch;
  // Negative samples are inputs named *.invalid.*: one the grammar rejects only at EOS (every
  // token of "if x then" is viable), one it rejects at a token ("else" cannot follow a NAME).
  const fs::path cut = scratch.path / "cut.invalid.txt";
  const fs::path bad = scratch.path / "bad.invalid.txt";
  {
    std::ofstream(cut) << "if x then";
    std::ofstream(bad) << "if x else y";
  }
  const fs::path out = scratch.path / "psc";
  auto result = run_command(
      fmt::format("{} psc_tables --grammar-file {} --inputs {},{},{} --tokenizers {} --engines "
                  "wfa,oracle,spanner --out {}",
                  testing::shell_quoted(studies_binary()), testing::shell_quoted(fixture_grammar()),
                  testing::shell_quoted(fixture_input()), testing::shell_quoted(cut),
                  testing::shell_quoted(bad), testing::shell_quoted(tiny_tokenizer()),
                  testing::shell_quoted(out)));
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  check_header(out, "psc_tables");
  const auto pass = read_csv(out / "pass_rate.csv");
  check_well_formed_csv(pass);
  auto column = columns_of(pass);
  REQUIRE(pass.size() == 5);  // three engines and the grammar's own verdict
  for (std::size_t row = 1; row < pass.size(); ++row) {
    INFO("row " << pass[row][column["engine"]]);
    CHECK(pass[row][column["positives"]] == "1");
    CHECK(pass[row][column["positives_passed"]] == "1");
    CHECK(pass[row][column["negatives"]] == "2");
    CHECK(pass[row][column["negatives_passed"]] == "2");
    CHECK(pass[row][column["engine_refused_x"]] == "0");
    CHECK(pass[row][column["grammar_rejects_positive"]] == "0");
    CHECK(pass[row][column["grammar_accepts_negative"]] == "0");
    CHECK(pass[row][column["engine_disagreements"]] == "0");
    CHECK(pass[row][column["pass_rate_pct"]] == "100.0");
  }
  CHECK(pass[4][column["engine"]] == "grammar (exact)");

  // Table 1 pools every step: the positive's tokens and EOS, the EOS-only negative's tokens and
  // EOS, and the other negative up to its rejected token.
  const Encoder encoder = Encoder::load(tiny_tokenizer());
  const auto overhead = read_csv(out / "overhead.csv");
  check_well_formed_csv(overhead);
  column = columns_of(overhead);
  REQUIRE(overhead.size() == 4);
  const std::size_t positive_and_cut_steps =
      expected_steps() + encoder.encode("if x then").size() + 1;
  for (std::size_t row = 1; row < overhead.size(); ++row) {
    const std::size_t steps = std::stoul(overhead[row][column["steps"]]);
    CHECK(steps > positive_and_cut_steps);
    CHECK(steps <= positive_and_cut_steps + encoder.encode("if x else y").size());
    CHECK(std::stod(overhead[row][column["mask_mean"]]) > 0);
  }

  // Table 3: the artifact is the one `glrmask compile -o` writes for the same grammar.
  const auto units = read_csv(out / "units.csv");
  check_well_formed_csv(units);
  column = columns_of(units);
  REQUIRE(units.size() == 2);
  CHECK(units[1][column["status"]] == "ok");
  CHECK(std::stod(units[1][column["peak_mib"]]) >= std::stod(units[1][column["inputs_peak_mib"]]));
  const fs::path artifact = scratch.path / "if_else.glrmask";
  const auto compiled = run_command(fmt::format(
      "{} compile {} --tokenizer {} -o {}", testing::shell_quoted(testing::glrmask_binary()),
      testing::shell_quoted(fixture_grammar()), testing::shell_quoted(tiny_tokenizer()),
      testing::shell_quoted(artifact)));
  INFO(compiled.output);
  REQUIRE(compiled.exit_code == 0);
  CHECK(std::stoull(units[1][column["artifact_bytes"]]) == fs::file_size(artifact));
  if (!units[1][column["zstd_bytes"]].empty())
    CHECK(std::stoull(units[1][column["zstd_bytes"]]) < fs::file_size(artifact));
  check_well_formed_csv(read_csv(out / "table3.csv"));
  check_svg(out / "overhead.svg");
}
