// `glrmask generate` against Lark: random walks that draw every token uniformly from the oracle's
// mask must, when they end by EOS, be sentences Lark accepts (tests/reference/lark_accepts.py).
//
// Under `--policy lark` glrmask's table is Lark's LALR table, so Lark's LALR parser must accept
// every completed walk. Under the default `glr` policy the language is the grammar's full one,
// a superset of what LALR (shift wins shift/reduce) accepts, so a completed walk must be accepted
// by LALR or, failing that, by Lark's Earley parser on the same basic lexer.
//
// Seeds and limits are chosen so that walks reach EOS (uniform draws favour long texts: an
// identifier or a string absorbs most tokens); the test requires that some do, since walks that
// stop at the token limit prove nothing about acceptance.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/core/settings.h"
#include "tests/support/grammar_test_support.h"
#include "tests/support/test_support.h"

using namespace glrmask;
using glrmask::testing::run_command;
namespace fs = std::filesystem;

namespace {

struct WalkRun {
  std::string name;
  std::string policy;
  std::uint64_t seed = 0;
  std::uint64_t count = 0;
  std::uint64_t max_tokens = 0;
  std::string eos_bias;
  std::string engine = "oracle";
  std::string options = {};  // further `glrmask generate` options (grammar options, biases, prefix)
  std::string lark_options = {};  // further lark_accepts.py options (--skippable)
};

struct WalkCounts {
  std::size_t eos = 0;
  std::size_t limit = 0;
  std::size_t lalr = 0;         // accepted by Lark's LALR parser
  std::size_t earley_only = 0;  // rejected by LALR, accepted by Earley (glr policy only)
  std::size_t ties_only = 0;    // rejected by LALR with Lark's lexer, accepted with tie readings
};

std::string run_command_line(const fs::path& grammar, const WalkRun& run,
                             const std::string& tokenizer) {
  return testing::shell_quoted(testing::glrmask_binary()) + " generate " +
         testing::shell_quoted(grammar) + " --tokenizer " + tokenizer + " --seed " +
         std::to_string(run.seed) + " --count " + std::to_string(run.count) + " --max-tokens " +
         std::to_string(run.max_tokens) + " --eos-bias " + run.eos_bias + " --policy " +
         run.policy + " --engine " + run.engine + " --json-lines " + run.options;
}

// Runs the walks, has Lark judge every one that ended by EOS, and checks the verdicts.
WalkCounts check_walks_with_lark(const std::string& python, const fs::path& grammar,
                                 const WalkRun& run, const fs::path& scratch,
                                 const std::string& tokenizer = "llama2") {
  INFO(run.name << " under --policy " << run.policy);
  const fs::path walks = scratch / (run.name + "_" + run.policy + "_" + run.engine + ".jsonl");
  const auto generated =
      run_command(run_command_line(grammar, run, tokenizer) + " >" + testing::shell_quoted(walks));
  INFO(generated.output);
  REQUIRE(generated.exit_code == 0);  // 1 would mean a dead end

  WalkCounts counts;
  std::map<std::string, std::string> eos_lines;  // walk index -> its JSON line
  std::ifstream in(walks);
  for (std::string line; std::getline(in, line);) {
    const auto at = line.find("\"walk\":");
    REQUIRE(at == 1);
    const std::string walk = line.substr(8, line.find(',') - 8);
    if (line.find("\"end\":\"eos\"") != std::string::npos) {
      ++counts.eos;
      eos_lines[walk] = line;
      // A sentence of these grammars is valid UTF-8 (the lexer never matches invalid UTF-8), so
      // its JSON form is exact.
      CHECK_THAT(line, Catch::Contains("\"valid_utf8\":true"));
    } else {
      CHECK_THAT(line, Catch::Contains("\"end\":\"limit\""));
      ++counts.limit;
    }
  }
  CHECK(counts.eos + counts.limit == run.count);

  const auto verdicts =
      run_command(python + " " +
                  testing::shell_quoted(testing::source_dir() / "tests/reference/lark_accepts.py") +
                  " " + testing::shell_quoted(grammar) + " " + testing::shell_quoted(walks) +
                  (run.policy == "glr" ? " --earley" : "") + " " + run.lark_options);
  INFO(verdicts.output);
  REQUIRE(verdicts.exit_code == 0);
  std::istringstream lines(verdicts.output);
  std::size_t judged = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    const std::string walk = line.substr(0, tab);
    const std::string verdict = line.substr(tab + 1, line.find('\t', tab + 1) - tab - 1);
    REQUIRE(eos_lines.count(walk) == 1);
    ++judged;
    if (verdict == "lalr") {
      ++counts.lalr;
    } else if (verdict == "earley" && run.policy == "glr") {
      ++counts.earley_only;
    } else if (verdict == "ties" && run.lark_options.find("--tie-readings") != std::string::npos) {
      ++counts.ties_only;
    } else {
      FAIL_CHECK("Lark does not accept walk " << walk << ": " << line << "\n" << eos_lines[walk]);
    }
  }
  CHECK(judged == counts.eos);
  std::cout << run.name << " (" << run.engine << ", --policy " << run.policy << ", seeds "
            << run.seed << ".." << run.seed + run.count - 1 << ", max " << run.max_tokens
            << " tokens, " << tokenizer << "): " << counts.eos << " ended by EOS (" << counts.lalr
            << " accepted by Lark LALR, " << counts.earley_only << " only by Earley, "
            << counts.ties_only << " only with tie readings), " << counts.limit
            << " hit the limit\n";
  return counts;
}

}  // namespace

