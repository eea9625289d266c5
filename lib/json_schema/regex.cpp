#include "lib/json_schema/regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "lib/core/unicode_utf8.h"

namespace glrmask::json_schema {
namespace {

constexpr char32_t kMaxCodePoint = 0x10FFFF;
constexpr std::size_t kMaxCount = 1000;  // the lexer's limit on one counted repeat

// Characters the canonical spelling escapes, with their escape text.
std::optional<std::string> canonical_escape(char32_t c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    default:
      if (c < 0x20) return fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      return std::nullopt;
  }
}

bool needs_escape(char32_t c) {
  return c < 0x20 || c == '"' || c == '\\';
}

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

std::string canonical_char_regex(const CodePointSet& allowed) {
  std::vector<std::string> alternatives;
  // The escaped characters. When every control character is allowed, \u00xx is written as one
  // class instead of 27 alternatives (the NFA and DFA stay small); the short forms \b \t \n \f
  // \r then also have a \u00xx spelling, which is the same character, so nothing wrong is
  // accepted.
  bool all_controls = true;
  for (char32_t c = 0; c < 0x20; ++c) all_controls = all_controls && allowed.contains(c);
  std::string short_forms;
  for (const char32_t c : {U'"', U'\\'})
    if (allowed.contains(c)) short_forms += escape_code_point(c);
  if (all_controls) {
    short_forms += "bfnrt";
    alternatives.push_back(R"(\\u00[01][0-9a-fA-F])");
  } else {
    for (char32_t c = 0; c < 0x20; ++c)
      if (allowed.contains(c)) alternatives.push_back(escape_literal(*canonical_escape(c)));
  }
  if (!short_forms.empty()) alternatives.insert(alternatives.begin(), "\\\\[" + short_forms + "]");
  CodePointSet specials;
  specials.add(0, 0x1F);
  specials.add('"', '"');
  specials.add('\\', '\\');
  const CodePointSet not_special = specials.complement();
  CodePointSet plain;
  for (auto [first, last] : allowed.ranges()) {
    for (auto [a, b] : not_special.ranges()) {
      const char32_t lo = std::max(first, a);
      const char32_t hi = std::min(last, b);
      if (lo <= hi) plain.add(lo, hi);
    }
  }
  if (!plain.empty()) alternatives.insert(alternatives.begin(), class_regex(plain));
  if (alternatives.empty()) return "";
  if (alternatives.size() == 1 && !plain.empty()) return alternatives[0];
  std::string out;
  for (const std::string& alternative : alternatives) {
    if (!out.empty()) out += "|";
    out += alternative;
  }
  return group(out);
}

std::string canonical_any_char_regex() {
  CodePointSet all;
  all.add(0, kMaxCodePoint);
  return canonical_char_regex(all);
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

std::string json_string_literal_regex(std::string_view utf8) {
  std::string text = "\"";
  for (std::size_t pos = 0; pos < utf8.size();) {
    const char32_t c = decode_utf8(utf8, pos);
    if (auto escaped = canonical_escape(c))
      text += *escaped;
    else
      append_utf8(text, c);
  }
  text += "\"";
  return escape_literal(text);
}

std::string repeat_regex(const std::string& unit, std::size_t min, std::optional<std::size_t> max) {
  const std::string grouped = group(unit);
  std::string out = exactly(grouped, min);
  if (!max) return out + grouped + "*";
  return out + up_to(grouped, *max - min);
}

std::optional<std::string> json_string_excluding_regex(const std::vector<std::string>& names) {
  // A trie of the names; at each node the string may end (unless a name ends there), continue
  // with a child, or leave the trie with any other character and then continue freely.
  struct Node {
    std::map<char32_t, std::size_t> children;
    bool is_name = false;
  };
  std::vector<Node> nodes(1);
  for (const std::string& name : names) {
    std::size_t node = 0;
    for (std::size_t pos = 0; pos < name.size();) {
      const char32_t c = decode_utf8(name, pos);
      if (needs_escape(c)) return std::nullopt;
      auto found = nodes[node].children.find(c);
      if (found == nodes[node].children.end()) {
        nodes.emplace_back();
        found = nodes[node].children.emplace(c, nodes.size() - 1).first;
      }
      node = found->second;
    }
    nodes[node].is_name = true;
  }
  // Two trie-shaped regexes share one tail: `ends` = the proper prefixes of names that are not
  // names; `leaves` = a trie prefix followed by a character no name continues with, after which
  // anything may follow. (One `any*` copy per exit point would multiply the lexer's DFA states.)
  auto ends = [&](auto&& self, std::size_t index) -> std::string {
    const Node& node = nodes[index];
    std::vector<std::string> alternatives;
    if (!node.is_name) alternatives.emplace_back();
    for (const auto& [c, child] : node.children) {
      const std::string rest = self(self, child);
      if (rest != "(?!)") alternatives.push_back(escape_code_point(c) + rest);
    }
    if (alternatives.empty()) return "(?!)";
    std::string out;
    for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
    return group(out);
  };
  auto leaves = [&](auto&& self, std::size_t index) -> std::string {
    const Node& node = nodes[index];
    std::vector<std::string> alternatives;
    CodePointSet taken;
    for (const auto& [c, child] : node.children) {
      taken.add(c, c);
      alternatives.push_back(escape_code_point(c) + self(self, child));
    }
    const std::string other = canonical_char_regex(taken.complement());
    if (!other.empty()) alternatives.push_back(other);
    std::string out;
    for (std::size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
    return group(out);
  };
  std::string end_part = ends(ends, 0);
  const std::string leave_part = leaves(leaves, 0) + canonical_any_char_regex() + "*";
  if (end_part == "(?!)") return "\"" + leave_part + "\"";
  return "\"(?:" + end_part + "|" + leave_part + ")\"";
}

}  // namespace glrmask::json_schema
