#include "lib/lark/lark_lexer.h"

#include <fmt/format.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>

namespace glrmask::lark {
namespace {

bool is_name_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

constexpr std::array<std::string_view, 5> kDirectives = {"%ignore", "%import", "%declare",
                                                         "%override", "%extend"};
constexpr std::string_view kRegexpFlags = "imslux";

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file), lines_(text) {}

  std::vector<Lexeme> run() {
    check_utf8();
    while (at_ < text_.size()) step();
    if (lexemes_.empty() || lexemes_.back().kind != LexemeKind::kNewline) {
      push(LexemeKind::kNewline, text_.size(), text_.size());
    }
    push(LexemeKind::kEnd, text_.size(), text_.size());
    return std::move(lexemes_);
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    TextPos pos = lines_.position(offset);
    throw GrammarError(SourceLocation{file_, pos.line, pos.column}, message);
  }

  void check_utf8() const {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text_.data());
    const auto length = static_cast<std::int32_t>(text_.size());
    std::int32_t i = 0;
    while (i < length) {
      std::int32_t start = i;
      UChar32 c = 0;
      U8_NEXT(bytes, i, length, c);
      if (c < 0) fail(static_cast<std::size_t>(start), "invalid UTF-8 in grammar text");
    }
  }

  void push(LexemeKind kind, std::size_t begin, std::size_t end) {
    lexemes_.push_back(Lexeme{kind, text_.substr(begin, end - begin), lines_.position(begin)});
  }

  char peek(std::size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }

  bool at_line_break(std::size_t i) const {
    return i < text_.size() &&
           (text_[i] == '\n' || (text_[i] == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n'));
  }

  bool at_comment(std::size_t i) const {
    return i + 1 < text_.size() && text_[i] == '/' && text_[i + 1] == '/';
  }

  std::size_t skip_comment(std::size_t i) const {
    while (i < text_.size() && text_[i] != '\n') ++i;
    return i;
  }

  void step() {
    const char c = peek();
    if (at_line_break(at_)) return line_break();
    if (is_blank(c)) {
      ++at_;
      return;
    }
    if (at_comment(at_)) {
      at_ = skip_comment(at_);
      return;
    }
    if (c == '\\') return line_continuation();
    if (is_name_start(c)) return name();
    if (is_digit(c) || ((c == '+' || c == '-') && is_digit(peek(1)))) return number();
    if (c == '"') return string();
    if (c == '/') return regexp();
    if (c == '<') return token();
    if (c == '%') return directive();
    if (c == '-' && peek(1) == '>') return single(LexemeKind::kArrow, 2);
    if (c == '.' && peek(1) == '.') return single(LexemeKind::kDotDot, 2);
    switch (c) {
      case ':':
        return single(LexemeKind::kColon, 1);
      case '|':
        return single(LexemeKind::kOr, 1);
      case '(':
        return single(LexemeKind::kLParen, 1);
      case ')':
        return single(LexemeKind::kRParen, 1);
      case '[':
        return single(LexemeKind::kLBracket, 1);
      case ']':
        return single(LexemeKind::kRBracket, 1);
      case '{':
        return single(LexemeKind::kLBrace, 1);
      case '}':
        return single(LexemeKind::kRBrace, 1);
      case ',':
        return single(LexemeKind::kComma, 1);
      case '.':
        return single(LexemeKind::kDot, 1);
      case '~':
        return single(LexemeKind::kTilde, 1);
      case '?':
        return single(LexemeKind::kQuestion, 1);
      case '*':
        return single(LexemeKind::kStar, 1);
      case '+':
        return single(LexemeKind::kPlus, 1);
      case '!':
        return single(LexemeKind::kBang, 1);
      default:
        break;
    }
    std::size_t end = at_ + 1;
    while (end < text_.size() && (static_cast<std::uint8_t>(text_[end]) & 0xC0) == 0x80) ++end;
    fail(at_, fmt::format("unexpected character '{}'", text_.substr(at_, end - at_)));
  }

  void single(LexemeKind kind, std::size_t length) {
    push(kind, at_, at_ + length);
    at_ += length;
  }

  // A break ends the statement unless the next significant line starts with `|`.
  void line_break() {
    const std::size_t first_break = at_;
    std::size_t i = at_;
    while (i < text_.size()) {
      if (at_line_break(i) || is_blank(text_[i])) {
        ++i;
      } else if (at_comment(i)) {
        i = skip_comment(i);
      } else {
        break;
      }
    }
    if (i < text_.size() && text_[i] == '|') {
      push(LexemeKind::kOr, i, i + 1);
      at_ = i + 1;
    } else {
      push(LexemeKind::kNewline, first_break, first_break + 1);
      at_ = i;
    }
  }

  void line_continuation() {
    std::size_t i = at_ + 1;
    while (i < text_.size() && text_[i] == ' ') ++i;
    if (!at_line_break(i)) fail(at_, "unexpected '\\' (only allowed at the end of a line)");
    at_ = i + (text_[i] == '\r' ? 2 : 1);
  }

  void name() {
    std::size_t end = at_;
    while (end < text_.size() && is_name_char(text_[end])) ++end;
    std::string_view name = text_.substr(at_, end - at_);
    if (name.starts_with("__")) {
      fail(at_, fmt::format("'{}': names starting with '__' are reserved", name));
    }
    std::string_view body = name.starts_with('_') ? name.substr(1) : name;
    auto all_of = [&](auto predicate) { return std::all_of(body.begin(), body.end(), predicate); };
    bool rule = !body.empty() && body[0] >= 'a' && body[0] <= 'z' &&
                all_of([](char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'; });
    bool terminal = !body.empty() && body[0] >= 'A' && body[0] <= 'Z' && all_of([](char c) {
      return (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
    });
    if (!rule && !terminal) {
      fail(at_, fmt::format("'{}' is not a valid name: rule names are lowercase "
                            "(_?[a-z][_a-z0-9]*), terminal names uppercase (_?[A-Z][_A-Z0-9]*)",
                            name));
    }
    push(rule ? LexemeKind::kRuleName : LexemeKind::kTerminalName, at_, end);
    at_ = end;
  }

  void number() {
    std::size_t end = at_ + 1;
    while (end < text_.size() && is_digit(text_[end])) ++end;
    push(LexemeKind::kNumber, at_, end);
    at_ = end;
  }

  void string() {
    std::size_t i = at_ + 1;
    while (true) {
      if (i >= text_.size() || at_line_break(i)) {
        fail(at_, "unterminated string literal (strings cannot span lines)");
      }
      if (text_[i] == '\\' && i + 1 < text_.size() &&
          (text_[i + 1] == '"' || text_[i + 1] == '\\')) {
        i += 2;
      } else if (text_[i] == '"') {
        break;
      } else {
        ++i;
      }
    }
    ++i;  // closing quote
    if (i < text_.size() && text_[i] == 'i') ++i;
    push(LexemeKind::kString, at_, i);
    at_ = i;
  }

  // `<` up to the next `>` on the line, with no blank inside: `<[151657]>`, `<|im_end|>`.
  void token() {
    std::size_t i = at_ + 1;
    while (i < text_.size() && text_[i] != '>') {
      const char c = text_[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        fail(at_, "a token (<[id]> or <name>) cannot hold a blank; expected '>'");
      ++i;
    }
    if (i >= text_.size()) fail(at_, "unterminated token: expected '>'");
    if (i == at_ + 1) fail(at_, "an empty token '<>'");
    push(LexemeKind::kToken, at_, i + 1);
    at_ = i + 1;
  }

  void regexp() {
    std::size_t i = at_ + 1;
    bool spans_lines = false;
    while (true) {
      if (i >= text_.size()) fail(at_, "unterminated regular expression");
      if (text_[i] == '\\' && i + 1 < text_.size() &&
          (text_[i + 1] == '/' || text_[i + 1] == '\\')) {
        i += 2;
      } else if (text_[i] == '/') {
        break;
      } else {
        spans_lines = spans_lines || text_[i] == '\n';
        ++i;
      }
    }
    ++i;  // closing slash
    std::size_t flags_begin = i;
    while (i < text_.size() && kRegexpFlags.find(text_[i]) != std::string_view::npos) ++i;
    if (spans_lines && text_.substr(flags_begin, i - flags_begin).find('x') == std::string::npos) {
      fail(at_, "unterminated regular expression (a regexp may span lines only with the x flag)");
    }
    push(LexemeKind::kRegexp, at_, i);
    at_ = i;
  }

  void directive() {
    std::size_t end = at_ + 1;
    while (end < text_.size() && is_name_char(text_[end])) ++end;
    std::string_view word = text_.substr(at_, end - at_);
    if (std::find(kDirectives.begin(), kDirectives.end(), word) == kDirectives.end()) {
      fail(at_, fmt::format("unknown directive '{}' (expected %ignore, %import, %declare, "
                            "%override or %extend)",
                            word));
    }
    push(LexemeKind::kDirective, at_, end);
    at_ = end;
  }

  std::string_view text_;
  const std::string& file_;
  LineIndex lines_;
  std::size_t at_ = 0;
  std::vector<Lexeme> lexemes_;
};

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts_.push_back(i + 1);
  }
}

TextPos LineIndex::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
  const std::size_t line_start = line_starts_[line - 1];
  const bool continues = last_.line == line && last_offset_ <= offset;
  std::size_t from = continues ? last_offset_ : line_start;
  std::uint32_t column = continues ? last_.column : 1;
  for (std::size_t i = from; i < offset; ++i) {
    if ((static_cast<std::uint8_t>(text_[i]) & 0xC0) != 0x80) ++column;
  }
  last_offset_ = offset;
  last_ = TextPos{static_cast<std::uint32_t>(line), column};
  return last_;
}

std::string describe(const Lexeme& lexeme) {
  switch (lexeme.kind) {
    case LexemeKind::kNewline:
      return "end of line";
    case LexemeKind::kEnd:
      return "end of file";
    default:
      return fmt::format("'{}'", lexeme.text);
  }
}

std::vector<Lexeme> lex_lark(std::string_view text, const std::string& file) {
  return Lexer(text, file).run();
}

}  // namespace glrmask::lark
