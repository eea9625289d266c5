#include "lexer/regex/regex_parser.h"

#include <fmt/format.h>
#include <unicode/uchar.h>
#include <unicode/uniset.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "lexer/regex/utf8_sequences.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"

namespace glrmask::lexer {
namespace {

// Counted repetitions are expanded into copies; this bound keeps `x{100000}` from exhausting
// memory before the NFA-size check can name the culprit.
constexpr uint32_t kMaxRepeatCount = 1000;
constexpr int kMaxGroupDepth = 200;

struct Flags {
  bool ignore_case = false;
  bool dot_all = false;
  bool verbose = false;
  bool ascii = false;
};

bool is_ascii_letter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char32_t c) {
  return c >= '0' && c <= '9';
}
bool is_octal_digit(char32_t c) {
  return c >= '0' && c <= '7';
}
int hex_value(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}
// Python's `_parser.WHITESPACE`, skipped in verbose mode.
bool is_verbose_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string to_utf8(std::u32string_view text) {
  std::string out;
  for (char32_t c : text) {
    uint8_t buffer[4];
    int32_t length = 0;
    UBool error = false;
    U8_APPEND(buffer, length, 4, static_cast<UChar32>(c), error);
    if (!error) out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(length));
  }
  return out;
}

icu::UnicodeSet icu_set(const char* pattern) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeSet set(icu::UnicodeString(pattern, -1, US_INV), status);
  if (U_FAILURE(status)) {
    throw Error(
        fmt::format("internal error: ICU rejected the set {}: {}", pattern, u_errorName(status)),
        ErrorCode::kInternal);
  }
  set.freeze();
  return set;
}

// Python's str-pattern classes. \w is str.isalnum() plus '_': letters (L*) and every character
// with a numeric value; \d is str.isdecimal(); \s is str.isspace(): bidi classes WS, B, S and Zs.
const icu::UnicodeSet& unicode_word() {
  static const icu::UnicodeSet set = icu_set(
      "[\\p{L}\\p{Numeric_Type=Decimal}\\p{Numeric_Type=Digit}"
      "\\p{Numeric_Type=Numeric}_]");
  return set;
}
const icu::UnicodeSet& unicode_digit() {
  static const icu::UnicodeSet set = icu_set("[\\p{Numeric_Type=Decimal}]");
  return set;
}
const icu::UnicodeSet& unicode_space() {
  static const icu::UnicodeSet set =
      icu_set("[\\p{General_Category=Zs}\\p{Bidi_Class=WS}\\p{Bidi_Class=B}\\p{Bidi_Class=S}]");
  return set;
}

// The set behind \d \D \s \S \w \W under the current flags.
icu::UnicodeSet category_set(char32_t letter, const Flags& flags) {
  icu::UnicodeSet set;
  switch (letter) {
    case 'd':
    case 'D':
      if (flags.ascii) {
        set.add('0', '9');
      } else {
        set.addAll(unicode_digit());
      }
      break;
    case 's':
    case 'S':
      if (flags.ascii) {
        for (char c : std::string_view(" \t\n\r\f\v")) set.add(static_cast<UChar32>(c));
      } else {
        set.addAll(unicode_space());
      }
      break;
    default:  // w, W
      if (flags.ascii) {
        set.add('a', 'z').add('A', 'Z').add('0', '9').add('_');
      } else {
        set.addAll(unicode_word());
      }
      break;
  }
  if (letter == 'D' || letter == 'S' || letter == 'W') set.complement(0, kMaxCodePoint);
  return set;
}

