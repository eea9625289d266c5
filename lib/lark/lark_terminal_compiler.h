// Flattens Lark terminal definitions into one regular expression each.
//
// A terminal body may use strings, regexps, ranges, other terminals, groups, `?`, `*`, `+`, `[..]`
// and `~ n..m`, but no rules (a terminal is a regular language). Composition follows Lark:
//  - a single item keeps its own kind and flags ("if"i stays a case-insensitive literal);
//  - a sequence concatenates the parts, each part's flags becoming a scoped group "(?i:...)";
//  - alternatives become "(?:a|b)" and repetitions "(?:x)*", "(?:x){2,3}".
// One deliberate difference: a part whose regex has a top-level `|` is wrapped in (?:...) before
// concatenation. Lark pastes it as is, which changes what the pattern means (a|b c is not (a|b)c).
// Alternatives keep the order they are written in; Lark sorts them longest first, which only
// matters to a backtracking matcher, not to a longest-match DFA.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_syntax.h"

namespace glrmask::lark {

struct Pattern {
  std::string regex;  // Python `re` syntax
  std::string flags;  // sorted; apply to the whole regex
  bool is_literal = false;
  std::string literal;  // when is_literal: the string itself
  std::string token;    // a token terminal's spelling (regex empty): Terminal::token

  // The regex with its flags folded in as a scoped group, ready to be pasted into another regex.
  std::string to_regexp() const;
  // Equal for patterns Lark considers the same terminal (same kind, value and flags).
  std::string identity() const;
};

// Pattern of one string, regexp or range item.
Pattern leaf_pattern(const Expr& expr, const std::string& file);

// What the compiler needs to know about a terminal name.
struct TerminalSource {
  const std::vector<Alternative>* body = nullptr;  // nullptr: %declare'd, no pattern
  std::string file;
  SourceLocation origin;
};

class TerminalCompiler {
 public:
  // Bounds against hostile input: terminals referring to terminals this deep, and patterns this
  // large after flattening (A2: A1 A1, A3: A2 A2, ... doubles at each step).
  static constexpr std::size_t kMaxReferenceDepth = 200;
  static constexpr std::size_t kMaxPatternBytes = 1 << 20;

  // `lookup` returns nullptr for a name that is not a defined terminal.
  using Lookup = std::function<const TerminalSource*(const std::string& name)>;
  explicit TerminalCompiler(Lookup lookup) : lookup_(std::move(lookup)) {}

  // The pattern of a defined terminal, compiled once. `name` must be defined.
  const Pattern& pattern_of(const std::string& name);

  // The pattern of an anonymous body (such as a %ignore); `what` names it in messages.
  Pattern compile(const std::vector<Alternative>& body, const std::string& file,
                  const std::string& what);

 private:
  Pattern alternatives(const std::vector<Alternative>& body, const std::string& file,
                       const std::string& what);
  Pattern sequence(const Alternative& alternative, const std::string& file,
                   const std::string& what);
  Pattern item(const Expr& expr, const std::string& file, const std::string& what);

  Lookup lookup_;
  std::unordered_map<std::string, Pattern> done_;
  std::vector<std::string> in_progress_;  // the chain of references being resolved
};

}  // namespace glrmask::lark
