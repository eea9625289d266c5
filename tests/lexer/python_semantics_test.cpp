// The lexer's regex semantics against Python's `re` itself: for each (pattern, flags, text) the
// DFA of the pattern as a single terminal must accept, as its last accepting prefix, exactly
// the match `re.match(pattern, text)` returns (leftmost-first priority: greedy, lazy, ordered
// alternation), and reject the empty-matching patterns Python gives a minimum width of 0.
// Python is run once per test case on all inputs; the test warns and stops if it is missing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/regex/utf8_sequences.h"
#include "lib/core/error.h"
#include "tests/support/test_support.h"

namespace glrmask::lexer {
namespace {

struct Case {
  std::string pattern;
  std::string flags;
  std::string text;
};

struct PythonResult {
  bool rejected = false;  // re.compile raised re.error
  int64_t end = -1;       // match end in bytes, -1 without a match
  bool nullable = false;  // Python's minimum width of the pattern is 0
};

constexpr const char* kPythonScript = R"PY(
import re, sys
try:
    import re._parser as sre_parser
except ImportError:
    import sre_parse as sre_parser
FLAGS = {'i': re.I, 's': re.S, 'm': re.M, 'x': re.X, 'a': re.A}
out = []
for line in open(sys.argv[1], encoding='ascii'):
    pattern, flags, data = (bytes.fromhex(f) for f in line.rstrip('\n').split('\t'))
    pattern, flags = pattern.decode('utf-8'), flags.decode('utf-8')
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as error:
        # The lexer never matches invalid UTF-8: compare on the valid prefix.
        text = data[:error.start].decode('utf-8')
    value = 0
    for letter in flags:
        value |= FLAGS[letter]
    try:
        compiled = re.compile(pattern, value)
        nullable = sre_parser.parse(pattern, value).getwidth()[0] == 0
    except re.error:
        out.append('E')
        continue
    m = compiled.match(text)
    end = -1 if m is None else len(text[:m.end()].encode('utf-8'))
    out.append('%d %d' % (end, int(nullable)))
with open(sys.argv[2], 'w') as f:
    f.write('\n'.join(out) + '\n')
)PY";

std::string python_interpreter() {
  // Debian's interpreter first: it is the one with the Unicode database the docs refer to.
  if (std::filesystem::exists("/usr/bin/python3")) return "/usr/bin/python3";
  return "python3";
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char byte : bytes) {
    out += digits[byte >> 4];
    out += digits[byte & 15];
  }
  return out;
}

// Runs Python's `re` on every case; nothing when Python cannot be run.
std::optional<std::vector<PythonResult>> run_python(const std::vector<Case>& cases,
                                                    std::string_view tag) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("glrmask_lexer_python_" + std::string(tag) + "_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "run.py") << kPythonScript;
    std::ofstream input(dir / "cases.txt");
    for (const Case& c : cases) {
      input << hex(c.pattern) << '\t' << hex(c.flags) << '\t' << hex(c.text) << '\n';
    }
  }
  if (testing::run_command(python_interpreter() + " -c pass").exit_code != 0) {
    WARN("*** Python 3 is not installed: the comparison with Python's re is SKIPPED ***");
    return std::nullopt;
  }
  const testing::CommandResult result =
      testing::run_command(python_interpreter() + " " + (dir / "run.py").string() + " " +
                           (dir / "cases.txt").string() + " " + (dir / "out.txt").string());
  std::vector<PythonResult> results;
  std::ifstream output(dir / "out.txt");
  for (std::string line; std::getline(output, line);) {
    PythonResult r;
    if (line == "E") {
      r.rejected = true;
    } else {
      std::istringstream fields(line);
      int nullable = 0;
      fields >> r.end >> nullable;
      r.nullable = nullable != 0;
    }
    results.push_back(r);
  }
  std::filesystem::remove_all(dir);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  REQUIRE(results.size() == cases.size());
  return results;
}

// The end of the last accepting prefix of `text`, as the lexer's fall-back would take it.
int64_t match_end(const LexerDfa& dfa, std::string_view text) {
  uint32_t state = dfa.start_state();
  int64_t end = -1;
  for (size_t i = 0; i < text.size(); ++i) {
    state = dfa.next(state, static_cast<uint8_t>(text[i]));
    if (state == LexerDfa::kDeadState) break;
    if (dfa.label(state) != LexerDfa::kNoLabel) end = static_cast<int64_t>(i + 1);
  }
  return end;
}

