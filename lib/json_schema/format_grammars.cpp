#include "lib/json_schema/format_grammars.h"

#include <fmt/format.h>

#include <string_view>
#include <utility>
#include <vector>

#include "lib/core/unicode_utf8.h"

namespace glrmask::json_schema {
namespace {

std::string group(std::string_view body) {
  return fmt::format("(?:{})", body);
}

std::string any_of(const std::vector<std::string>& alternatives) {
  std::string out;
  for (const std::string& alternative : alternatives) out += (out.empty() ? "" : "|") + alternative;
  return group(out);
}

// Class members for code point ranges, astral ones as literal characters (the pattern
// dialect reads \uXXXX for the basic plane only).
std::string class_ranges(const std::vector<std::pair<char32_t, char32_t>>& ranges) {
  std::string out;
  for (const auto& [first, last] : ranges) {
    for (const char32_t c : {first, last}) {
      if (c < 0x10000) {
        out += fmt::format("\\u{:04X}", static_cast<unsigned>(c));
      } else {
        append_utf8(out, c);
      }
      if (c == first) out += '-';
    }
  }
  return out;
}

// RFC 3987 `ucschar` and `iprivate`.
std::string ucschar_ranges() {
  std::vector<std::pair<char32_t, char32_t>> ranges = {
      {0xA0, 0xD7FF}, {0xF900, 0xFDCF}, {0xFDF0, 0xFFEF}};
  for (char32_t plane = 1; plane <= 0xD; ++plane)
    ranges.emplace_back(plane << 16, (plane << 16) | 0xFFFD);
  ranges.emplace_back(0xE1000, 0xEFFFD);
  return class_ranges(ranges);
}
std::string iprivate_ranges() {
  return class_ranges({{0xE000, 0xF8FF}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD}});
}

const char* const kHexDigit = "[0-9A-Fa-f]";
const char* const kDecOctet = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

std::string ipv4() {
  return fmt::format("{0}(?:\\.{0}){{3}}", kDecOctet);
}

// A host name label of at most `max` characters (max >= 5).
std::string label_regex(int max) {
  const char* const a = "[A-Za-z0-9]";
  const char* const h = "[A-Za-z0-9\\-]";
  return fmt::format("{0}(?:{0}|{1}{0}|{1}{1}{0}|{1}(?:{0}{1}|-{0}){1}{{0,{2}}}{0})?", a, h,
                     max - 5);
}

// Host names of at most 253 characters: at most four labels, the fourth at most 61 characters;
// `min_labels` 1 or 2. (A second shape of many short labels doubled the lexer states of every
// schema with a hostname.)
std::string bounded_hostname_regex(int min_labels) {
  return fmt::format("{0}(?:\\.{0}){{{1},2}}(?:\\.{2})?", label_regex(63), min_labels - 1,
                     label_regex(61));
}

}  // namespace

std::string hostname_regex() {
  return bounded_hostname_regex(1);
}

std::string email_regex() {
  const std::string atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-]+";
  const std::string dot_atom = fmt::format("{0}(?:\\.{0})*", atext);
  const std::string quoted = "\"(?:[ !#-\\[\\]-~]|\\\\[ -~])*\"";
  const std::string domain = any_of(
      {bounded_hostname_regex(2), "\\[" + ipv4() + "\\]", "\\[IPv6:" + ipv6_regex() + "\\]"});
  return fmt::format("(?:{}|{})@{}", dot_atom, quoted, domain);
}

std::string ipv6_regex() {
  const std::string h16 = fmt::format("{}{{1,4}}", kHexDigit);
  const std::string h16_colon = group(h16 + ":");
  const std::string ls32 = group(h16 + ":" + h16 + "|" + ipv4());
  // RFC 3986 section 3.2.2: the nine shapes, by the number of groups before `::`.
  std::vector<std::string> shapes = {fmt::format("{}{{6}}{}", h16_colon, ls32),
                                     fmt::format("::{}{{5}}{}", h16_colon, ls32)};
  const std::vector<std::string> after = {fmt::format("{}{{4}}{}", h16_colon, ls32),
                                          fmt::format("{}{{3}}{}", h16_colon, ls32),
                                          fmt::format("{}{{2}}{}", h16_colon, ls32),
                                          h16_colon + ls32,
                                          ls32,
                                          h16,
                                          ""};
  for (std::size_t before = 0; before < after.size(); ++before) {
    const std::string prefix =
        before == 0 ? h16 : fmt::format("{}{{0,{}}}{}", h16_colon, before, h16);
    shapes.push_back(fmt::format("(?:{})?::{}", prefix, after[before]));
  }
  return any_of(shapes);
}

