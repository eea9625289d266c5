#include "lib/json_schema/regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "lib/core/unicode_utf8.h"

namespace glrmask::json_schema {
namespace {

constexpr char32_t kMaxCodePoint = 0x10FFFF;
constexpr std::size_t kMaxCount = 1000;  // the lexer's limit on one counted repeat

std::string escape_in_class(char32_t c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
    return std::string(1, static_cast<char>(c));
  }
  if (c < 0x80 && c >= 0x20 && c != 0x7f) return std::string("\\") + static_cast<char>(c);
  if (c <= 0xFF) return fmt::format("\\x{:02x}", static_cast<unsigned>(c));
  if (c <= 0xFFFF) return fmt::format("\\u{:04x}", static_cast<unsigned>(c));
  return fmt::format("\\U{:08x}", static_cast<unsigned>(c));
}

// A class expression for a non-empty set, without surrogates (they cannot be written).
std::string class_regex(const CodePointSet& set) {
  std::string out = "[";
  for (auto [first, last] : set.ranges()) {
    std::vector<std::pair<char32_t, char32_t>> pieces;
    if (first < 0xD800 && last > 0xDFFF) {
      pieces = {{first, 0xD7FF}, {0xE000, last}};
    } else if (first >= 0xD800 && last <= 0xDFFF) {
      continue;
    } else {
      pieces = {{first < 0xD800 || first > 0xDFFF ? first : char32_t{0xE000},
                 last < 0xD800 || last > 0xDFFF ? last : char32_t{0xD7FF}}};
    }
    for (auto [a, b] : pieces) {
      out += escape_in_class(a);
      if (b != a) out += "-" + escape_in_class(b);
    }
  }
  out += "]";
  return out;
}

std::string group(const std::string& regex) {
  return "(?:" + regex + ")";
}

std::string join(const std::vector<std::string>& alternatives) {
  std::string out;
  for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
  return out;
}

CodePointSet intersect(const CodePointSet& left, const CodePointSet& right) {
  CodePointSet out;
  for (auto [a, b] : left.ranges()) {
    for (auto [c, d] : right.ranges()) {
      const char32_t lo = std::max(a, c);
      const char32_t hi = std::min(b, d);
      if (lo <= hi) out.add(lo, hi);
    }
  }
  return out;
}

// One hexadecimal digit from `first` to `last` (0-15), in either case.
std::string hex_digit_class(unsigned first, unsigned last) {
  static constexpr char kLower[] = "0123456789abcdef";
  static constexpr char kUpper[] = "0123456789ABCDEF";
  if (first == last && first < 10) return std::string(1, kLower[first]);
  std::string out = "[";
  auto add = [&](const char* digits, unsigned a, unsigned b) {
    out += digits[a];
    if (b > a) out += std::string(b > a + 1 ? "-" : "") + digits[b];
  };
  if (first < 10) add(kLower, first, std::min(last, 9u));
  if (last >= 10) {
    add(kLower, std::max(first, 10u), last);
    add(kUpper, std::max(first, 10u), last);
  }
  return out + "]";
}

// The `digits`-digit hexadecimal spellings (either case) of the numbers from `first` to `last`.
std::string hex_range_regex(char32_t first, char32_t last, unsigned digits) {
  if (digits == 0) return "";
  const unsigned shift = 4 * (digits - 1);
  const char32_t mask = (char32_t{1} << shift) - 1;
  unsigned low = first >> shift, high = last >> shift;
  if (low == high)
    return hex_digit_class(low, high) + hex_range_regex(first & mask, last & mask, digits - 1);
  std::vector<std::string> parts;
  const std::string any_rest =
      digits > 1 ? fmt::format("[0-9a-fA-F]{{{}}}", digits - 1) : std::string();
  if ((first & mask) != 0) {
    parts.push_back(hex_digit_class(low, low) + hex_range_regex(first & mask, mask, digits - 1));
    ++low;
  }
  std::string tail;
  if ((last & mask) != mask) {
    tail = hex_digit_class(high, high) + hex_range_regex(0, last & mask, digits - 1);
    --high;
  }
  if (low <= high) parts.push_back(hex_digit_class(low, high) + any_rest);
  if (!tail.empty()) parts.push_back(tail);
  return parts.size() == 1 ? parts[0] : group(join(parts));
}

std::string bounded_repeat(const std::string& unit, std::size_t min, std::size_t max) {
  if (max == 0) return "";
  if (min == max) return min == 1 ? unit : fmt::format("{}{{{}}}", unit, min);
  return fmt::format("{}{{{},{}}}", unit, min, max);
}

// Exactly n units, whatever n is.
std::string exactly(const std::string& unit, std::size_t n) {
  if (n <= kMaxCount) return bounded_repeat(unit, n, n);
  const std::string chunk = group(bounded_repeat(unit, kMaxCount, kMaxCount));
  return group(exactly(chunk, n / kMaxCount)) + bounded_repeat(unit, n % kMaxCount, n % kMaxCount);
}

// Any number of units from 0 to k, exactly, whatever k is.
std::string up_to(const std::string& unit, std::size_t k) {
  if (k <= kMaxCount) return bounded_repeat(unit, 0, k);
  const std::string chunk = group(bounded_repeat(unit, kMaxCount, kMaxCount));
  const std::size_t q = k / kMaxCount;
  const std::size_t r = k % kMaxCount;
  // 1000a + b with (a < q, b <= 999) or (a = q, b <= r).
  return group(group(up_to(chunk, q - 1)) + bounded_repeat(unit, 0, kMaxCount - 1) + "|" +
               group(exactly(chunk, q)) + bounded_repeat(unit, 0, r));
}

}  // namespace