// Compares every case with Python; returns the number of cases that were compared.
size_t compare_with_python(const std::vector<Case>& cases, std::string_view tag) {
  const std::optional<std::vector<PythonResult>> python = run_python(cases, tag);
  if (!python) return 0;
  std::string compiled_pattern;
  std::string compiled_flags;
  std::optional<LexerDfa> dfa;
  std::string compile_error;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const PythonResult& expected = (*python)[i];
    INFO("pattern /" << c.pattern << "/" << c.flags << " on \"" << c.text << "\"");
    REQUIRE_FALSE(expected.rejected);  // the cases are meant to be valid Python regexes
    if (i == 0 || c.pattern != compiled_pattern || c.flags != compiled_flags) {
      compiled_pattern = c.pattern;
      compiled_flags = c.flags;
      TerminalSpec spec;
      spec.name = "T";
      spec.regex = c.pattern;
      spec.flags = c.flags;
      spec.origin = "case";
      dfa.reset();
      compile_error.clear();
      try {
        dfa.emplace(compile_lexer_dfa({&spec, 1}));
      } catch (const Error& e) {
        compile_error = e.what();
      }
    }
    if (expected.nullable) {
      CHECK_THAT(compile_error, Catch::Contains("matches the empty string"));
      continue;
    }
    INFO(compile_error);
    REQUIRE(dfa.has_value());
    CHECK(match_end(*dfa, c.text) == expected.end);
  }
  return cases.size();
}

TEST_CASE("match priority follows Python: greedy, lazy, ordered alternation") {
  const std::vector<std::pair<std::string, std::string>> patterns = {
      {"a|ab", ""},
      {"ab|a", ""},
      {"(?:a|ab)(?:c|bcd)", ""},
      {"(ab)?(abcd)?", ""},
      {"a*?b+", ""},
      {"a+?", ""},
      {"a{2,4}?", ""},
      {"a{2,}", ""},
      {"a{,2}b", ""},
      {"x{", ""},
      {"\"(?:[^\"\\\\]|\\\\.)*?\"", ""},
      {"\".*?\"", ""},
      {"`.*?`", ""},
      {"/\\*(.|\\n)*?\\*/", ""},
      {"#.*(\\n[\\t ]*)+", ""},
      {"(?:\\d+\\.\\d*|\\.\\d+)(?:e[-+]?\\d+)?|\\d+(?:e[-+]?\\d+)", "i"},
      {"0x[\\da-f]*", "i"},
      {"[ubf]?r?(\"\"\".*?\"\"\"|'''.*?''')", "is"},
      {"(?:(?:\\/\\/[^\\n]*|(\\r?\\n[\\t ]*)+))+", ""},
      {"a.c", ""},
      {"a.c", "s"},
      {"(?s:a.)c", ""},
      {"(?i)straße", ""},
      {"k+", "i"},
      {"[^a-z]+", "i"},
      {"[\\w-]+", ""},
      {"\\W+", ""},
      {"\\s+", ""},
      {"\\d+", ""},
      {"\\w+", "a"},
      {"[]a]+", ""},
      {"[^]a]+", ""},
      {"[a-]+", ""},
      {"\\x41\\101\\u0041\\U00000041\\N{LATIN CAPITAL LETTER A}", ""},
      {"\\0", ""},
      {"a b # comment\n c", "x"},
      {"(?x) [ ] a", ""},
      {"(?#note)ab", ""},
      {"(?P<name>a)b", ""},
      {"é+", "i"},
      {"[à-ÿ]+", "i"},
      {"\\S+", ""},
  };
  const std::vector<std::string> texts = {
      "abcd",
      "ab",
      "aaab",
      "aaaa",
      "abcbcd",
      "\"a\\\"b\" \"c\"",
      "`x\n`y`",
      "/* a */ b */",
      "# c\n  \n\t# d\n x",
      "1.5e3",
      ".5E-2x",
      "12e5",
      "0XfFg",
      "\"\"\"doc\"\"\" \"\"\"",
      "f'''x\ny'''",
      "// c\n\t// d\n\nx",
      "a\nc",
      "abc",
      "STRASSE straße",
      "kKK",
      "ÀÉ1",
      "a-b_c",
      "€ !?",
      " \t\n\x0b\x0c\r\x1c\u0085\u00a0\u2028\u3000x",
      "123٣४x",
      "ΩX_1",
      "]a]b",
      "b]c",
      "a-a-",
      "AAAAAA",
      std::string("\0a", 2),
      "abc",
      " a",
      "{",
      "x{",
      "ab",
      "éÉé",
      "àÀÿŸ",
      "aé\xff",
      "a\xc3",
  };
  std::vector<Case> cases;
  for (const auto& [pattern, flags] : patterns) {
    for (const std::string& text : texts) cases.push_back({pattern, flags, text});
  }
  compare_with_python(cases, "fixed");
}