std::string uri_regex(bool iri, bool reference) {
  const std::string unreserved = "A-Za-z0-9\\-._~" + (iri ? ucschar_ranges() : std::string());
  const std::string sub_delims = "!$&'()*+,;=";
  const std::string pct = fmt::format("%{}{{2}}", kHexDigit);
  const auto chars = [&](std::string_view extra) {
    return fmt::format("(?:[{}{}{}]|{})", unreserved, sub_delims, extra, pct);
  };
  const std::string pchar = chars(":@");
  const std::string scheme = "[A-Za-z][A-Za-z0-9+\\-.]*";
  const std::string ip_future =
      fmt::format("[vV]{}+\\.[A-Za-z0-9\\-._~{}:]+", kHexDigit, sub_delims);
  const std::string host =
      fmt::format("(?:\\[(?:{}|{})\\]|{}*)", ipv6_regex(), ip_future, chars(""));
  const std::string authority = fmt::format("(?:{}*@)?{}(?::[0-9]*)?", chars(":"), host);
  const std::string segment = pchar + "*";
  const std::string segment_nz = pchar + "+";
  const std::string path_abempty = group("/" + segment) + "*";
  const std::string path_absolute = fmt::format("/(?:{}(?:/{})*)?", segment_nz, segment);
  const std::string path_rootless = fmt::format("{}(?:/{})*", segment_nz, segment);
  const std::string path_noscheme = fmt::format("{}+(?:/{})*", chars("@"), segment);
  const std::string query =
      fmt::format("(?:{}|[/?{}])*", pchar, iri ? iprivate_ranges() : std::string());
  const std::string fragment = fmt::format("(?:{}|[/?])*", pchar);
  const std::string tail = fmt::format("(?:\\?{})?(?:#{})?", query, fragment);
  const std::string hier_part =
      any_of({"//" + authority + path_abempty, path_absolute, path_rootless, ""});
  const std::string absolute = scheme + ":" + hier_part + tail;
  if (!reference) return absolute;
  const std::string relative_part =
      any_of({"//" + authority + path_abempty, path_absolute, path_noscheme, ""});
  return any_of({absolute, relative_part + tail});
}

std::string uri_template_regex() {
  const std::string pct = fmt::format("%{}{{2}}", kHexDigit);
  const std::string literal =
      fmt::format("(?:[!#$&-;=?-\\[\\]_a-z~{}{}]|{})", ucschar_ranges(), iprivate_ranges(), pct);
  const std::string varchar = fmt::format("(?:[A-Za-z0-9_]|{})", pct);
  const std::string varspec = fmt::format("{0}(?:\\.?{0})*(?::[1-9][0-9]{{0,3}}|\\*)?", varchar);
  const std::string expression = fmt::format("\\{{[+#./;?&=,!@|]?{0}(?:,{0})*\\}}", varspec);
  return fmt::format("(?:{}|{})*", literal, expression);
}

std::string ecma_pattern_syntax_regex(int max_group_depth) {
  const std::string hex2 = fmt::format("x{}{{2}}", kHexDigit);
  const std::string hex4 = fmt::format("u{}{{4}}", kHexDigit);
  const std::string property = "[pP]\\{[A-Za-z_]+(?:=[A-Za-z_]+)?\\}";
  // Escapes both modes accept: syntax characters and '/', the class escapes, control letters,
  // hex and basic-plane code points, property classes. In a class '-' and \b (backspace) too.
  const std::string escape = fmt::format(
      "\\\\(?:[\\^$\\\\.*+?()\\[\\]{{}}|/dDwWsSfnrtv]|c[A-Za-z]|{}|{}|{})", hex2, hex4, property);
  const std::string class_escape =
      fmt::format("\\\\(?:[\\^$\\\\.*+?()\\[\\]{{}}|/\\-dDwWsSbfnrtv]|c[A-Za-z]|{}|{}|{})", hex2,
                  hex4, property);
  // Ranges whose order is visible: an ASCII digit or letter up to a later one.
  std::vector<std::string> ranges;
  for (char c = '0'; c <= '9'; ++c) ranges.push_back(fmt::format("{0}-[{0}-9A-Za-z]", c));
  for (char c = 'A'; c <= 'Z'; ++c) ranges.push_back(fmt::format("{0}-[{0}-Za-z]", c));
  for (char c = 'a'; c <= 'z'; ++c) ranges.push_back(fmt::format("{0}-[{0}-z]", c));
  const std::string char_class =
      fmt::format("\\[\\^?-?(?:{}|[^\\\\\\]\\-]|{})*-?\\]", any_of(ranges), class_escape);
  // Counts: {n}, {n,} and {n,m} with n a digit and m no smaller, or m longer than n.
  std::vector<std::string> counts = {"[0-9]+,?", "0,[0-9]+", "[1-9][0-9],[1-9][0-9]{2,}",
                                     "[1-9][0-9]{2},[1-9][0-9]{3,}"};
  for (char d = '1'; d <= '9'; ++d) counts.push_back(fmt::format("{0},(?:[{0}-9]|[1-9][0-9]+)", d));
  const std::string quantifier = fmt::format("(?:[*+?]|\\{{{}\\}})\\??", any_of(counts));
  const std::string plain_atom = any_of({"[^\\\\^$.*+?()\\[\\]{}|]", "\\.", escape, char_class});
  const std::string plain_assertion = "(?:\\^|\\$|\\\\[bB])";
  const auto disjunction = [](const std::string& term) {
    return fmt::format("{0}*(?:\\|{0}*)*", term);
  };
  // Lookarounds hold no groups, so that each level names the one below once (no doubling).
  const std::string flat =
      disjunction(any_of({plain_assertion, plain_atom + group(quantifier) + "?"}));
  const std::string lookaround = fmt::format("\\(\\?(?:=|!|<=|<!){}\\)", flat);
  const std::string group_open = "\\((?:\\?:|\\?<[A-Za-z_$][A-Za-z0-9_$]*>)?";
  std::string level = flat;
  for (int depth = 1; depth <= max_group_depth; ++depth) {
    const std::string atom = any_of({plain_atom, group_open + level + "\\)"});
    level = disjunction(any_of({plain_assertion, lookaround, atom + group(quantifier) + "?"}));
  }
  return level;
}

}  // namespace glrmask::json_schema
