// A JSON Schema `pattern` (ECMA-262 syntax, over the decoded string) read into a tree over code
// points: the one parse behind both uses of a pattern, its translation into a regex over the JSON
// spelling (pattern.h) and its evaluation on concrete strings (ecma_regex.h). The semantic notes
// of pattern.h hold for the tree: \d \w \s are ASCII classes, '.' excludes \n \r U+2028 U+2029,
// lazy quantifiers are read as greedy ones (the same strings), and ^ and $ are accepted only at
// the ends of a top-level alternative, where they become the flags of PatternAlternative.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/core/error.h"
#include "lib/json_schema/regex.h"

namespace glrmask::json_schema {

struct PatternNode {
  enum class Kind {
    kEmpty,        // matches the empty string
    kSet,          // one character from `set` (a literal, a class, an escape or '.')
    kConcat,       // `children` one after the other (at least two)
    kAlternation,  // one of `children` (at least two)
    kGroup,        // a parenthesised `children[0]`: matches as it does; kept because the
                   // translation writes the parenthesis
    kRepeat,       // `children[0]` between `min` and `max` times (max nullopt = unbounded)
  };
  Kind kind = Kind::kEmpty;
  CodePointSet set;
  std::vector<PatternNode> children;
  std::size_t min = 1;
  std::optional<std::size_t> max = 1;
};

// One top-level alternative: `^`? body `$`?.
struct PatternAlternative {
  bool anchored_start = false;
  PatternNode body;
  bool anchored_end = false;
};

// The whole pattern: its top-level alternatives, in order (at least one).
struct PatternAst {
  std::vector<PatternAlternative> alternatives;
};

// The valid ECMA-262 constructs the tree cannot hold (they are refused, with PatternError).
enum class PatternFeature {
  kNone,           // not one of these: a malformed pattern, or one this compiler does not know
  kLookaround,     // (?= (?! (?<= (?<!
  kBackreference,  // \1 ... \9
  kWordBoundary,   // \b \B outside a class
  kInnerAnchor,    // ^ or $ other than at the ends of a top-level alternative
};

// A pattern the parser refuses: the message is "<where>: pattern column N: <reason>" (N counts
// code points from 1), the code kSchema. feature() tells a construct ECMA-262 has that the tree
// cannot hold from a malformed pattern, so ecma_search can evaluate the former another way.
class PatternError : public Error {
 public:
  PatternError(const std::string& message, ErrorLocation where, PatternFeature feature,
               std::size_t column)
      : Error(message, ErrorCode::kSchema, std::move(where)), feature_(feature), column_(column) {}
  PatternFeature feature() const { return feature_; }
  std::size_t column() const { return column_; }

 private:
  PatternFeature feature_;
  std::size_t column_;
};

// Throws PatternError naming `where` when the pattern cannot be read.
PatternAst parse_pattern(std::string_view pattern, const std::string& where);

}  // namespace glrmask::json_schema
