// The terminals of a Lark grammar under construction: the named ones in definition order, then
// the anonymous ones (literals and regexps written inside rules) as they are met.
//
// An anonymous literal or regexp reuses a terminal with an identical pattern (same kind, value and
// flags; the last definition wins, as in Lark), so `"("` in a rule becomes LPAR, or OPEN_PAREN if
// the grammar defines OPEN_PAREN: "(". Otherwise it gets Lark's name: see lark_terminal_names.h,
// and __ANON_n when that name is empty or already taken.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_terminal_compiler.h"

namespace glrmask::lark {

struct TerminalEntry {
  std::string name;
  Pattern pattern;
  int priority = 0;
  bool anonymous = false;
  SourceLocation origin;
};

class TerminalTable {
 public:
  // Names that anonymous terminals must not take (every terminal name of the grammar, including
  // %declare'd ones and those only used inside other terminals).
  void reserve_name(const std::string& name) { names_.insert(name); }

  void add_named(std::string name, Pattern pattern, int priority, SourceLocation origin);

  // The name of the terminal for an anonymous pattern, created on first use.
  std::string intern_anonymous(const Pattern& pattern, const SourceLocation& origin);

  const std::vector<TerminalEntry>& entries() const { return entries_; }

 private:
  std::vector<TerminalEntry> entries_;
  std::unordered_set<std::string> names_;
  std::unordered_map<std::string, std::size_t> by_identity_;  // Pattern::identity() -> entry
  int next_anonymous_ = 0;
};

}  // namespace glrmask::lark
