// Helpers shared by the grammar_* tests: plain-text renderings of a GrammarModel that tests compare
// against hand-written expectations, and the cross-check against Lark itself (Debian's
// python3-lark, through tests/reference/lark_stats.py).
#pragma once

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lib/grammar/grammar_model.h"
#include "lib/lark/lark_escapes.h"
#include "tests/support/test_support.h"

namespace glrmask::testing {

// One line per rule, "lhs: a b c -> alias", with anonymous terminals written as their Lark
// literal ("(" or /[0-9]+/), so the text does not depend on how anonymous terminals are numbered.
inline std::string symbol_text(const GrammarModel& grammar, SymbolId id) {
  if (grammar.is_terminal(id) && grammar.terminal(id).anonymous) {
    const Terminal& t = grammar.terminal(id);
    return t.is_literal ? lark::lark_string_text(t.literal, t.flags)
                        : lark::lark_regexp_text(t.pattern, t.flags);
  }
  return std::string(grammar.name(id));
}

inline std::string bnf_lines(const GrammarModel& grammar) {
  std::string out;
  for (const Rule& rule : grammar.rules()) {
    out += std::string(grammar.name(rule.lhs)) + ":";
    for (SymbolId symbol : rule.rhs) out += " " + symbol_text(grammar, symbol);
    if (!rule.alias.empty()) out += " -> " + rule.alias;
    out += "\n";
  }
  return out;
}

// "NAME pattern [flags=..] [literal] [priority=..] [ignored] [anonymous]"
inline std::string terminal_line(const Terminal& t) {
  std::string out = t.name + " " + t.pattern;
  if (!t.flags.empty()) out += " flags=" + t.flags;
  if (t.is_literal) out += " literal";
  if (t.priority != 0) out += " priority=" + std::to_string(t.priority);
  if (t.ignored) out += " ignored";
  if (t.anonymous) out += " anonymous";
  return out;
}

inline std::vector<std::string> terminal_lines(const GrammarModel& grammar) {
  std::vector<std::string> lines;
  for (const Terminal& t : grammar.terminals()) lines.push_back(terminal_line(t));
  return lines;
}

// Everything that defines the grammar, independent of symbol numbering and of the names of
// anonymous terminals: for comparing a grammar with the one read back from its printed text.
inline std::string canonical_dump(const GrammarModel& grammar) {
  std::string out = "start " + std::string(grammar.name(grammar.start())) + "\n";
  for (const Nonterminal& n : grammar.nonterminals()) {
    out += "nonterminal " + n.name + (n.shape.inline_always ? " inline" : "") +
           (n.shape.inline_if_single ? " ?" : "") + (n.shape.keep_all_tokens ? " !" : "") + "\n";
  }
  for (const Rule& rule : grammar.rules()) {
    out += std::string(grammar.name(rule.lhs)) + ":";
    for (SymbolId symbol : rule.rhs) out += " " + symbol_text(grammar, symbol);
    if (!rule.alias.empty()) out += " -> " + rule.alias;
    if (rule.priority != 0) out += " priority=" + std::to_string(rule.priority);
    out += "\n";
  }
  std::set<std::string> terminals;
  for (const Terminal& t : grammar.terminals()) {
    std::string line = terminal_line(t);
    if (t.anonymous)
      line = "anonymous " + symbol_text(grammar, grammar.find_symbol(t.name).value()) +
             (t.ignored ? " ignored" : "");
    terminals.insert(line);
  }
  for (const std::string& line : terminals) out += line + "\n";
  return out;
}

// A python3 that can `import lark`, or nothing (then the cross-checks are skipped loudly).
inline std::optional<std::string> python_with_lark() {
  static const std::optional<std::string> found = []() -> std::optional<std::string> {
    std::vector<std::string> candidates;
    if (const char* configured = std::getenv("GLRMASK_PYTHON")) candidates.emplace_back(configured);
    candidates.emplace_back("python3");
    candidates.emplace_back("/usr/bin/python3");  // Debian's, where python3-lark installs
    for (const std::string& python : candidates) {
      if (run_command(python + " -c 'import lark' 2>/dev/null").exit_code == 0) return python;
    }
    std::cerr << "\n*** WARNING: no python3 with the `lark` module (Debian: python3-lark); the "
                 "comparison with Lark itself is skipped. Set GLRMASK_PYTHON. ***\n\n";
    return std::nullopt;
  }();
  return found;
}

// What Lark 1.1.5 makes of a grammar file, and where its terminals disagree with ours.
struct LarkReference {
  struct TerminalInfo {
    int priority = 0;
    bool is_string = false;
    std::string flags;
    std::string value;  // the string, or the regex
  };
  std::map<std::string, TerminalInfo> terminals;
  std::set<std::string> ignored;
  std::map<std::string, std::pair<int, std::string>> rules;  // user rules: count, aliases
  std::vector<std::string> mismatches;                       // "NAME\tPROBE"
};

inline std::string escape_field(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
  return out;
}

inline std::string unescape_field(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char next = text[++i];
      out += next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next;
    } else {
      out += text[i];
    }
  }
  return out;
}

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

