#include "lib/json_schema/formats.h"

#include "lib/json_schema/format_grammars.h"

namespace glrmask::json_schema {
namespace {

// Groups nested deeper in a `regex` value are outside the accepted subset.
constexpr int kRegexGroupDepth = 4;

}  // namespace

std::optional<FormatRegex> format_regex(std::string_view format) {
  static const std::string kDate =
      R"((?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29))";
  // RFC 3339 time without the leap second (:60): valid only at 23:59 UTC, so at each offset at
  // another local time; the exact relation, and even 23:59:60Z alone beside every date-time,
  // cost the lexer thousands of states.
  static const std::string kTime =
      R"((?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:[Zz]|[+\-](?:[01][0-9]|2[0-3]):[0-5][0-9]))";
  static const std::string kOctet = R"((?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))";
  if (format == "date") return FormatRegex{kDate, 10, 10};
  if (format == "time") return FormatRegex{kTime, 9, std::nullopt};
  if (format == "date-time") return FormatRegex{kDate + "[Tt]" + kTime, 20, std::nullopt};
  if (format == "uuid") {
    return FormatRegex{
        R"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})", 36, 36};
  }
  if (format == "ipv4") return FormatRegex{kOctet + R"((?:\.)" + kOctet + "){3}", 7, 15};
  if (format == "email") return FormatRegex{email_regex(), 5, std::nullopt};
  if (format == "hostname") return FormatRegex{hostname_regex(), 1, 253};
  if (format == "ipv6") return FormatRegex{ipv6_regex(), 2, 45};
  if (format == "uri") return FormatRegex{uri_regex(false, false), 2, std::nullopt};
  if (format == "uri-reference") return FormatRegex{uri_regex(false, true), 0, std::nullopt};
  if (format == "iri") return FormatRegex{uri_regex(true, false), 2, std::nullopt};
  if (format == "iri-reference") return FormatRegex{uri_regex(true, true), 0, std::nullopt};
  if (format == "uri-template") return FormatRegex{uri_template_regex(), 0, std::nullopt};
  // RFC 6901; the reference tokens hold any character, '~' only as ~0 or ~1.
  static const std::string kJsonPointer = "(?:/(?:[^~/]|~[01])*)*";
  if (format == "json-pointer") return FormatRegex{kJsonPointer, 0, std::nullopt};
  if (format == "relative-json-pointer") {
    // draft-handrews-relative-json-pointer-01: a count of levels up, then '#' or a pointer.
    return FormatRegex{"(?:0|[1-9][0-9]*)(?:#|" + kJsonPointer + ")", 1, std::nullopt};
  }
  if (format == "duration") {
    // RFC 3339 appendix A: units in order, no fractions, weeks alone.
    static const std::string kTimePart =
        "T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)";
    return FormatRegex{"P(?:(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)(?:" +
                           kTimePart + ")?|" + kTimePart + "|[0-9]+W)",
                       3, std::nullopt};
  }
  if (format == "regex")
    return FormatRegex{ecma_pattern_syntax_regex(kRegexGroupDepth), 0, std::nullopt};
  return std::nullopt;
}

bool format_regex_is_exact(std::string_view format) {
  return format == "date" || format == "uuid" || format == "ipv4" || format == "ipv6" ||
         format == "uri" || format == "uri-reference" || format == "iri" ||
         format == "iri-reference" || format == "uri-template" || format == "json-pointer" ||
         format == "relative-json-pointer" || format == "duration";
}

}  // namespace glrmask::json_schema