// Pairs (a, b), both directions, where b is the simple lowercase or uppercase mapping of a but
// case folding keeps them apart. Computed once from ICU's data.
const std::vector<std::pair<UChar32, UChar32>>& simple_mapping_pairs_missing_from_folding() {
  static const std::vector<std::pair<UChar32, UChar32>> pairs = [] {
    std::vector<std::pair<UChar32, UChar32>> found;
    for (UChar32 c = 0; c <= static_cast<UChar32>(kMaxCodePoint); ++c) {
      for (UChar32 mapped : {u_tolower(c), u_toupper(c)}) {
        if (mapped != c &&
            u_foldCase(c, U_FOLD_CASE_DEFAULT) != u_foldCase(mapped, U_FOLD_CASE_DEFAULT)) {
          found.emplace_back(c, mapped);
          found.emplace_back(mapped, c);
        }
      }
    }
    return found;
  }();
  return pairs;
}

// Adds every case variant of the set's members (simple case closure). Python's IGNORECASE
// matches a character when its lowercase form matches; that is the same equivalence for the
// single code points a str pattern can hold. Under the ASCII flag only ASCII letters fold.
void close_over_case(icu::UnicodeSet& set, const Flags& flags) {
  if (flags.ascii) {
    icu::UnicodeSet letters(set);
    letters.retainAll(icu::UnicodeSet('a', 'z').add('A', 'Z'));
    for (int32_t r = 0; r < letters.getRangeCount(); ++r) {
      for (UChar32 c = letters.getRangeStart(r); c <= letters.getRangeEnd(r); ++c) {
        set.add(c ^ 0x20);  // ASCII upper and lower case differ in bit 5 only
      }
    }
    return;
  }
  set.closeOver(USET_CASE_INSENSITIVE);
  set.removeAllStrings();  // multi-character foldings ("ß" -> "ss") have no code-point form
  // Python also equates characters with the same simple lowercase or uppercase mapping where case
  // folding does not (İ ~ i, ı ~ I). Those pairs are few; add them and close again.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [a, b] : simple_mapping_pairs_missing_from_folding()) {
      if (set.contains(a) && !set.contains(b)) {
        set.add(b);
        grew = true;
      }
    }
    if (grew) {
      set.closeOver(USET_CASE_INSENSITIVE);
      set.removeAllStrings();
    }
  }
}

class RegexParser {
 public:
  RegexParser(std::string_view pattern, std::string_view flags, std::string_view origin)
      : pattern_(pattern), origin_(origin) {
    decode(pattern);
    for (size_t i = 0; i < flags.size(); ++i) {
      if (!apply_flag(static_cast<unsigned char>(flags[i]), global_flags_)) {
        throw Error(fmt::format("{}: unknown regex flag '{}' in flags \"{}\" (expected i, m, s, x)",
                                origin_, flags[i], flags),
                    ErrorCode::kGrammar, parse_source_location(origin_));
      }
    }
  }

  Regex parse() {
    Flags flags = global_flags_;
    parse_leading_global_flags(flags);
    regex_.root = parse_alternation(flags, /*depth=*/0);
    if (!at_end()) fail(pos_, "unbalanced parenthesis");
    return std::move(regex_);
  }

