// backtracking_search (lib/json_schema/backtracking_matcher.h): ECMA-262 lookaround,
// backreferences and word boundaries on ASCII values. Checked on cases whose answers ECMA-262
// fixes (captures cleared per iteration, empty iterations, atomic lookarounds, lookbehind), each
// as V8 answers it, and against V8 itself (Node.js, which the set-up installs) on random small
// patterns and texts. libstdc++'s std::regex is no reference: it fails a backreference to a group
// that did not participate and misplaces \b at the end of the text.
#include "lib/json_schema/backtracking_matcher.h"

#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lib/core/error.h"
#include "tests/support/test_support.h"

namespace glrmask::json_schema {
namespace {

const std::string kBacktrackWhere = "s.json#/pattern";

bool backtrack(const std::string& pattern, const std::string& text) {
  return backtracking_search(pattern, text, kBacktrackWhere);
}

std::string backtrack_error(const std::string& pattern, const std::string& text,
                            std::size_t steps = kMaxBacktrackingSteps) {
  try {
    (void)backtracking_search(pattern, text, kBacktrackWhere, steps);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

ErrorCode backtrack_code(const std::string& pattern, const std::string& text) {
  try {
    (void)backtracking_search(pattern, text, kBacktrackWhere);
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::kInternal;  // no error: never what a case expects
}

TEST_CASE("backtracking matcher: lookahead, lookbehind, backreferences and word boundaries") {
  CHECK(backtrack("^(?!a)", "cd"));
  CHECK_FALSE(backtrack("^(?!a)", "ab"));
  CHECK(backtrack("^(?=.{2}$)", "xy"));
  CHECK_FALSE(backtrack("^(?=.{2}$)", "xyz"));
  CHECK(backtrack("^(a)\\1$", "aa"));
  CHECK_FALSE(backtrack("^(a)\\1$", "ab"));
  CHECK(backtrack("^(?<x>a|b)\\k<x>$", "bb"));
  CHECK_FALSE(backtrack("^(?<x>a|b)\\k<x>$", "ba"));
  CHECK(backtrack("\\bcd", "ab cd"));
  CHECK_FALSE(backtrack("\\bcd", "abcd"));
  CHECK(backtrack("b\\B", "abc"));
  CHECK(backtrack("(?<=a)b", "ab"));
  CHECK_FALSE(backtrack("(?<=a)b", "cb"));
  CHECK(backtrack("(?<!a)b", "cb"));
  CHECK_FALSE(backtrack("(?<!a)b", "ab"));
  CHECK(backtrack("(?<=^a+)b", "aaab"));
  CHECK(backtrack("a^|b", "b"));  // an anchor inside the pattern
  CHECK_FALSE(backtrack("a^|c", "ab"));
  CHECK(backtrack("^[\\d-x]+$", "1-x"));  // a class escape at a range's end: the dash is literal
  CHECK(backtrack("^[^\\s]{3}$", "a.b"));
  CHECK(backtrack("^\\x41\\u0042\\cJ$", "AB\n"));
  CHECK(backtrack("^a{,2}$", "a{,2}"));  // Annex B: not a quantifier, a literal brace
}

TEST_CASE("backtracking matcher: what ECMA-262 fixes about captures and empty iterations") {
  // A backreference to a group that did not participate matches the empty string.
  CHECK(backtrack("^(?:(a)|b)\\1$", "b"));
  // Captures inside a quantified atom are cleared at each iteration: in the second iteration
  // group 2 did not participate, so \2 is empty.
  CHECK(backtrack("^(?:(a)|(b))+\\2$", "ba"));
  // An iteration that matches the empty string ends the loop instead of looping forever.
  CHECK(backtrack("^(a*)*$", "aaa"));
  CHECK(backtrack("^(a*)+b$", "b"));
  CHECK_FALSE(backtrack("^(?:a?)*c$", "aab"));
  // A lookahead is atomic: its captures are those of its first match, (a+) takes "aaa", so \1
  // must match "aaa" again.
  CHECK_FALSE(backtrack("^(?=(a+))a\\1$", "aaa"));
  CHECK(backtrack("^(?=(a+))\\1$", "aaa"));
  // A negative lookahead leaves no captures behind.
  CHECK(backtrack("^(?!(a)b)\\1c$", "c"));
  // Lazy quantifiers find the same strings.
  CHECK(backtrack("^a+?b$", "aab"));
  CHECK(backtrack("^(a+?)\\1$", "aaaa"));
}

TEST_CASE("backtracking matcher: exponential patterns end in a clear limit error") {
  using Catch::Matchers::Contains;
  const std::string text = std::string(900, 'a') + "b";
  CHECK_THAT(backtrack_error("^(a+)+\\1c$", text),
             Contains(kBacktrackWhere) && Contains("more than 4194304 steps"));
  CHECK(backtrack_code("^(a+)+\\1c$", text) == ErrorCode::kLimit);
  // The budget is what bounds it: a small one stops a short text, a pattern without blow-up
  // passes on a long one.
  CHECK_THAT(backtrack_error("(a|aa)*\\1c", std::string(30, 'a'), 10000),
             Contains("more than 10000 steps"));
  CHECK(backtrack("^(?!b)(a)\\1*$", std::string(60000, 'a')));
  // A long value does not exhaust the stack: the machine's stack is a vector.
  CHECK(backtrack("^(?=a)(?:a|b)*$", std::string(60000, 'a')));
  // Counted repetitions are copied within a program budget.
  CHECK(backtrack_code("(?=a)(a{1000}){1000}", "a") == ErrorCode::kLimit);
}

TEST_CASE("backtracking matcher: malformed or unsupported patterns name the column") {
  using Catch::Matchers::Contains;
  CHECK_THAT(backtrack_error("(?=a", "a"), Contains(kBacktrackWhere + ": pattern column 5"));
  CHECK_THAT(backtrack_error("(a)\\2", "a"), Contains("\\2 refers to a group"));
  CHECK_THAT(backtrack_error("\\k<y>(?<x>a)", "a"), Contains("\\k<y> names no group"));
  CHECK_THAT(backtrack_error("(?=a)\\p{L}", "a"), Contains("\\p{...} is not evaluated"));
  CHECK_THAT(backtrack_error("a**", "a"), Contains("nothing to repeat"));
  CHECK_THAT(backtrack_error("a{2,1}", "a"), Contains("out of order"));
  CHECK_THAT(backtrack_error(std::string(300, '(') + "a" + std::string(300, ')'), "a"),
             Contains("nested more than 200 deep"));
  CHECK(backtrack_code("[b-a]", "a") == ErrorCode::kSchema);
}

// A random pattern over a, b and c: literals, classes, '.', groups, alternations, lookaheads,
// lookbehinds, backreferences, \b, ^ and the quantifiers, greedy and lazy.
std::string random_backtrack_pattern(std::mt19937& random, int depth, int& groups) {
  const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
  std::string out;
  const int terms = 1 + pick(3);
  for (int t = 0; t < terms; ++t) {
    std::string atom;
    const int kind = depth > 2 ? pick(4) : pick(10);
    switch (kind) {
      case 0:
      case 1:
        atom = std::string(1, static_cast<char>('a' + pick(3)));
        break;
      case 2:
        atom = pick(2) ? "[ab]" : "[^a]";
        break;
      case 3:
        atom = ".";
        break;
      case 4:
        ++groups;
        atom = "(" + random_backtrack_pattern(random, depth + 1, groups) + ")";
        break;
      case 5:
        atom = "(?:" + random_backtrack_pattern(random, depth + 1, groups) + "|" +
               random_backtrack_pattern(random, depth + 1, groups) + ")";
        break;
      case 6:
        atom = std::string(pick(2) ? "(?=" : "(?!") +
               random_backtrack_pattern(random, depth + 1, groups) + ")";
        out += atom;
        continue;  // not quantified
      case 7:
        if (groups > 0) {
          atom = "\\" + std::to_string(1 + pick(groups));
          break;
        }
        atom = pick(2) ? "(?<=a)" : "(?<!b)";
        out += atom;
        continue;
      case 8:
        out += pick(2) ? "\\b" : "^";
        continue;
      default:
        atom = "c";
        break;
    }
    static const char* const kQuantifiers[] = {"", "", "*", "+", "?", "{1,2}", "*?", "{2}"};
    out += atom + kQuantifiers[pick(8)];
  }
  return out;
}

TEST_CASE("backtracking matcher: equals V8 on random patterns and texts") {
  std::mt19937 random(20261207);
  std::vector<std::pair<std::string, std::string>> cases;
  std::string lines;
  for (int round = 0; round < 1500; ++round) {
    int groups = 0;
    const std::string pattern = random_backtrack_pattern(random, 0, groups);
    for (int t = 0; t < 4; ++t) {
      std::string text;
      const int length = static_cast<int>(random() % 7);
      for (int i = 0; i < length; ++i) text += " abc"[random() % 4];
      cases.emplace_back(pattern, text);
      lines += pattern + "\t" + text + "\n";
    }
  }
  glrmask::testing::ScratchDir scratch;
  const auto input = scratch.write("cases.tsv", lines);
  // One line per case: 1 or 0 for V8's RegExp.prototype.test, E when V8 refuses the pattern.
  const std::string script =
      "const fs=require('fs');let out='';"
      "for(const l of fs.readFileSync(process.argv[1],'utf8').split('\\n')){if(!l)continue;"
      "const [p,t]=l.split('\\t');let r;try{r=new RegExp(p).test(t)?'1':'0'}catch(e){r='E'}"
      "out+=r+'\\n'}process.stdout.write(out)";
  const auto run =
      glrmask::testing::run_command("node -e " + glrmask::testing::shell_quoted(script) + " " +
                                    glrmask::testing::shell_quoted(input));
  REQUIRE(run.exit_code == 0);
  std::istringstream answers(run.output);
  std::string answer;
  int compared = 0;
  int matched = 0;
  for (const auto& [pattern, text] : cases) {
    REQUIRE(std::getline(answers, answer));
    INFO("pattern " << pattern << "  text '" << text << "'");
    if (answer == "E") {
      CHECK(backtrack_code(pattern, text) == ErrorCode::kSchema);
      continue;
    }
    CHECK(backtrack(pattern, text) == (answer == "1"));
    ++compared;
    matched += answer == "1" ? 1 : 0;
  }
  // Both answers occur often enough for the comparison to mean something.
  CHECK(compared > 5000);
  CHECK(matched > compared / 5);
  CHECK(matched < compared * 4 / 5);
}

}  // namespace
}  // namespace glrmask::json_schema