void CodePointSet::add(char32_t first, char32_t last) {
  ranges_.emplace_back(first, last);
  std::sort(ranges_.begin(), ranges_.end());
  std::vector<std::pair<char32_t, char32_t>> merged;
  for (auto range : ranges_) {
    if (!merged.empty() && range.first <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, range.second);
    else
      merged.push_back(range);
  }
  ranges_ = std::move(merged);
}

void CodePointSet::add(const CodePointSet& other) {
  for (auto [first, last] : other.ranges_) add(first, last);
}

CodePointSet CodePointSet::complement() const {
  CodePointSet out;
  char32_t next = 0;
  for (auto [first, last] : ranges_) {
    if (first > next) out.ranges_.emplace_back(next, first - 1);
    next = last + 1;
  }
  if (next <= kMaxCodePoint) out.ranges_.emplace_back(next, kMaxCodePoint);
  return out;
}

bool CodePointSet::contains(char32_t c) const {
  for (auto [first, last] : ranges_)
    if (c >= first && c <= last) return true;
  return false;
}

std::string any_json_string_char_regex() {
  return R"((?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}))";
}

std::string any_json_string_regex() {
  return "\"" + any_json_string_char_regex() + "*\"";
}

std::string json_char_regex(const CodePointSet& allowed, StringSpellings spellings) {
  std::vector<std::string> alternatives;
  // The character itself, unless JSON requires it escaped.
  CodePointSet specials;
  specials.add(0, 0x1F);
  specials.add('"', '"');
  specials.add('\\', '\\');
  const CodePointSet plain = intersect(allowed, specials.complement());
  if (!plain.empty()) {
    const auto& ranges = plain.ranges();
    const bool one = ranges.size() == 1 && ranges[0].first == ranges[0].second;
    alternatives.push_back(one ? escape_code_point(ranges[0].first) : class_regex(plain));
  }
  // The two-character escapes: \" \\ \/ and the controls with a letter.
  std::string short_forms;
  for (const auto& [c, letter] : {std::pair<char32_t, const char*>{'"', "\""},
                                  {'\\', "\\\\"},
                                  {'/', "/"},
                                  {'\b', "b"},
                                  {'\f', "f"},
                                  {'\n', "n"},
                                  {'\r', "r"},
                                  {'\t', "t"}})
    if (allowed.contains(c)) short_forms += letter;
  if (!short_forms.empty()) alternatives.push_back("\\\\[" + short_forms + "]");
  // \uXXXX for every character of the Basic Multilingual Plane (hex digits in either case), and
  // a surrogate pair \uD8xx\uDCxx for every other one: the same character, counted once.
  CodePointSet bmp;
  bmp.add(0, 0xD7FF);
  bmp.add(0xE000, 0xFFFF);
  if (spellings == StringSpellings::kEncoders) {
    CodePointSet printable;
    printable.add(0x20, 0x7E);
    bmp = intersect(bmp, printable.complement());
  }
  const CodePointSet in_bmp = intersect(allowed, bmp);
  if (!in_bmp.empty()) {
    std::vector<std::string> hex;
    for (auto [first, last] : in_bmp.ranges()) hex.push_back(hex_range_regex(first, last, 4));
    alternatives.push_back("\\\\u" + (hex.size() == 1 ? hex[0] : group(join(hex))));
  }
  CodePointSet astral;
  astral.add(0x10000, kMaxCodePoint);
  std::vector<std::string> pairs;
  auto pair = [&](char32_t high_first, char32_t high_last, char32_t low_first, char32_t low_last) {
    pairs.push_back("\\\\u" + hex_range_regex(0xD800 + high_first, 0xD800 + high_last, 4) +
                    "\\\\u" + hex_range_regex(0xDC00 + low_first, 0xDC00 + low_last, 4));
  };
  const CodePointSet in_astral = intersect(allowed, astral);
  for (auto [first, last] : in_astral.ranges()) {
    const char32_t a = first - 0x10000, b = last - 0x10000;
    char32_t high_a = a >> 10, high_b = b >> 10;
    if (high_a == high_b) {
      pair(high_a, high_a, a & 0x3FF, b & 0x3FF);
      continue;
    }
    if ((a & 0x3FF) != 0) {
      pair(high_a, high_a, a & 0x3FF, 0x3FF);
      ++high_a;
    }
    if ((b & 0x3FF) != 0x3FF) {
      pair(high_b, high_b, 0, b & 0x3FF);
      --high_b;
    }
    if (high_a <= high_b) pair(high_a, high_b, 0, 0x3FF);
  }
  if (!pairs.empty()) alternatives.push_back(group(join(pairs)));
  if (alternatives.empty()) return "";
  // A character with one spelling, itself, is one atom: no group needed.
  if (alternatives.size() == 1 && !plain.empty()) return alternatives[0];
  return group(join(alternatives));
}

