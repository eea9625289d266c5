#include "lib/json_schema/pattern_ast.h"

#include <fmt/format.h>

#include <initializer_list>
#include <utility>

#include "lib/core/unicode_utf8.h"
#include "lib/json_schema/document.h"
#include "lib/json_schema/unicode_properties.h"

namespace glrmask::json_schema {
namespace {

CodePointSet range_set(std::initializer_list<std::pair<char32_t, char32_t>> ranges) {
  CodePointSet set;
  for (auto [a, b] : ranges) set.add(a, b);
  return set;
}

CodePointSet digit_set() {
  return range_set({{'0', '9'}});
}
CodePointSet word_set() {
  return range_set({{'0', '9'}, {'A', 'Z'}, {'a', 'z'}, {'_', '_'}});
}
CodePointSet space_set() {
  return range_set({{'\t', '\r'},
                    {' ', ' '},
                    {0xA0, 0xA0},
                    {0x1680, 0x1680},
                    {0x2000, 0x200A},
                    {0x2028, 0x2029},
                    {0x202F, 0x202F},
                    {0x205F, 0x205F},
                    {0x3000, 0x3000},
                    {0xFEFF, 0xFEFF}});
}
CodePointSet dot_set() {
  return range_set({{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}).complement();
}

PatternNode set_node(CodePointSet set) {
  PatternNode node;
  node.kind = PatternNode::Kind::kSet;
  node.set = std::move(set);
  return node;
}

// A sequence or a list of alternatives: nothing is the empty pattern, one item stands for itself.
PatternNode list_node(PatternNode::Kind kind, std::vector<PatternNode> items) {
  if (items.empty()) return PatternNode{};
  if (items.size() == 1) return std::move(items.front());
  PatternNode node;
  node.kind = kind;
  node.children = std::move(items);
  return node;
}

class PatternParser {
 public:
  PatternParser(std::string_view pattern, const std::string& where) : where_(where) {
    for (std::size_t pos = 0; pos < pattern.size();) text_.push_back(decode_utf8(pattern, pos));
  }

  PatternAst parse() {
    PatternAst ast;
    while (true) {
      PatternAlternative alternative;
      if (peek() == U'^') {
        ++pos_;
        alternative.anchored_start = true;
      }
      alternative.body = sequence(0);
      if (peek() == U'$') {
        ++pos_;
        alternative.anchored_end = true;
      }
      ast.alternatives.push_back(std::move(alternative));
      if (at_end()) break;
      if (peek() == U'|') {
        ++pos_;
        continue;
      }
      if (peek() == U')') fail("unbalanced parenthesis");
      fail(fmt::format("anchor {} is supported only at the start or end of the pattern",
                       peek() == U'^' ? "^" : "$"),
           PatternFeature::kInnerAnchor);
    }
    return ast;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char32_t peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : char32_t{0xFFFFFFFF};
  }

  [[noreturn]] void fail(const std::string& message,
                         PatternFeature feature = PatternFeature::kNone) const {
    throw PatternError(fmt::format("{}: pattern column {}: {}", where_, pos_ + 1, message),
                       schema_location(where_), feature, pos_ + 1);
  }

  // Alternatives inside a group.
  PatternNode alternation(int depth) {
    std::vector<PatternNode> alternatives;
    alternatives.push_back(sequence(depth));
    while (peek() == U'|') {
      ++pos_;
      alternatives.push_back(sequence(depth));
    }
    return list_node(PatternNode::Kind::kAlternation, std::move(alternatives));
  }

  PatternNode sequence(int depth) {
    std::vector<PatternNode> items;
    while (!at_end()) {
      const char32_t c = peek();
      if (c == U'|' || c == U')') break;
      if (c == U'$' && depth == 0 && pos_ + 1 == text_.size()) break;
      if (c == U'$' && depth == 0 && peek(1) == U'|') break;
      if (c == U'^' || c == U'$')
        fail(fmt::format("anchor {} is supported only at the start or end of the pattern",
                         c == U'^' ? "^" : "$"),
             PatternFeature::kInnerAnchor);
      PatternNode item = atom(depth);
      items.push_back(quantified(std::move(item)));
    }
    return list_node(PatternNode::Kind::kConcat, std::move(items));
  }

  std::optional<std::size_t> number() {
    std::size_t start = pos_;
    std::size_t value = 0;
    while (peek() >= U'0' && peek() <= U'9') {
      value = value * 10 + (peek() - U'0');
      if (value > 100000) fail("repetition count too large");
      ++pos_;
    }
    if (pos_ == start) return std::nullopt;
    return value;
  }

  PatternNode quantified(PatternNode item) {
    std::size_t min = 1;
    std::optional<std::size_t> max = 1;
    const char32_t c = peek();
    if (c == U'*') {
      min = 0;
      max.reset();
      ++pos_;
    } else if (c == U'+') {
      max.reset();
      ++pos_;
    } else if (c == U'?') {
      min = 0;
      ++pos_;
    } else if (c == U'{') {
      const std::size_t saved = pos_;
      ++pos_;
      const std::optional<std::size_t> lo = number();
      std::optional<std::size_t> hi = lo;
      bool valid = lo.has_value();
      if (valid && peek() == U',') {
        ++pos_;
        hi = number();
      }
      if (valid && peek() == U'}') {
        ++pos_;
        min = *lo;
        max = hi;
        if (max && *max < min) fail("numbers out of order in {} quantifier");
      } else {
        pos_ = saved;  // a literal '{' (ECMA-262 Annex B)
        return item;
      }
    } else {
      return item;
    }
    if (peek() == U'?') ++pos_;  // lazy: the same strings
    if (peek() == U'*' || peek() == U'+' || peek() == U'?') fail("multiple repeat");
    if (min == 1 && max == 1) return item;
    PatternNode node;
    node.kind = PatternNode::Kind::kRepeat;
    node.children.push_back(std::move(item));
    node.min = min;
    node.max = max;
    return node;
  }

  PatternNode atom(int depth) {
    const char32_t c = peek();
    if (c == U'(') {
      const std::size_t open = pos_;
      ++pos_;
      if (peek() == U'?') {
        if (peek(1) == U':') {
          pos_ += 2;
        } else if (peek(1) == U'<' && peek(2) != U'=' && peek(2) != U'!') {
          pos_ += 2;
          while (!at_end() && peek() != U'>') ++pos_;
          if (at_end()) fail("unterminated group name");
          ++pos_;
        } else {
          // (?= (?! (?<= (?<! are ECMA-262 lookarounds; anything else after (? is malformed.
          const bool lookaround = peek(1) == U'=' || peek(1) == U'!' ||
                                  (peek(1) == U'<' && (peek(2) == U'=' || peek(2) == U'!'));
          pos_ = open;
          fail("lookaround and other (? groups are not supported",
               lookaround ? PatternFeature::kLookaround : PatternFeature::kNone);
        }
      }
      PatternNode node;
      node.kind = PatternNode::Kind::kGroup;
      node.children.push_back(alternation(depth + 1));
      if (peek() != U')') fail("missing ), unterminated subpattern");
      ++pos_;
      return node;
    }
    if (c == U'[') return set_node(char_class());
    if (c == U'.') {
      ++pos_;
      return set_node(dot_set());
    }
    if (c == U'*' || c == U'+' || c == U'?') fail("nothing to repeat");
    if (c == U'\\') {
      ++pos_;
      return set_node(escape(false));
    }
    ++pos_;
    return set_node(range_set({{c, c}}));
  }

  char32_t hex_digits(std::size_t count) {
    char32_t value = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const char32_t d = peek();
      int digit = -1;
      if (d >= U'0' && d <= U'9') digit = static_cast<int>(d - U'0');
      if (d >= U'a' && d <= U'f') digit = static_cast<int>(d - U'a' + 10);
      if (d >= U'A' && d <= U'F') digit = static_cast<int>(d - U'A' + 10);
      if (digit < 0) fail("bad hexadecimal escape");
      value = value * 16 + static_cast<char32_t>(digit);
      ++pos_;
    }
    return value;
  }

  // After a backslash. In a class, \b is backspace.
  CodePointSet escape(bool in_class) {
    if (at_end()) fail("bad escape (end of pattern)");
    const std::size_t backslash = pos_ - 1;
    const char32_t c = peek();
    ++pos_;
    auto single = [](char32_t x) { return range_set({{x, x}}); };
    switch (c) {
      case U'd':
        return digit_set();
      case U'D':
        return digit_set().complement();
      case U'w':
        return word_set();
      case U'W':
        return word_set().complement();
      case U's':
        return space_set();
      case U'S':
        return space_set().complement();
      case U'n':
        return single('\n');
      case U't':
        return single('\t');
      case U'r':
        return single('\r');
      case U'f':
        return single('\f');
      case U'v':
        return single('\v');
      case U'0':
        return single(0);
      case U'x':
        return single(hex_digits(2));
      case U'u': {
        const char32_t value = hex_digits(4);
        if (value >= 0xD800 && value <= 0xDFFF) fail("surrogate escapes are not supported");
        return single(value);
      }
      case U'p':
      case U'P': {
        // A Unicode property class (unicode_properties.h): \p{Letter}, \P{Nd}, ...
        if (peek() != U'{') {
          pos_ = backslash;
          fail("\\p and \\P need a property name in braces");
        }
        std::string name;
        for (++pos_; !at_end() && peek() != U'}'; ++pos_) append_utf8(name, peek());
        if (at_end()) fail("unterminated property name");
        ++pos_;
        const std::optional<CodePointSet> set = unicode_property(name);
        if (!set) {
          pos_ = backslash;
          fail(
              fmt::format("unknown Unicode property \\p{{{}}} (general categories, their "
                          "groups, Any, ASCII and Assigned are known)",
                          name));
        }
        return c == U'p' ? *set : set->complement();
      }
      case U'c': {
        // A control letter: \cC is U+0003 (ECMA-262 ControlEscape).
        const char32_t letter = peek();
        if (!((letter >= U'a' && letter <= U'z') || (letter >= U'A' && letter <= U'Z'))) {
          pos_ = backslash;
          fail("\\c needs a letter");
        }
        ++pos_;
        return single(letter % 32);
      }
      case U'b':
        if (in_class) return single('\b');
        pos_ = backslash;
        fail("word boundary \\b is not supported", PatternFeature::kWordBoundary);
      case U'B':
        pos_ = backslash;
        fail("word boundary \\B is not supported", PatternFeature::kWordBoundary);
      default:
        break;
    }
    if (c >= U'1' && c <= U'9') {
      pos_ = backslash;
      fail("backreferences are not supported", PatternFeature::kBackreference);
    }
    if ((c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z')) {
      pos_ = backslash;
      fail(fmt::format("bad escape \\{}", static_cast<char>(c)));
    }
    return single(c);  // escaped punctuation or any other character stands for itself
  }

  CodePointSet char_class() {
    ++pos_;  // '['
    bool negated = false;
    if (peek() == U'^') {
      negated = true;
      ++pos_;
    }
    CodePointSet set;
    bool first = true;
    while (true) {
      if (at_end()) fail("unterminated character set");
      if (peek() == U']' && !first) break;
      if (peek() == U']' && first) {
        // ECMA-262: [] matches nothing, [^] matches anything.
        break;
      }
      first = false;
      std::optional<char32_t> low;
      CodePointSet item = class_atom(low);
      if (low && peek() == U'-' && peek(1) != U']' && peek(1) != 0xFFFFFFFF) {
        ++pos_;
        std::optional<char32_t> high;
        CodePointSet upper = class_atom(high);
        if (!high) fail("bad character range");
        if (*high < *low) fail("bad character range");
        set.add(*low, *high);
        (void)upper;
        continue;
      }
      set.add(item);
    }
    ++pos_;  // ']'
    if (negated) set = set.complement();
    if (set.empty()) fail("character class matches nothing");
    return set;
  }

  // One class member; `single` is set when it is one character (so it may start a range).
  CodePointSet class_atom(std::optional<char32_t>& single) {
    const char32_t c = peek();
    if (c == U'\\') {
      ++pos_;
      const char32_t kind = peek();
      CodePointSet set = escape(true);
      // An empty set (\P{Any}) has no first character, so it starts no range.
      if (kind != U'd' && kind != U'D' && kind != U'w' && kind != U'W' && kind != U's' &&
          kind != U'S' && !set.empty())
        single = set.ranges().front().first;
      return set;
    }
    ++pos_;
    single = c;
    return range_set({{c, c}});
  }

  const std::string& where_;
  std::vector<char32_t> text_;
  std::size_t pos_ = 0;
};

}  // namespace

PatternAst parse_pattern(std::string_view pattern, const std::string& where) {
  return PatternParser(pattern, where).parse();
}

}  // namespace glrmask::json_schema