// A random regex over the letters a, b, c with every construct whose priority matters.
std::string random_regex(std::mt19937& random, int depth) {
  const int choice = static_cast<int>(random() % (depth > 3 ? 7 : 11));
  switch (choice) {
    case 0:
      return "a";
    case 1:
      return "b";
    case 2:
      return "c";
    case 3:
      return "[ab]";
    case 4:
      return "[^a]";
    case 5:
      return ".";
    case 6:
      return "ab";
    case 7:
    case 8:
      return random_regex(random, depth + 1) + random_regex(random, depth + 1);
    case 9:
      return "(?:" + random_regex(random, depth + 1) + "|" + random_regex(random, depth + 1) + ")";
    default: {
      static const char* kQuantifiers[] = {"*", "+", "?", "{0,2}", "{1,3}", "{2}", "{2,}"};
      std::string q = kQuantifiers[random() % 7];
      if (random() % 2) q += "?";
      return "(?:" + random_regex(random, depth + 1) + ")" + q;
    }
  }
}

TEST_CASE("random regexes match like Python's re") {
  std::mt19937 random(20240611);
  std::vector<Case> cases;
  for (int p = 0; p < 400; ++p) {
    const std::string pattern = random_regex(random, 0);
    for (int t = 0; t < 12; ++t) {
      std::string text;
      const size_t length = random() % 9;
      for (size_t i = 0; i < length; ++i) text += "abc\n"[random() % 4];
      cases.push_back({pattern, "", text});
    }
  }
  compare_with_python(cases, "random");
}

