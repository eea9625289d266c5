#include "lib/gbnf/gbnf_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "lib/core/token_terminal.h"
#include "lib/core/unicode_utf8.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::gbnf {
namespace {

constexpr char32_t kMaxScalar = 0x10FFFF;
constexpr char32_t kSurrogateFirst = 0xD800;
constexpr char32_t kSurrogateLast = 0xDFFF;
// Far above any count a grammar needs ({0,5000} is llama.cpp's own test), low enough that the
// expansion budget of the lowering is what stops a blow-up, not an overflow.
constexpr std::uint32_t kMaxRepetitionCount = 1'000'000;

bool is_name_char(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

int hex_digit(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}

std::string shown(char32_t c) {
  if (c >= 0x20 && c < 0x7F) return fmt::format("'{}'", static_cast<char>(c));
  return fmt::format("U+{:04X}", static_cast<std::uint32_t>(c));
}

// Sorts and merges ranges, drops the surrogates (no UTF-8 text holds them) and, for a negated
// class, takes the complement within the scalar values.
std::vector<CodePointRange> normalize(std::vector<CodePointRange> ranges, bool negated) {
  std::ranges::sort(ranges, {}, &CodePointRange::first);
  std::vector<CodePointRange> merged;
  for (const CodePointRange& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().last + 1) {
      merged.back().last = std::max(merged.back().last, range.last);
    } else {
      merged.push_back(range);
    }
  }
  if (negated) {
    std::vector<CodePointRange> complement;
    char32_t next = 0;
    for (const CodePointRange& range : merged) {
      if (range.first > next) complement.push_back({next, range.first - 1});
      next = range.last + 1;
    }
    if (next <= kMaxScalar) complement.push_back({next, kMaxScalar});
    merged = std::move(complement);
  }
  std::vector<CodePointRange> out;
  for (const CodePointRange& range : merged) {
    if (range.last < kSurrogateFirst || range.first > kSurrogateLast) {
      out.push_back(range);
      continue;
    }
    if (range.first < kSurrogateFirst) out.push_back({range.first, kSurrogateFirst - 1});
    if (range.last > kSurrogateLast) out.push_back({kSurrogateLast + 1, range.last});
  }
  return out;
}

Node compound(NodeKind kind, std::vector<NodeId> children) {
  Node node;
  node.kind = kind;
  node.children = std::move(children);
  return node;
}

Node literal(std::u32string text) {
  Node node;
  node.kind = NodeKind::kLiteral;
  node.text = std::move(text);
  return node;
}

Node char_class(std::vector<CodePointRange> ranges) {
  Node node;
  node.kind = NodeKind::kCharClass;
  node.ranges = std::move(ranges);
  return node;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : text_(text) { grammar_.file = file; }

  Grammar parse() {
    skip_space(true);
    while (!at_end()) {
      parse_rule();
      skip_space(true);
    }
    resolve_references();
    return std::move(grammar_);
  }

 private:
  struct Place {
    std::size_t pos;
    std::uint32_t line;
    std::uint32_t column;
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char32_t peek() const {
    std::size_t pos = pos_;
    return at_end() ? 0 : decode_utf8(text_, pos);
  }
  char32_t peek_byte(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? static_cast<unsigned char>(text_[pos_ + ahead]) : 0;
  }
  char32_t get() {
    const char32_t c = decode_utf8(text_, pos_);
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  Place here() const { return {pos_, line_, column_}; }

  [[noreturn]] void fail(const Place& at, const std::string& message) const {
    throw GrammarError(SourceLocation{grammar_.file, at.line, at.column}, message);
  }
  [[noreturn]] void fail_here(const std::string& message) const { fail(here(), message); }

  // Spaces, tabs and comments; newlines too when `newline_ok` (after `::=` and `|`, inside
  // parentheses, between rules).
  void skip_space(bool newline_ok) {
    while (!at_end()) {
      const char32_t c = peek_byte();
      if (c == ' ' || c == '\t') {
        get();
      } else if (c == '#') {
        while (!at_end() && peek_byte() != '\n' && peek_byte() != '\r') get();
      } else if (newline_ok && (c == '\n' || c == '\r')) {
        get();
      } else {
        return;
      }
    }
  }

  NodeId add(Node node, const Place& at) {
    node.line = at.line;
    node.column = at.column;
    grammar_.nodes.push_back(std::move(node));
    return static_cast<NodeId>(grammar_.nodes.size() - 1);
  }

  std::string parse_name() {
    std::string name;
    while (!at_end() && is_name_char(peek_byte())) name += static_cast<char>(get());
    return name;
  }

  void parse_rule() {
    const Place at = here();
    const std::string name = parse_name();
    if (name.empty()) fail_here(fmt::format("expected a rule name, found {}", shown(peek())));
    skip_space(false);
    if (text_.substr(pos_, 3) != "::=") {
      fail_here(at_end() ? fmt::format("expected '::=' after the rule name '{}'", name)
                         : fmt::format("expected '::=' after the rule name '{}', found {}", name,
                                       shown(peek())));
    }
    get();
    get();
    get();
    skip_space(true);
    const NodeId body = parse_alternatives(false);
    skip_space(false);
    if (!at_end() && peek_byte() != '\n' && peek_byte() != '\r') {
      fail_here(fmt::format("expected the end of the line after rule '{}', found {}", name,
                            shown(peek())));
    }
    if (const auto [it, inserted] = defined_.emplace(name, grammar_.rules.size()); !inserted) {
      const Rule& first = grammar_.rules[it->second];
      fail(at, fmt::format("rule '{}' is defined twice (first at line {}, column {})", name,
                           first.line, first.column));
    }
    grammar_.rules.push_back(Rule{name, body, at.line, at.column});
  }

  NodeId parse_alternatives(bool nested) {
    const Place at = here();
    std::vector<NodeId> alternatives{parse_sequence(nested)};
    while (!at_end() && peek_byte() == '|') {
      get();
      skip_space(true);
      alternatives.push_back(parse_sequence(nested));
    }
    if (alternatives.size() == 1) return alternatives.front();
    return add(compound(NodeKind::kAlternation, std::move(alternatives)), at);
  }

  NodeId parse_sequence(bool nested) {
    const Place at = here();
    std::vector<NodeId> items;
    while (!at_end()) {
      const Place item_at = here();
      const char32_t c = peek_byte();
      if (c == '"') {
        items.push_back(parse_literal());
      } else if (c == '[') {
        items.push_back(parse_class());
      } else if (c == '.') {
        get();
        items.push_back(add(char_class(normalize({{0, kMaxScalar}}, false)), item_at));
      } else if (c == '(') {
        get();
        skip_space(true);
        const NodeId group = parse_alternatives(true);
        if (at_end() || peek_byte() != ')') {
          fail_here(at_end() ? fmt::format("the group opened at line {}, column {} is not closed",
                                           item_at.line, item_at.column)
                             : fmt::format("expected ')' to close the group opened at line {}, "
                                           "column {}, found {}",
                                           item_at.line, item_at.column, shown(peek())));
        }
        get();
        // The group is where its parenthesis opens, for messages about it.
        grammar_.nodes[group].line = item_at.line;
        grammar_.nodes[group].column = item_at.column;
        items.push_back(group);
      } else if (is_name_char(c)) {
        const std::string name = parse_name();
        references_.emplace_back(add(compound(NodeKind::kRuleRef, {}), item_at), name);
        items.push_back(references_.back().first);
      } else if (c == '*' || c == '+' || c == '?' || c == '{') {
        if (items.empty()) {
          fail_here(fmt::format("'{}' must follow an item to repeat", static_cast<char>(c)));
        }
        const Node& repeated = grammar_.nodes[items.back()];
        items.back() = parse_repetition(items.back(), Place{0, repeated.line, repeated.column});
      } else if (c == '<' || (c == '!' && peek_byte(1) == '<')) {
        items.push_back(parse_token(item_at));
      } else {
        break;
      }
      skip_space(nested);
    }
    if (items.size() == 1) return items.front();
    return add(compound(NodeKind::kSequence, std::move(items)), at);
  }

  // `<[id]>`, `<name>` (the token's text, brackets included), or either after `!`.
  NodeId parse_token(const Place& at) {
    Node node;
    node.kind = NodeKind::kToken;
    if (peek_byte() == '!') {
      node.token_negated = true;
      get();
    }
    const std::size_t begin = pos_;
    get();  // '<'
    while (!at_end() && peek_byte() != '>') {
      const char32_t c = peek_byte();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        fail_here("a token (<[id]> or <name>) cannot hold a blank; expected '>'");
      get();
    }
    if (at_end()) fail(at, "unterminated token: expected '>'");
    get();  // '>'
    node.token = std::string(text_.substr(begin, pos_ - begin));
    if (node.token == "<>") fail(at, "an empty token '<>'");
    if (node.token.starts_with("<[") && !token_spelling_id(node.token))
      fail(at, fmt::format("{} is not a token id: expected <[digits]> below 2^32", node.token));
    return add(std::move(node), at);
  }

  std::uint32_t parse_count() {
    const Place at = here();
    std::uint64_t value = 0;
    if (at_end() || peek_byte() < '0' || peek_byte() > '9')
      fail_here(at_end() ? std::string("expected a repetition count")
                         : fmt::format("expected a repetition count, found {}", shown(peek())));
    while (!at_end() && peek_byte() >= '0' && peek_byte() <= '9') {
      value = value * 10 + (get() - '0');
      if (value > kMaxRepetitionCount) {
        fail(at, fmt::format("repetition count above {}", kMaxRepetitionCount));
      }
    }
    return static_cast<std::uint32_t>(value);
  }

  NodeId parse_repetition(NodeId item, const Place& at) {
    Node node = compound(NodeKind::kRepetition, {item});
    const char32_t c = get();
    if (c == '*') {
      node.max_count = kUnbounded;
    } else if (c == '+') {
      node.min_count = 1;
      node.max_count = kUnbounded;
    } else if (c == '?') {
      node.max_count = 1;
    } else {
      skip_space(false);
      node.min_count = parse_count();
      skip_space(false);
      if (!at_end() && peek_byte() == '}') {
        node.max_count = node.min_count;
      } else {
        if (at_end() || peek_byte() != ',')
          fail_here(at_end() ? std::string("expected ',' or '}' in the repetition")
                             : fmt::format("expected ',' or '}}' in the repetition, found {}",
                                           shown(peek())));
        get();
        skip_space(false);
        node.max_count = kUnbounded;
        if (!at_end() && peek_byte() >= '0' && peek_byte() <= '9') {
          const Place max_at = here();
          node.max_count = parse_count();
          if (node.max_count < node.min_count) {
            fail(max_at, fmt::format("the repetition's maximum {} is below its minimum {}",
                                     node.max_count, node.min_count));
          }
        }
        skip_space(false);
      }
      if (at_end() || peek_byte() != '}')
        fail_here(at_end() ? std::string("expected '}' to close the repetition")
                           : fmt::format("expected '}}' to close the repetition, found {}",
                                         shown(peek())));
      get();
    }
    return add(std::move(node), at);
  }

  // One character of a literal or class, escapes decoded.
  char32_t parse_char() {
    const Place at = here();
    const char32_t c = get();
    if (c != '\\') return c;
    if (at_end()) fail(at, "the escape at the end of the text is incomplete");
    const char32_t kind = get();
    switch (kind) {
      case 'x':
        return parse_hex(at, 2);
      case 'u':
        return parse_hex(at, 4);
      case 'U':
        return parse_hex(at, 8);
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'n':
        return '\n';
      case '\\':
      case '"':
      case '[':
      case ']':
        return kind;
      default:
        fail(at, fmt::format("unknown escape '\\{}'",
                             kind < 0x80 ? std::string(1, static_cast<char>(kind)) : shown(kind)));
    }
  }

  char32_t parse_hex(const Place& at, int digits) {
    std::uint32_t value = 0;
    for (int i = 0; i < digits; ++i) {
      const int digit = at_end() ? -1 : hex_digit(peek_byte());
      if (digit < 0) fail(at, fmt::format("the escape needs {} hexadecimal digits", digits));
      get();
      value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    if (value > kMaxScalar) fail(at, fmt::format("escape U+{:X} is above U+10FFFF", value));
    if (value >= kSurrogateFirst && value <= kSurrogateLast)
      fail(at, fmt::format("escape U+{:04X} is a surrogate, which no UTF-8 text holds", value));
    return value;
  }

  NodeId parse_literal() {
    const Place at = here();
    get();  // "
    std::u32string text;
    while (true) {
      if (at_end() || peek_byte() == '\n' || peek_byte() == '\r')
        fail(at, "the string literal is not closed on its line");
      if (peek_byte() == '"') break;
      text += parse_char();
    }
    get();
    return add(literal(std::move(text)), at);
  }

  NodeId parse_class() {
    const Place at = here();
    get();  // [
    const bool negated = !at_end() && peek_byte() == '^';
    if (negated) get();
    std::vector<CodePointRange> ranges;
    while (true) {
      if (at_end()) fail(at, "the character class is not closed");
      if (peek_byte() == ']') break;
      const Place first_at = here();
      const char32_t first = parse_char();
      char32_t last = first;
      if (!at_end() && peek_byte() == '-' && peek_byte(1) != ']' && pos_ + 1 < text_.size()) {
        get();
        last = parse_char();
        if (last < first) {
          fail(first_at, fmt::format("the range {}-{} runs backwards", shown(first), shown(last)));
        }
      }
      ranges.push_back({first, last});
    }
    get();
    return add(char_class(normalize(std::move(ranges), negated)), at);
  }

  void resolve_references() {
    for (const auto& [node, name] : references_) {
      const auto it = defined_.find(name);
      const Node& reference = grammar_.nodes[node];
      if (it == defined_.end()) {
        fail(Place{0, reference.line, reference.column}, fmt::format("undefined rule '{}'", name));
      }
      grammar_.nodes[node].rule = static_cast<std::uint32_t>(it->second);
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
  Grammar grammar_;
  std::map<std::string, std::size_t, std::less<>> defined_;
  std::vector<std::pair<NodeId, std::string>> references_;
};

}  // namespace

Grammar parse_gbnf(std::string_view text, const std::string& file) {
  if (const auto bad = find_invalid_utf8(text)) {
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t pos = 0; pos < *bad;) {
      if (text[pos] == '\n') {
        ++line;
        column = 1;
        ++pos;
      } else {
        ++column;
        pos += utf8_sequence_length(static_cast<unsigned char>(text[pos]));
      }
    }
    throw GrammarError(SourceLocation{file, line, column},
                       fmt::format("invalid UTF-8 at byte offset {}", *bad));
  }
  return Parser(text, file).parse();
}

}  // namespace glrmask::gbnf
