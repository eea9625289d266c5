#include "lib/json_schema/formats.h"

namespace glrmask::json_schema {

std::optional<FormatRegex> format_regex(std::string_view format) {
  static const std::string kDate =
      R"((?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29))";
  static const std::string kTime =
      R"((?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:[Zz]|[+\-](?:[01][0-9]|2[0-3]):[0-5][0-9]))";
  static const std::string kOctet = R"((?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))";
  static const std::string kLabel = R"([A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)";
  if (format == "date") return FormatRegex{kDate, 10, 10};
  if (format == "time") return FormatRegex{kTime, 9, std::nullopt};
  if (format == "date-time") return FormatRegex{kDate + "[Tt]" + kTime, 20, std::nullopt};
  if (format == "uuid") {
    return FormatRegex{
        R"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})", 36, 36};
  }
  if (format == "ipv4") return FormatRegex{kOctet + R"((?:\.)" + kOctet + "){3}", 7, 15};
  if (format == "email") {
    return FormatRegex{R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)", 5,
                       std::nullopt};
  }
  if (format == "hostname") {
    return FormatRegex{kLabel + R"((?:\.)" + kLabel + ")*", 1, std::nullopt};
  }
  if (format == "uri") {
    return FormatRegex{R"([A-Za-z][A-Za-z0-9+.\-]*:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*)", 2,
                       std::nullopt};
  }
  return std::nullopt;
}

bool format_regex_is_exact(std::string_view format) {
  return format == "date" || format == "uuid" || format == "ipv4";
}

}  // namespace glrmask::json_schema