inline std::optional<LarkReference> lark_reference(const std::filesystem::path& grammar_file,
                                                   const GrammarModel& mine) {
  std::optional<std::string> python = python_with_lark();
  if (!python) return std::nullopt;
  const std::filesystem::path tsv = std::filesystem::temp_directory_path() /
                                    ("glrmask_terminals_" + std::to_string(::getpid()) + ".tsv");
  {
    std::ofstream out(tsv, std::ios::binary);
    for (const Terminal& t : mine.terminals()) {
      out << escape_field(t.name) << '\t' << escape_field(t.pattern) << '\t' << t.flags << '\n';
    }
  }
  const std::string script = (source_dir() / "tests" / "reference" / "lark_stats.py").string();
  CommandResult result = run_command(*python + " '" + script + "' '" + grammar_file.string() +
                                     "' --compare '" + tsv.string() + "'");
  std::filesystem::remove(tsv);
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  LarkReference reference;
  std::istringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> f = split_tabs(line);
    if (f[0] == "terminal" && f.size() == 6) {
      reference.terminals[f[1]] = {std::stoi(f[2]), f[3] == "str", f[4], unescape_field(f[5])};
    } else if (f[0] == "ignore" && f.size() == 2) {
      reference.ignored.insert(f[1]);
    } else if (f[0] == "rule" && f.size() == 4) {
      reference.rules[f[1]] = {std::stoi(f[2]), f[3]};
    } else if (f[0] == "mismatch" && f.size() == 3) {
      reference.mismatches.push_back(f[1] + "\t" + f[2]);
    }
  }
  return reference;
}

// Checks that glrmask read `grammar_file` as Lark does: the same terminals (names, priorities,
// literal or regex, flags, the same string for literals, a regex that agrees on every probe), the
// same ignored terminals and, unless `compare_rules` is false, the same user rules with the same
// number of BNF alternatives and the same aliases. Returns false when Lark is unavailable.
inline bool check_against_lark(const std::filesystem::path& grammar_file, const GrammarModel& mine,
                               bool compare_rules = true) {
  std::optional<LarkReference> reference = lark_reference(grammar_file, mine);
  if (!reference) return false;
  INFO("grammar " << grammar_file.string());

  std::set<std::string> my_names, their_names, my_ignored;
  for (const Terminal& t : mine.terminals()) {
    my_names.insert(t.name);
    if (t.ignored) my_ignored.insert(t.name);
  }
  for (const auto& [name, info] : reference->terminals) their_names.insert(name);
  CHECK(my_names == their_names);
  CHECK(my_ignored == reference->ignored);
  for (const Terminal& t : mine.terminals()) {
    auto it = reference->terminals.find(t.name);
    if (it == reference->terminals.end()) continue;
    INFO("terminal " << t.name);
    CHECK(t.priority == it->second.priority);
    CHECK(t.is_literal == it->second.is_string);
    if (t.is_literal) {
      CHECK(t.literal == it->second.value);
      CHECK(t.flags == it->second.flags);
    }
  }
  CHECK(reference->mismatches == std::vector<std::string>{});

  if (compare_rules) {
    std::map<std::string, std::pair<int, std::string>> my_rules;
    for (const Nonterminal& n : mine.nonterminals()) {
      if (n.generated) continue;
      const auto rules = mine.rules_of(mine.find_symbol(n.name).value());
      std::set<std::string> aliases;
      for (const Rule& rule : rules) {
        if (!rule.alias.empty()) aliases.insert(rule.alias);
      }
      std::string joined;
      for (const std::string& alias : aliases) joined += (joined.empty() ? "" : ",") + alias;
      my_rules[n.name] = {static_cast<int>(rules.size()), joined};
    }
    CHECK(my_rules == reference->rules);
  }
  return true;
}

}  // namespace glrmask::testing