std::string json_any_char_regex(StringSpellings spellings) {
  static const std::string kAny[2] = {[] {
                                        CodePointSet all;
                                        all.add(0, kMaxCodePoint);
                                        return json_char_regex(all, StringSpellings::kEncoders);
                                      }(),
                                      [] {
                                        CodePointSet all;
                                        all.add(0, kMaxCodePoint);
                                        return json_char_regex(all, StringSpellings::kEvery);
                                      }()};
  return kAny[spellings == StringSpellings::kEvery ? 1 : 0];
}

std::string escape_code_point(char32_t c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
    return std::string(1, static_cast<char>(c));
  return escape_in_class(c);
}

std::string escape_literal(std::string_view utf8) {
  std::string out;
  for (std::size_t pos = 0; pos < utf8.size();) out += escape_code_point(decode_utf8(utf8, pos));
  return out;
}

std::string json_string_literal_regex(std::string_view utf8, StringSpellings spellings) {
  std::string out = "\"";
  for (std::size_t pos = 0; pos < utf8.size();) {
    CodePointSet one;
    const char32_t c = decode_utf8(utf8, pos);
    one.add(c, c);
    out += json_char_regex(one, spellings);
  }
  return out + "\"";
}

std::string repeat_regex(const std::string& unit, std::size_t min, std::optional<std::size_t> max) {
  const std::string grouped = group(unit);
  std::string out = exactly(grouped, min);
  if (!max) return out + grouped + "*";
  return out + up_to(grouped, *max - min);
}

}  // namespace glrmask::json_schema
