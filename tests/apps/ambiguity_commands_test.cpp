// `glrmask parse`, `conflicts --counterexamples` and `ambiguity` on the fixtures of
// tests/fixtures/ambiguity/, whose trees and counts are derived by hand in the fixtures'
// comments, and their errors (exit code 2 with a message naming the place).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace glrmask::testing {
namespace {

namespace fs = std::filesystem;

std::string ambiguity_fixture(const std::string& name) {
  return (fixtures_dir() / "ambiguity" / name).string();
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST_CASE("parse: derivation counts of the fixtures") {
  const GlrmaskRun dangling = run_glrmask_args(
      {"parse", ambiguity_fixture("dangling_else.lark"), ambiguity_fixture("dangling_else.txt")});
  INFO(dangling.err);
  REQUIRE(dangling.exit_code == 0);
  CHECK(has_line(dangling.out, "lexemes: 9"));
  CHECK(has_line(dangling.out, "derivations: 2"));
  CHECK(
      has_line(dangling.out, "forest: 15 symbol nodes, 7 packed nodes, 1 ambiguous symbol nodes"));

  const GlrmaskRun expr =
      run_glrmask_args({"parse", ambiguity_fixture("expr.lark"), ambiguity_fixture("expr.txt")});
  CHECK(has_line(expr.out, "derivations: 5"));
  const GlrmaskRun cyclic = run_glrmask_args(
      {"parse", ambiguity_fixture("cyclic.lark"), ambiguity_fixture("cyclic.txt")});
  CHECK(has_line(cyclic.out, "derivations: infinite"));
}

TEST_CASE("parse --trees prints distinct trees in Lark's notation, --shape none every node") {
  const GlrmaskRun lark =
      run_glrmask_args({"parse", ambiguity_fixture("dangling_else.lark"),
                        ambiguity_fixture("dangling_else.txt"), "--trees", "10"});
  REQUIRE(lark.exit_code == 0);
  CHECK(occurrences(lark.out, "\ntree ") == 2);
  CHECK(lark.out.find("\ntree 1\nstart\n  stmt\n    c\n") != std::string::npos);
  const GlrmaskRun raw =
      run_glrmask_args({"parse", ambiguity_fixture("dangling_else.lark"),
                        ambiguity_fixture("dangling_else.txt"), "--trees", "1", "--shape", "none"});
  CHECK(raw.out.find("\ntree 1\nstart\n  stmt\n    if\n    c\n    then\n") != std::string::npos);
  CHECK(occurrences(raw.out, "\ntree ") == 1);
  const GlrmaskRun cyclic = run_glrmask_args(
      {"parse", ambiguity_fixture("cyclic.lark"), ambiguity_fixture("cyclic.txt"), "--trees", "3"});
  CHECK(occurrences(cyclic.out, "\ntree ") == 3);
  CHECK(cyclic.out.find("infinitely many trees") != std::string::npos);
}

TEST_CASE("parse --forest dot shows packed nodes, --forest json holds the count") {
  const GlrmaskRun dot = run_glrmask_args(
      {"parse", ambiguity_fixture("expr.lark"), ambiguity_fixture("expr.txt"), "--forest", "dot"});
  REQUIRE(dot.exit_code == 0);
  CHECK(dot.out.rfind("digraph forest {", 0) == 0);
  // Packed nodes by hand, tokens 0..6 of "1 + 2 * 3 + 4": e -> NUM at 0, 2, 4, 6 (4); e over
  // [0,3), [2,5), [4,7) (1 each); [0,5) and [2,7) (2 each: split at either operator); [0,7)
  // (3); start (1): 15, of which [0,5), [2,7) and [0,7) are ambiguous.
  CHECK(occurrences(dot.out, "shape=box, style=rounded") == 15);
  CHECK(occurrences(dot.out, "color=red, penwidth=2") == 3);
  const GlrmaskRun json = run_glrmask_args(
      {"parse", ambiguity_fixture("expr.lark"), ambiguity_fixture("expr.txt"), "--forest", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(json.out.rfind("{\"derivations\": \"5\", \"root\": ", 0) == 0);
  CHECK(occurrences(json.out, "\"rule_text\": ") == 15);
}

TEST_CASE("parse: errors name the place and exit with 2") {
  const fs::path scratch = fs::temp_directory_path() / "glrmask_parse_errors.txt";
  std::ofstream(scratch) << "1 + + 2";
  const GlrmaskRun bad =
      run_glrmask_args({"parse", ambiguity_fixture("expr.lark"), scratch.string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("byte offset 4") != std::string::npos);
  CHECK(bad.err.find(scratch.string()) != std::string::npos);
  const GlrmaskRun format = run_glrmask_args(
      {"parse", ambiguity_fixture("expr.lark"), ambiguity_fixture("expr.txt"), "--forest", "svg"});
  CHECK(format.exit_code == 2);
  CHECK(format.err.find("--forest") != std::string::npos);
  const GlrmaskRun trees = run_glrmask_args(
      {"parse", ambiguity_fixture("expr.lark"), ambiguity_fixture("expr.txt"), "--trees", "many"});
  CHECK(trees.exit_code == 2);
  CHECK(trees.err.find("--trees") != std::string::npos);
  fs::remove(scratch);
}

TEST_CASE("conflicts --counterexamples classifies the fixtures' cells") {
  const GlrmaskRun dangling =
      run_glrmask_args({"conflicts", ambiguity_fixture("dangling_else.lark"), "--counterexamples"});
  INFO(dangling.err);
  REQUIRE(dangling.exit_code == 0);
  CHECK(
      has_line(dangling.out, "  verdict ambiguous: 9 terminals, 2 trees (checked on the forest)"));
  CHECK(
      has_line(dangling.out,
               "    sentence \"if\" \"c\" \"then\" \"if\" \"c\" \"then\" \"s\" . \"else\" \"s\""));
  CHECK(dangling.out.find("\ncounterexamples: 1 cells: 1 ambiguous, 0 need more lookahead") !=
        std::string::npos);
  const GlrmaskRun lr2 =
      run_glrmask_args({"conflicts", ambiguity_fixture("lr2.lark"), "--counterexamples"});
  CHECK(
      lr2.out.find("  verdict needs more lookahead: 2 tokens separate the actions (LR(2) here)") !=
      std::string::npos);
  CHECK(has_line(lr2.out, "      \"c\" . \"x\" \"y\""));
  CHECK(has_line(lr2.out, "      \"c\" . \"x\" \"z\""));
  const GlrmaskRun expr =
      run_glrmask_args({"conflicts", ambiguity_fixture("expr.lark"), "--counterexamples"});
  CHECK(occurrences(expr.out, "  verdict ambiguous: 5 terminals, 2 trees") == 4);
  // A bound too small to find anything: undecided, naming what was searched.
  const GlrmaskRun bounded = run_glrmask_args(
      {"conflicts", ambiguity_fixture("expr.lark"), "--counterexamples", "--max-length", "4"});
  CHECK(occurrences(bounded.out,
                    "  verdict undecided within the bound: no unifying "
                    "counterexample of up to 4 terminals") == 4);
}

TEST_CASE("ambiguity: nonterminals, sentences as terminals and text, lexical ties") {
  const GlrmaskRun expr = run_glrmask_args({"ambiguity", ambiguity_fixture("expr.lark")});
  INFO(expr.err);
  REQUIRE(expr.exit_code == 0);
  CHECK(has_line(expr.out, "ambiguous nonterminals: 1"));
  CHECK(has_line(expr.out, "e: NUM \"+\" NUM \"+\" NUM has two derivations (text \"0 + 0 + 0\")"));
  CHECK(has_line(expr.out, "shortest ambiguous sentences, one per conflict cell: 4"));
  CHECK(expr.out.find("lexical ambiguity: 0 ties") != std::string::npos);
  const GlrmaskRun ties = run_glrmask_args(
      {"ambiguity", (fixtures_dir() / "glr_session" / "keyword_ties.lark").string()});
  CHECK(has_line(ties.out, "  IF | NAME: e.g. \"if\""));
  const GlrmaskRun bad =
      run_glrmask_args({"ambiguity", ambiguity_fixture("expr.lark"), "--max-length", "x"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--max-length") != std::string::npos);
}

TEST_CASE("conflicts: bad counterexample options exit with 2") {
  const GlrmaskRun zero = run_glrmask_args(
      {"conflicts", ambiguity_fixture("expr.lark"), "--counterexamples", "--max-length", "0"});
  CHECK(zero.exit_code == 2);
  CHECK(zero.err.find("--max-length") != std::string::npos);
  const GlrmaskRun lonely =
      run_glrmask_args({"conflicts", ambiguity_fixture("expr.lark"), "--max-length", "5"});
  CHECK(lonely.exit_code == 2);
  CHECK(lonely.err.find("needs --counterexamples") != std::string::npos);
}

}  // namespace
}  // namespace glrmask::testing