TEST_CASE("generate: the walks through a small list grammar are sentences for Lark") {
  if (!testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path grammar = testing::fixtures_dir() / "cli" / "check_list.lark";
  for (const std::string policy : {"lark", "glr"}) {
    const auto counts =
        check_walks_with_lark(*python, grammar, {"list", policy, 1, 20, 60, "0.5"}, scratch.path);
    CHECK(counts.eos >= 10);
  }
}

TEST_CASE("generate: random walks on SynCode's JSON grammar with Llama-2 are accepted by Lark") {
  if (!testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  if (!testing::require_data_dir("cli_generate_reference_test (SynCode JSON)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path grammar = data_dir() / "grammars/syncode/json_grammar.lark";
  std::size_t eos = 0;
  for (const std::string policy : {"lark", "glr"}) {
    // Many short walks, and a few long ones that go deep into strings and nesting. The wfa draws
    // them (the oracle costs about 80 times as much a step; the test below compares the two
    // engines' walks).
    eos += check_walks_with_lark(*python, grammar,
                                 {"json_short", policy, 2000, 30, 150, "0.9", "wfa"}, scratch.path)
               .eos;
    eos += check_walks_with_lark(*python, grammar,
                                 {"json_long", policy, 3000, 10, 400, "0.5", "wfa"}, scratch.path)
               .eos;
  }
  CHECK(eos >= 10);
  // The JSON grammar has no LR conflicts, so both policies give the same table, the same masks,
  // and therefore the same walks.
  CHECK(testing::read_file(scratch.path / "json_short_lark_wfa.jsonl") ==
        testing::read_file(scratch.path / "json_short_glr_wfa.jsonl"));
}

TEST_CASE("generate: random walks on SynCode's SQL grammar with Llama-2 are accepted by Lark") {
  if (!testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  if (!testing::require_data_dir("cli_generate_reference_test (SynCode SQL)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path grammar = data_dir() / "grammars/syncode/sql_grammar.lark";
  for (const std::string policy : {"lark", "glr"}) {
    // Identifiers, strings and comments absorb almost every token, so most SQL walks hit the
    // limit; these seeds include walks that complete a query. (The wfa draws them, as above.)
    const auto counts = check_walks_with_lark(
        *python, grammar, {"sql", policy, 1000, 40, 80, "0.9", "wfa"}, scratch.path);
    CHECK(counts.eos >= 2);
  }
}

TEST_CASE("generate: walks are reproducible from their own seed, and bad options exit 2") {
  if (!testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  const fs::path grammar = testing::fixtures_dir() / "cli" / "check_list.lark";
  const std::string base = testing::shell_quoted(testing::glrmask_binary()) + " generate " +
                           testing::shell_quoted(grammar) +
                           " --tokenizer llama2 --max-tokens 40 --eos-bias 0.3 --json-lines";
  const auto three = run_command(base + " --seed 5 --count 3");
  REQUIRE(three.exit_code == 0);
  CHECK(run_command(base + " --seed 5 --count 3").output == three.output);  // deterministic
  std::istringstream lines(three.output);
  std::vector<std::string> walks;
  for (std::string line; std::getline(lines, line);) walks.push_back(line);
  REQUIRE(walks.size() == 3);
  // Walk 2 of seed 5 is walk 0 of seed 7, apart from its index.
  const auto alone = run_command(base + " --seed 7 --count 1");
  REQUIRE(alone.exit_code == 0);
  CHECK(alone.output.substr(alone.output.find(',')) == walks[2].substr(walks[2].find(',')) + "\n");
  CHECK_THAT(walks[2], Catch::Contains("\"seed\":7,"));

  // Without --json-lines: one line per walk and a summary.
  const auto text =
      run_command(testing::shell_quoted(testing::glrmask_binary()) + " generate " +
                  testing::shell_quoted(grammar) + " --tokenizer llama2 --max-tokens 1 --seed 1");
  INFO(text.output);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.output, Catch::Contains("walk 0 (seed 1): "));
  CHECK_THAT(text.output, Catch::Contains("walks        1: "));

  testing::ScratchDir scratch;
  const fs::path missing = scratch.path / "missing.txt";
  for (const std::string& bad : std::vector<std::string>{
           "--seed x --max-tokens 5", "--seed 1 --max-tokens 0",
           "--seed 1 --max-tokens 5 --eos-bias 1.5", "--seed 1 --max-tokens 5 --close-bias -0.5",
           "--seed 1 --max-tokens 5 --min-tokens x", "--seed 1 --max-tokens 5 --engine nope",
           "--max-tokens 5",
           "--seed 1 --max-tokens 5 --prefix " + testing::shell_quoted(missing)}) {
    const auto result =
        run_command(testing::shell_quoted(testing::glrmask_binary()) + " generate " +
                    testing::shell_quoted(grammar) + " --tokenizer llama2 " + bad);
    INFO(bad << ": " << result.output);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::StartsWith("glrmask generate: "));
  }

  // A prefix the grammar cannot continue: the walk whose cut takes its first token stops there,
  // and the error names the token's index, id and byte offset.
  const fs::path not_a_prefix = scratch.path / "not_a_prefix.txt";
  std::ofstream(not_a_prefix) << "]";
  const auto refused = run_command(testing::shell_quoted(testing::glrmask_binary()) + " generate " +
                                   testing::shell_quoted(grammar) +
                                   " --tokenizer llama2 --seed 1 --count 20 --max-tokens 5 "
                                   "--prefix " +
                                   testing::shell_quoted(not_a_prefix));
  INFO(refused.output);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output, Catch::Contains("glrmask generate: --prefix: token 0 (id ") &&
                                 Catch::Contains(") at byte 0 is not allowed by the mask"));
}

TEST_CASE(
    "generate: wfa walks on SynCode's JSON and SQL grammars equal the oracle's, and Lark "
    "accepts them") {
  if (!testing::require_tokenizer("llama2")) return glrmask::testing::skip_test_case();
  if (!testing::require_data_dir("cli_generate_reference_test (wfa walks)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  // A walk draws each token from the mask with a seeded generator, so equal masks at every step
  // give byte-identical walks: the comparison covers every step of every walk.
  for (const auto& [grammar, run] : {std::pair{data_dir() / "grammars/syncode/json_grammar.lark",
                                               WalkRun{"json", "glr", 4000, 20, 150, "0.9"}},
                                     std::pair{data_dir() / "grammars/syncode/sql_grammar.lark",
                                               // seeds 1024..1035: three of them end by EOS
                                               WalkRun{"sql", "lark", 1024, 12, 80, "0.9"}}}) {
    WalkRun wfa = run;
    wfa.engine = "wfa";
    const WalkCounts counts = check_walks_with_lark(*python, grammar, wfa, scratch.path);
    check_walks_with_lark(*python, grammar, run, scratch.path);
    CHECK(counts.eos >= 1);
    CHECK(testing::read_file(scratch.path / (run.name + "_" + run.policy + "_wfa.jsonl")) ==
          testing::read_file(scratch.path / (run.name + "_" + run.policy + "_oracle.jsonl")));
  }
}

// Java and Go nest deeply: uniform draws open brackets, strings and comments far more often than
// they close them, so walks from the start would almost never come back to a point where EOS is
// allowed. `--close-bias` draws a closing token (a kind of closer first, then a token of that
// kind) half of the time, `--min-tokens` keeps EOS from ending walks before they say anything,
// and `--prefix` starts walks at uniform cuts of real corpus programs: inside method bodies,
// conditions and calls, from where the random part must still close every construct it opens.
// Every walk goes through the wfa engine; the last run of each grammar is repeated with the
// oracle (5 ms a step, so few walks) and must give byte-identical walks.
TEST_CASE(
    "generate: wfa walks on SynCode's Java and Go grammars, from the start and from cuts of "
    "corpus programs, are sentences for Lark") {
  if (!testing::require_tokenizer("llama2") || !testing::require_tokenizer("llama3")) return;
  if (!testing::require_data_dir("cli_generate_reference_test (Java and Go walks)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const std::string biases = " --min-tokens 30 --close-bias 0.5 --max-token-bytes 3";
  struct Language {
    std::string name;
    fs::path grammar;
    std::string options;  // SynCode's conventions for the language
    std::string lark_options;
    std::vector<fs::path> programs;
  };
  const fs::path programs = data_dir() / "programs";
  const std::vector<Language> languages = {
      {"java",
       data_dir() / "grammars/syncode/java_grammar.lark",
       "",
       "",
       {programs / "java/nocomments/maths__TwinPrime.java",
        programs / "java/nocomments/strings__LongestCommonPrefix.java",
        programs / "java/nocomments/others__TwoPointers.java"}},
      {"go",
       data_dir() / "grammars/syncode/go_grammar.lark",
       " --skippable EOS",
       "--skippable EOS",
       {programs / "go/cipher__rsa__rsa.go", programs / "go/conversion__rgbhex.go",
        programs / "go/dynamic__catalan.go"}},
  };
  for (const Language& language : languages) {
    INFO(language.name);
    std::size_t eos = 0, from_prefix = 0;
    WalkRun start{
        language.name + "_start", "lark", 1, 30, 400, "0.5", "wfa", language.options + biases,
        language.lark_options};
    eos += check_walks_with_lark(*python, language.grammar, start, scratch.path).eos;
    std::size_t seed = 100;
    for (const fs::path& program : language.programs) {
      for (const std::string tokenizer : {"llama2", "llama3"}) {
        WalkRun cut{language.name + "_" + program.stem().string() + "_" + tokenizer,
                    "lark",
                    seed,
                    10,
                    1000,
                    "0.5",
                    "wfa",
                    language.options + biases + " --prefix " + testing::shell_quoted(program),
                    language.lark_options};
        seed += cut.count;
        from_prefix +=
            check_walks_with_lark(*python, language.grammar, cut, scratch.path, tokenizer).eos;
      }
    }
    // Measured with these seeds: Java 30 of 30 from the start and 55 of 60 from cuts, Go 29 and
    // 40. The bounds leave room for a change of the tokenizers' packages, not for walks that
    // stop ending.
    CHECK(eos >= 15);
    CHECK(from_prefix >= 20);

    WalkRun oracle{
        language.name + "_oracle",
        "lark",
        500,
        2,
        150,
        "0.5",
        "wfa",
        language.options + biases + " --prefix " + testing::shell_quoted(language.programs.back()),
        language.lark_options};
    const WalkCounts counts =
        check_walks_with_lark(*python, language.grammar, oracle, scratch.path);
    oracle.engine = "oracle";
    check_walks_with_lark(*python, language.grammar, oracle, scratch.path);
    CHECK(counts.eos + counts.limit == 2);
    CHECK(testing::read_file(scratch.path / (oracle.name + "_lark_wfa.jsonl")) ==
          testing::read_file(scratch.path / (oracle.name + "_lark_oracle.jsonl")));
  }
}

// SynCode's Python grammar with Lark's indenter (`--postlex python`, docs/indenter.md): walks from
// the start and from cuts of a corpus program (inside its blocks, so the walk has to dedent out
// of them), judged by Lark with SynCode's indenter settings. Lark's lexer emits one terminal where
// a docstring or comment ties `_NL`, `COMMENT` and `LONG_STRING`; glrmask keeps every reading
// that parses (docs/lexer.md), so a walk Lark's own lexer rejects must parse with the tie
// readings (lark_accepts.py --tie-readings). The tiny byte-level tokenizer and the oracle keep it
// to seconds; scripts/python_walks.sh is the long run with Llama-3 and the wfa.
TEST_CASE(
    "generate: random walks on SynCode's Python grammar (--postlex python) are sentences "
    "for Lark with SynCode's indenter") {
  if (!testing::require_data_dir("cli_generate_reference_test (Python walks)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path grammar = data_dir() / "grammars/syncode/python_grammar.lark";
  const std::string tokenizer =
      testing::shell_quoted(testing::fixtures_dir() / "tokenizers/tiny_byte_level/tokenizer.json");
  const std::string options =
      " --postlex python --min-tokens 20 --close-bias 0.5 --max-token-bytes 3";
  const std::string lark_options = "--postlex python --tie-readings";
  const WalkRun start{"python_start", "lark", 1, 8, 300, "0.5", "oracle", options, lark_options};
  const WalkRun cut{
      "python_cut",
      "lark",
      1,
      3,
      300,
      "0.5",
      "oracle",
      options + " --prefix " +
          testing::shell_quoted(data_dir() / "programs/python/backtracking__word_break.py"),
      lark_options};
  // Measured with these seeds: 1 of 8 walks from the start and 1 of 3 from cuts end by EOS.
  CHECK(check_walks_with_lark(*python, grammar, start, scratch.path, tokenizer).eos >= 1);
  CHECK(check_walks_with_lark(*python, grammar, cut, scratch.path, tokenizer).eos >= 1);
}

// The judge of the walks above can say no: a call's arguments broken by a newline are a Go
// sentence only under SynCode's skippable EOS, and an unclosed parameter list is none.
TEST_CASE("lark_accepts.py drops a skippable EOS only where LALR cannot take it") {
  if (!testing::require_data_dir("cli_generate_reference_test (lark_accepts.py on Go)"))
    return glrmask::testing::skip_test_case();
  const auto python = testing::python_with_lark();
  if (!python) return glrmask::testing::skip_test_case();
  testing::ScratchDir scratch;
  const fs::path walks = scratch.path / "go_controls.jsonl";
  std::ofstream(walks)
      << R"({"walk":0,"end":"eos","text":"package main\n\nfunc f() {\n\tg(1,\n\t\t2)\n}\n"})"
      << "\n"
      << R"({"walk":1,"end":"eos","text":"package main\n\nfunc f( {\n}\n"})"
      << "\n";
  const std::string judge =
      *python + " " +
      testing::shell_quoted(testing::source_dir() / "tests/reference/lark_accepts.py") + " " +
      testing::shell_quoted(data_dir() / "grammars/syncode/go_grammar.lark") + " " +
      testing::shell_quoted(walks);
  const auto skipping = run_command(judge + " --skippable EOS");
  INFO(skipping.output);
  REQUIRE(skipping.exit_code == 0);
  CHECK_THAT(skipping.output, Catch::StartsWith("0\tlalr\n1\trejected\t"));
  const auto plain = run_command(judge);
  INFO(plain.output);
  REQUIRE(plain.exit_code == 0);
  CHECK_THAT(plain.output, Catch::StartsWith("0\trejected\t"));
  CHECK_THAT(plain.output, Catch::Contains("\n1\trejected\t"));
}