 private:
  // ---- input -------------------------------------------------------------------------------
  void decode(std::string_view pattern) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(pattern.data());
    const auto length = static_cast<int32_t>(pattern.size());
    int32_t offset = 0;
    while (offset < length) {
      const int32_t start = offset;
      UChar32 c = 0;
      U8_NEXT(bytes, offset, length, c);
      if (c < 0) {
        throw Error(
            fmt::format("{}: regex byte offset {}: invalid UTF-8 in the pattern", origin_, start),
            ErrorCode::kGrammar, parse_source_location(origin_));
      }
      text_.push_back(static_cast<char32_t>(c));
    }
  }

  bool at_end() const { return pos_ >= text_.size(); }
  bool peek_is(char32_t c) const { return !at_end() && text_[pos_] == c; }
  char32_t peek() const { return text_[pos_]; }
  char32_t get() { return text_[pos_++]; }
  bool match(char32_t c) {
    if (!peek_is(c)) return false;
    ++pos_;
    return true;
  }

  [[noreturn]] void fail(size_t position, std::string_view message) const {
    throw Error(
        fmt::format("{}: regex column {}: {} in /{}/", origin_, position + 1, message, pattern_),
        ErrorCode::kGrammar, parse_source_location(origin_));
  }

  std::string describe(size_t from, size_t to) const {
    return to_utf8(std::u32string_view(text_).substr(from, to - from));
  }

  // ---- flags -------------------------------------------------------------------------------
  bool apply_flag(char32_t letter, Flags& flags) const {
    switch (letter) {
      case 'i':
        flags.ignore_case = true;
        return true;
      case 's':
        flags.dot_all = true;
        return true;
      case 'x':
        flags.verbose = true;
        return true;
      case 'a':
        flags.ascii = true;
        return true;
      case 'm':  // only changes ^ and $, which a lexer rejects anyway
      case 'u':  // the default for str patterns
        return true;
      default:
        return false;
    }
  }

  // Python 3.11 accepts `(?imsx)` only at the very start of the pattern.
  void parse_leading_global_flags(Flags& flags) {
    for (;;) {
      skip_verbose_space(flags);
      if (!(peek_is('(') && pos_ + 1 < text_.size() && text_[pos_ + 1] == '?')) return;
      size_t cursor = pos_ + 2;
      Flags scanned = flags;
      while (cursor < text_.size() && text_[cursor] != ')' &&
             check_flag_letter(text_[cursor], cursor, scanned)) {
        ++cursor;
      }
      if (cursor == pos_ + 2 || cursor >= text_.size() || text_[cursor] != ')') return;
      flags = scanned;
      pos_ = cursor + 1;
    }
  }

  // Applies one inline flag letter, rejecting the ones Python rejects for str patterns.
  bool check_flag_letter(char32_t letter, size_t position, Flags& flags) const {
    if (letter == 'L') fail(position, "bad inline flags: cannot use 'L' flag with a str pattern");
    return apply_flag(letter, flags);
  }

  void skip_verbose_space(const Flags& flags) {
    if (!flags.verbose) return;
    while (!at_end()) {
      if (is_verbose_space(peek())) {
        ++pos_;
      } else if (peek() == '#') {
        while (!at_end() && peek() != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  // ---- nodes -------------------------------------------------------------------------------
  uint32_t add(RegexNode node) {
    regex_.nodes.push_back(std::move(node));
    return static_cast<uint32_t>(regex_.nodes.size() - 1);
  }

  uint32_t add_set(icu::UnicodeSet set) {
    set.remove(static_cast<UChar32>(kSurrogateFirst), static_cast<UChar32>(kSurrogateLast));
    RegexNode node;
    node.kind = RegexKind::kCodePoints;
    for (int32_t r = 0; r < set.getRangeCount(); ++r) {
      node.code_points.push_back(
          {static_cast<char32_t>(set.getRangeStart(r)), static_cast<char32_t>(set.getRangeEnd(r))});
    }
    return add(std::move(node));
  }

  uint32_t add_literal(char32_t c, const Flags& flags) {
    icu::UnicodeSet set(static_cast<UChar32>(c), static_cast<UChar32>(c));
    if (flags.ignore_case) close_over_case(set, flags);
    return add_set(std::move(set));
  }

  // ---- grammar -----------------------------------------------------------------------------
  uint32_t parse_alternation(const Flags& flags, int depth) {
    std::vector<uint32_t> alternatives{parse_sequence(flags, depth)};
    while (match('|')) alternatives.push_back(parse_sequence(flags, depth));
    if (alternatives.size() == 1) return alternatives[0];
    RegexNode node;
    node.kind = RegexKind::kAlternate;
    node.children = std::move(alternatives);
    return add(std::move(node));
  }

  uint32_t parse_sequence(const Flags& flags, int depth) {
    std::vector<uint32_t> items;
    bool last_is_repeat = false;
    std::optional<size_t> guard_at;  // items before a `(?!qq)` guard
    size_t guard_start = 0;
    for (;;) {
      skip_verbose_space(flags);
      if (at_end() || peek() == '|' || peek() == ')') break;
      const size_t start = pos_;
      const char32_t c = get();
      if (c == '*' || c == '+' || c == '?' || c == '{') {
        uint32_t min = 0;
        uint32_t max = RegexNode::kUnbounded;
        if (c == '+') {
          min = 1;
        } else if (c == '?') {
          max = 1;
        } else if (c == '{' && !parse_counted_repeat(min, max)) {
          items.push_back(add_literal('{', flags));  // not a repeat: `{` stands for itself
          last_is_repeat = false;
          continue;
        }
        if (items.empty()) fail(start, "nothing to repeat");
        if (last_is_repeat) fail(start, "multiple repeat");
        RegexNode node;
        node.kind = RegexKind::kRepeat;
        node.min = min;
        node.max = max;
        if (match('?')) {
          node.lazy = true;
        } else if (peek_is('+')) {
          fail(pos_,
               fmt::format("possessive quantifier {}+ is not supported", describe(start, pos_)));
        }
        node.children = {items.back()};
        items.back() = add(std::move(node));
        last_is_repeat = true;
        continue;
      }
      last_is_repeat = false;
      switch (c) {
        case '\\':
          items.push_back(parse_escape(flags, start));
          break;
        case '[':
          items.push_back(parse_class(flags, start));
          break;
        case '.': {
          icu::UnicodeSet any(0, static_cast<UChar32>(kMaxCodePoint));
          if (!flags.dot_all) any.remove('\n');
          items.push_back(add_set(std::move(any)));
          break;
        }
        case '^':
        case '$':
          fail(start,
               fmt::format("regex anchor {} is not supported in a lexer", static_cast<char>(c)));
        case '(':
          if (const std::optional<char32_t> q = parse_redundant_guard(items, flags, start, depth)) {
            if (*q != 0) {
              if (guard_at) fail(start, "regex lookaround (?!...) is supported once per sequence");
              guard_at = items.size();
              guard_start = start;
            }
            break;
          }
          if (std::optional<uint32_t> group = parse_group(flags, start, depth)) {
            items.push_back(*group);
          }
          break;
        default:
          items.push_back(add_literal(c, flags));
          break;
      }
    }
    if (guard_at) rewrite_not_pair_guard(items, *guard_at, guard_start);
    if (items.empty()) return add(RegexNode{});
    if (items.size() == 1) return items[0];
    RegexNode node;
    node.kind = RegexKind::kConcat;
    node.children = std::move(items);
    return add(std::move(node));
  }

  // `q(?!qq).*?q` (SynCode's STRING: `"(?!"").*?"`), with `items` = [..., q, X*?, q] and the
  // guard after the first q. Python refuses a match whose opening q is followed by qq. The lazy
  // repeat stops at the first q, so a match with content never starts with q; the only match
  // the guard can refuse is `qq` itself, when the input goes on with a third q. Rewritten as
  // `q(?:[X-q]X*?q|q⟨void if followed by q⟩)`: the second alternative is a match that the lexer
  // holds back one byte (LexerDfa::tentative_label), which makes the guard exact.
  void rewrite_not_pair_guard(std::vector<uint32_t>& items, size_t guard_at, size_t start) {
    const auto one_point = [&](uint32_t node) -> std::optional<char32_t> {
      const RegexNode& n = regex_.nodes[node];
      if (n.kind != RegexKind::kCodePoints || n.code_points.size() != 1 ||
          n.code_points.front().first != n.code_points.front().last)
        return std::nullopt;
      return n.code_points.front().first;
    };
    const std::optional<char32_t> q = guard_at > 0 ? one_point(items[guard_at - 1]) : std::nullopt;
    bool supported = q && *q < 0x80 && items.size() == guard_at + 2;
    if (supported) {
      const RegexNode& repeat = regex_.nodes[items[guard_at]];
      supported = repeat.kind == RegexKind::kRepeat && repeat.lazy && repeat.min == 0 &&
                  repeat.max == RegexNode::kUnbounded &&
                  regex_.nodes[repeat.children[0]].kind == RegexKind::kCodePoints &&
                  one_point(items[guard_at + 1]) == q;
    }
    if (!supported)
      fail(start,
           "regex lookaround (?!...) is supported only as q(?!qq).*?q for one ASCII "
           "character q (SynCode's STRING)");
    const uint32_t repeat = items[guard_at];
    const uint32_t closing = items[guard_at + 1];
    RegexNode first = regex_.nodes[regex_.nodes[repeat].children[0]];  // X without q
    CodePointRanges without_q;
    for (const CodePointRange& range : first.code_points) {
      if (range.first <= *q && *q <= range.last) {
        if (range.first < *q) without_q.push_back({range.first, static_cast<char32_t>(*q - 1)});
        if (*q < range.last) without_q.push_back({static_cast<char32_t>(*q + 1), range.last});
      } else {
        without_q.push_back(range);
      }
    }
    first.code_points = std::move(without_q);
    const uint32_t first_id = add(std::move(first));
    RegexNode content;
    content.kind = RegexKind::kConcat;
    content.children = {first_id, repeat, closing};
    RegexNode empty;
    empty.kind = RegexKind::kVetoedEnd;
    empty.code_points = {{*q, *q}};
    empty.veto = static_cast<uint8_t>(*q);
    RegexNode either;
    either.kind = RegexKind::kAlternate;
    either.children = {add(std::move(content)), add(std::move(empty))};
    items.resize(guard_at);
    items.push_back(add(std::move(either)));
  }

  // After `{`: reads `m}`, `m,}`, `,n}`, `m,n}` or `,}`. Returns false (and rewinds) when the
  // text is not a repeat, in which case Python treats the `{` as a literal.
  bool parse_counted_repeat(uint32_t& min, uint32_t& max) {
    const size_t brace = pos_ - 1;
    const size_t start = pos_;
    if (peek_is('}')) return false;
    auto read_number = [&](std::optional<uint64_t>& value) {
      while (!at_end() && is_digit(peek())) {
        value = std::min<uint64_t>(value.value_or(0) * 10 + (get() - '0'), 1ULL << 40);
      }
    };
    std::optional<uint64_t> low;
    std::optional<uint64_t> high;
    read_number(low);
    if (match(',')) {
      read_number(high);
    } else {
      high = low;
    }
    if (!match('}')) {
      pos_ = start;
      return false;
    }
    if (high && low && *high < *low) fail(brace, "min repeat greater than max repeat");
    const uint64_t largest = high ? *high : low.value_or(0);
    if (largest > kMaxRepeatCount) {
      fail(brace, fmt::format("repeat count {} exceeds the supported maximum {}", largest,
                              kMaxRepeatCount));
    }
    min = static_cast<uint32_t>(low.value_or(0));
    max = high ? static_cast<uint32_t>(*high) : RegexNode::kUnbounded;
    return true;
  }

  // After `(`. Returns the group's node, or nothing for a comment `(?#...)`.
  std::optional<uint32_t> parse_group(const Flags& outer, size_t open, int depth) {
    // Bounded so that hostile input cannot exhaust the stack of this recursive parser.
    if (depth >= kMaxGroupDepth) fail(open, "groups nested too deeply");
    Flags flags = outer;
    if (match('?')) {
      if (at_end()) fail(pos_, "unexpected end of pattern");
      const size_t at = pos_;
      const char32_t c = get();
      switch (c) {
        case ':':
          break;
        case 'P':
          if (match('<')) {
            parse_group_name(at);
          } else if (match('=')) {
            fail(open, "regex backreference (?P=name) is not supported");
          } else {
            fail(at, "unknown extension ?P");
          }
          break;
        case '#':
          while (!at_end() && peek() != ')') ++pos_;
          if (!match(')')) fail(open, "missing ), unterminated comment");
          return std::nullopt;
        case '=':
          fail(open, "regex lookaround (?=...) is not supported");
        case '!':
          fail(open, "regex lookaround (?!...) is not supported");
        case '<':
          if (match('=')) fail(open, "regex lookaround (?<=...) is not supported");
          if (match('!')) fail(open, "regex lookaround (?<!...) is not supported");
          fail(at, "unknown extension ?<");
        case '(':
          fail(open, "regex conditional group (?(...)...) is not supported");
        case '>':
          fail(open, "regex atomic group (?>...) is not supported");
        default:
          pos_ = at;
          parse_scoped_flags(flags, open);
          break;
      }
    }
    const uint32_t body = parse_alternation(flags, depth + 1);
    if (!match(')')) fail(open, "missing ), unterminated subpattern");
    return body;
  }

  // Lookaround is refused in general (a DFA lexer cannot test context), except two guards
  // SynCode's Python grammar writes right after a quote:
  //  - `(?<!C)` for one character set C, right after one character outside C: the character
  //    before is that one, so the guard always holds (exact);
  //  - `(?!qq)` right after the single character q (`"(?!"")` in STRING): Python refuses a
  //    match whose opening q is followed by qq. Returned as q; parse_sequence() rewrites the
  //    sequence it stands in (rewrite_not_pair_guard, exact; docs/lexer.md, "Lookaround").
  // Returns 0 for the first (dropped), nullopt, having consumed nothing, when the group at
  // `open` is not one of these.
  std::optional<char32_t> parse_redundant_guard(const std::vector<uint32_t>& items,
                                                const Flags& flags, size_t open, int depth) {
    const size_t after_open = pos_;
    const bool behind = match('?') && match('<') && match('!');
    if (!behind) {
      pos_ = after_open;
      if (!(match('?') && match('!'))) {
        pos_ = after_open;
        return std::nullopt;
      }
    }
    const uint32_t body = parse_alternation(flags, depth + 1);
    if (!match(')')) fail(open, "missing ), unterminated subpattern");
    const auto single = [&](uint32_t node) -> const CodePointRanges* {
      const RegexNode& n = regex_.nodes[node];
      return n.kind == RegexKind::kCodePoints ? &n.code_points : nullptr;
    };
    const auto one_point = [&](const CodePointRanges* set) {
      return set != nullptr && set->size() == 1 && set->front().first == set->front().last;
    };
    const CodePointRanges* before = items.empty() ? nullptr : single(items.back());
    if (behind) {
      const CodePointRanges* guard = single(body);
      if (guard != nullptr && one_point(before)) {
        const char32_t c = before->front().first;
        const bool inside = std::any_of(guard->begin(), guard->end(), [&](const CodePointRange& r) {
          return r.first <= c && c <= r.last;
        });
        if (!inside) return char32_t{0};
      }
      fail(open, "regex lookaround (?<!...) is not supported");
    }
    const RegexNode& guard = regex_.nodes[body];
    if (one_point(before) && guard.kind == RegexKind::kConcat && guard.children.size() == 2) {
      const char32_t q = before->front().first;
      const bool quote_pair =
          std::all_of(guard.children.begin(), guard.children.end(), [&](uint32_t child) {
            const CodePointRanges* set = single(child);
            return one_point(set) && set->front().first == q;
          });
      if (quote_pair) return q;
    }
    fail(open, "regex lookaround (?!...) is not supported");
  }

  void parse_group_name(size_t at) {
    const size_t start = pos_;
    while (!at_end() && peek() != '>') ++pos_;
    if (!match('>')) fail(at, "missing >, unterminated name");
    if (pos_ - 1 == start) fail(at, "missing group name");
  }

  // `(?aimsx-imsx:` : flags on, optionally flags off, then `:`.
  void parse_scoped_flags(Flags& flags, size_t open) {
    bool any = false;
    while (!at_end() && peek() != '-' && peek() != ':' && peek() != ')') {
      if (!check_flag_letter(peek(), pos_, flags)) fail(pos_, "unknown extension or flag");
      ++pos_;
      any = true;
    }
    if (match('-')) {
      bool any_off = false;
      while (!at_end() && peek() != ':' && peek() != ')') {
        switch (get()) {
          case 'i':
            flags.ignore_case = false;
            break;
          case 's':
            flags.dot_all = false;
            break;
          case 'x':
            flags.verbose = false;
            break;
          case 'm':
            break;
          default:
            fail(pos_ - 1, "bad inline flags: cannot turn off this flag");
        }
        any_off = true;
      }
      if (!any_off) fail(pos_, "missing flag");
      any = true;
    }
    if (!any) fail(pos_, "missing flag");
    if (peek_is(')')) fail(open, "global flags not at the start of the expression");
    if (!match(':')) fail(pos_, "missing :");
  }

  struct Escape {
    bool is_set = false;
    char32_t code_point = 0;
    icu::UnicodeSet set;
  };

  // After a backslash; `start` is the backslash's position. Handles both contexts: inside a
  // class \b is a backspace and digits are octal only.
  Escape read_escape(const Flags& flags, size_t start, bool in_class) {
    if (at_end()) fail(start, "bad escape (end of pattern)");
    const char32_t c = get();
    Escape result;
    auto literal = [&](char32_t value) {
      result.code_point = value;
      return result;
    };
    switch (c) {
      case 'd':
      case 'D':
      case 's':
      case 'S':
      case 'w':
      case 'W':
        result.is_set = true;
        result.set = category_set(c, flags);
        return result;
      case 'a':
        return literal(7);
      case 'f':
        return literal(12);
      case 'n':
        return literal(10);
      case 'r':
        return literal(13);
      case 't':
        return literal(9);
      case 'v':
        return literal(11);
      case '\\':
        return literal('\\');
      case 'b':
        if (in_class) return literal(8);
        fail(start, "regex anchor \\b is not supported in a lexer");
      case 'A':
      case 'Z':
      case 'B':
        if (in_class) break;
        fail(start,
             fmt::format("regex anchor \\{} is not supported in a lexer", static_cast<char>(c)));
      case 'x':
        return literal(read_hex(start, 2));
      case 'u':
        return literal(read_hex(start, 4));
      case 'U':
        return literal(read_hex(start, 8));
      case 'N':
        return literal(read_named_character(start));
      default:
        break;
    }
    if (c == '0' || (in_class && is_octal_digit(c))) {
      uint32_t value = c - '0';
      for (int i = 0; i < 2 && !at_end() && is_octal_digit(peek()); ++i) {
        value = value * 8 + (get() - '0');
      }
      return literal(check_octal(start, value));
    }
    if (is_digit(c)) {
      if (!in_class && !at_end() && is_digit(peek())) {
        const char32_t second = get();
        if (is_octal_digit(c) && is_octal_digit(second) && !at_end() && is_octal_digit(peek())) {
          const uint32_t value = ((c - '0') * 8 + (second - '0')) * 8 + (get() - '0');
          return literal(check_octal(start, value));
        }
      }
      if (in_class) fail(start, fmt::format("bad escape {}", describe(start, pos_)));
      fail(start, fmt::format("regex backreference {} is not supported", describe(start, pos_)));
    }
    if (c < 0x80 && is_ascii_letter(c)) {
      fail(start, fmt::format("bad escape {}", describe(start, pos_)));
    }
    return literal(c);
  }

  uint32_t check_octal(size_t start, uint32_t value) const {
    if (value > 0377) {
      fail(start,
           fmt::format("octal escape value {} outside of range 0-0o377", describe(start, pos_)));
    }
    return value;
  }

  char32_t read_hex(size_t start, int digits) {
    uint32_t value = 0;
    for (int i = 0; i < digits; ++i) {
      const int digit = at_end() ? -1 : hex_value(peek());
      if (digit < 0) fail(start, fmt::format("incomplete escape {}", describe(start, pos_)));
      ++pos_;
      value = value * 16 + static_cast<uint32_t>(digit);
    }
    if (value > kMaxCodePoint) fail(start, fmt::format("bad escape {}", describe(start, pos_)));
    if (value >= kSurrogateFirst && value <= kSurrogateLast) {
      fail(start, fmt::format("escape {} is a surrogate code point, which UTF-8 cannot encode",
                              describe(start, pos_)));
    }
    return value;
  }

  char32_t read_named_character(size_t start) {
    if (!match('{')) fail(pos_, "missing {");
    const size_t name_start = pos_;
    while (!at_end() && peek() != '}') ++pos_;
    if (at_end()) fail(start, "missing }, unterminated name");
    if (pos_ == name_start) fail(pos_, "missing character name");
    const std::string name = describe(name_start, pos_);
    ++pos_;  // '}'
    for (UCharNameChoice choice : {U_UNICODE_CHAR_NAME, U_CHAR_NAME_ALIAS}) {
      UErrorCode status = U_ZERO_ERROR;
      const UChar32 c = u_charFromName(choice, name.c_str(), &status);
      if (U_SUCCESS(status) && c >= 0) return static_cast<char32_t>(c);
    }
    fail(start, fmt::format("undefined character name '{}'", name));
  }

  uint32_t parse_escape(const Flags& flags, size_t start) {
    Escape escape = read_escape(flags, start, /*in_class=*/false);
    if (escape.is_set) return add_set(std::move(escape.set));
    return add_literal(escape.code_point, flags);
  }

  // After `[`. Python's rules: a `]` right after `[` or `[^` is literal, `-` at either end is
  // literal, a range endpoint must be a single character.
  uint32_t parse_class(const Flags& flags, size_t open) {
    const bool negate = match('^');
    const size_t first_item = pos_;
    icu::UnicodeSet characters;  // literal members: these get case closure
    icu::UnicodeSet categories;  // \d \w \s members: Python does not case-fold them
    for (;;) {
      if (at_end()) fail(open, "unterminated character set");
      const size_t item = pos_;
      char32_t c = get();
      if (c == ']' && item != first_item) break;
      Escape low;
      if (c == '\\') {
        low = read_escape(flags, item, /*in_class=*/true);
      } else {
        low.code_point = c;
      }
      if (peek_is('-')) {
        ++pos_;
        if (at_end()) fail(open, "unterminated character set");
        if (peek() == ']') {
          add_class_item(low, characters, categories);
          characters.add('-');
          continue;  // the `]` closes the class on the next round
        }
        const size_t high_at = pos_;
        Escape high;
        if (get() == '\\') {
          high = read_escape(flags, high_at, /*in_class=*/true);
        } else {
          high.code_point = text_[high_at];
        }
        if (low.is_set || high.is_set) {
          fail(item, fmt::format("bad character range {}", describe(item, pos_)));
        }
        if (high.code_point < low.code_point) {
          fail(item, fmt::format("bad character range {}", describe(item, pos_)));
        }
        characters.add(static_cast<UChar32>(low.code_point), static_cast<UChar32>(high.code_point));
        continue;
      }
      add_class_item(low, characters, categories);
    }
    if (flags.ignore_case) close_over_case(characters, flags);
    characters.addAll(categories);
    if (negate) characters.complement(0, static_cast<UChar32>(kMaxCodePoint));
    return add_set(std::move(characters));
  }

  static void add_class_item(const Escape& item, icu::UnicodeSet& characters,
                             icu::UnicodeSet& categories) {
    if (item.is_set) {
      categories.addAll(item.set);
    } else {
      characters.add(static_cast<UChar32>(item.code_point));
    }
  }

  std::string_view pattern_;
  std::string_view origin_;
  std::u32string text_;
  size_t pos_ = 0;
  Flags global_flags_;
  Regex regex_;
};

}  // namespace

Regex parse_regex(std::string_view pattern, std::string_view flags, std::string_view origin) {
  return RegexParser(pattern, flags, origin).parse();
}

}  // namespace glrmask::lexer