// Code-point classes: for every code point Python's Unicode database assigns, \w \d \s and `.`
// must agree with Python on the single character (UTF-8 encoded). Code points Python does not
// know (its database may be older than ICU's) are left out.
TEST_CASE("Unicode classes agree with Python on every assigned code point") {
  const std::string script = R"PY(
import re, sys, unicodedata
classes = [r'\w', r'\d', r'\s', r'.', r'\W']
compiled = [re.compile(c) for c in classes]
out = [unicodedata.unidata_version]
for regex in compiled + [None]:
    ranges, start = [], None
    for c in range(0x110000 + 1):
        inside = False
        if c < 0x110000 and not (0xD800 <= c <= 0xDFFF):
            ch = chr(c)
            known = unicodedata.category(ch) != 'Cn'
            inside = known if regex is None else (known and regex.match(ch) is not None)
        if inside and start is None:
            start = c
        elif not inside and start is not None:
            ranges.append('%x-%x' % (start, c - 1))
            start = None
    out.append(' '.join(ranges))
with open(sys.argv[1], 'w') as f:
    f.write('\n'.join(out) + '\n')
)PY";
  if (testing::run_command(python_interpreter() + " -c pass").exit_code != 0) {
    WARN("*** Python 3 is not installed: the Unicode class comparison is SKIPPED ***");
    return;
  }
  const auto dir = std::filesystem::temp_directory_path() /
                   ("glrmask_lexer_unicode_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "run.py") << script;
  const testing::CommandResult result = testing::run_command(
      python_interpreter() + " " + (dir / "run.py").string() + " " + (dir / "out.txt").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::vector<std::string> lines;
  {
    std::ifstream output(dir / "out.txt");
    for (std::string line; std::getline(output, line);) lines.push_back(line);
  }
  std::filesystem::remove_all(dir);
  const std::vector<std::string> classes = {R"(\w)", R"(\d)", R"(\s)", ".", R"(\W)"};
  REQUIRE(lines.size() == classes.size() + 2);
  INFO("Python's Unicode database: " << lines[0]);

  auto parse_ranges = [](const std::string& line) {
    std::vector<bool> members(0x110000, false);
    std::istringstream fields(line);
    for (std::string range; fields >> range;) {
      const size_t dash = range.find('-');
      const auto first = std::stoul(range.substr(0, dash), nullptr, 16);
      const auto last = std::stoul(range.substr(dash + 1), nullptr, 16);
      for (auto c = first; c <= last; ++c) members[c] = true;
    }
    return members;
  };
  const std::vector<bool> known = parse_ranges(lines.back());
  for (size_t k = 0; k < classes.size(); ++k) {
    INFO("class " << classes[k]);
    const std::vector<bool> expected = parse_ranges(lines[k + 1]);
    TerminalSpec spec;
    spec.name = "C";
    spec.regex = classes[k];
    spec.origin = "case";
    const LexerDfa dfa = compile_lexer_dfa({&spec, 1});
    size_t mismatches = 0;
    std::string examples;
    for (char32_t c = 0; c < 0x110000; ++c) {
      if (!known[c]) continue;
      uint8_t bytes[4];
      const int length = encode_utf8(c, bytes);
      const bool accepted = match_end(dfa, {reinterpret_cast<const char*>(bytes),
                                            static_cast<size_t>(length)}) == length;
      if (accepted != expected[c]) {
        if (++mismatches <= 10) examples += " U+" + std::to_string(c);
      }
    }
    INFO("code points that disagree (decimal):" << examples);
    CHECK(mismatches == 0);
  }
}

// Case-insensitive matching: for every code point Python considers cased, the pattern of that one
// character under the i flag must accept exactly the characters Python accepts among all its
// case relatives (and its two neighbours, which are usually not relatives).
TEST_CASE("case-insensitive literals agree with Python on every cased code point") {
  const std::string script = R"PY(
import re, sys, unicodedata
from collections import defaultdict
def known(c):
    return not (0xD800 <= c <= 0xDFFF) and unicodedata.category(chr(c)) != 'Cn'
by_lower, by_upper = defaultdict(set), defaultdict(set)
cased = []
for c in range(0x110000):
    if not known(c):
        continue
    ch = chr(c)
    by_lower[ch.lower()].add(c)
    by_upper[ch.upper()].add(c)
    if ch.lower() != ch or ch.upper() != ch or ch.casefold() != ch:
        cased.append(c)
out = []
for c in cased:
    ch = chr(c)
    candidates = by_lower[ch.lower()] | by_upper[ch.upper()] | {c - 1, c + 1}
    for variant in (ch.lower(), ch.upper(), ch.title(), ch.casefold()):
        if len(variant) == 1:
            candidates |= by_lower[variant] | by_upper[variant] | {ord(variant)}
    regex = re.compile(re.escape(ch), re.I)
    for d in sorted(candidates):
        if 0 <= d < 0x110000 and known(d):
            out.append('%x %x %d' % (c, d, regex.fullmatch(chr(d)) is not None))
with open(sys.argv[1], 'w') as f:
    f.write('\n'.join(out) + '\n')
)PY";
  if (testing::run_command(python_interpreter() + " -c pass").exit_code != 0) {
    WARN("*** Python 3 is not installed: the case-folding comparison is SKIPPED ***");
    return;
  }
  const auto dir = std::filesystem::temp_directory_path() /
                   ("glrmask_lexer_case_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "run.py") << script;
  const testing::CommandResult result = testing::run_command(
      python_interpreter() + " " + (dir / "run.py").string() + " " + (dir / "out.txt").string());
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  std::ifstream output(dir / "out.txt");
  std::optional<LexerDfa> dfa;
  unsigned long current = 0x110000;
  size_t compared = 0;
  size_t mismatches = 0;
  std::string examples;
  for (std::string line; std::getline(output, line);) {
    std::istringstream fields(line);
    std::string c_hex;
    std::string d_hex;
    int matches = 0;
    fields >> c_hex >> d_hex >> matches;
    const unsigned long c = std::stoul(c_hex, nullptr, 16);
    const auto d = static_cast<char32_t>(std::stoul(d_hex, nullptr, 16));
    if (c != current) {
      current = c;
      TerminalSpec spec;
      spec.name = "C";
      spec.regex = "\\U" + std::string(8 - c_hex.size(), '0') + c_hex;
      spec.flags = "i";
      spec.origin = "case";
      dfa.emplace(compile_lexer_dfa({&spec, 1}));
    }
    uint8_t bytes[4];
    const int length = encode_utf8(d, bytes);
    const bool accepted = match_end(*dfa, {reinterpret_cast<const char*>(bytes),
                                           static_cast<size_t>(length)}) == length;
    ++compared;
    if (accepted != (matches != 0)) {
      if (++mismatches <= 10) examples += " " + c_hex + "~" + d_hex;
    }
  }
  std::filesystem::remove_all(dir);
  INFO("pairs (hex) that disagree:" << examples);
  CHECK(compared > 1000);
  CHECK(mismatches == 0);
}

}  // namespace
}  // namespace glrmask::lexer
