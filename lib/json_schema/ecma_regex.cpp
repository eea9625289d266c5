// libstdc++'s <regex> trips GCC 12's -Wmaybe-uninitialized inside std::function when built with
// the sanitizers (a false positive in the header); it is confined to this file.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "lib/json_schema/ecma_regex.h"

#include <fmt/format.h>

#include <regex>

#include "lib/core/error.h"
#include "lib/json_schema/document.h"

namespace glrmask::json_schema {

bool ecma_search(const std::string& pattern, const std::string& text, const std::string& where) {
  try {
    return std::regex_search(text, std::regex(pattern, std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    throw Error(fmt::format("{}: pattern cannot be evaluated: {}", where, e.what()),
                ErrorCode::kSchema, schema_location(where));
  }
}

}  // namespace glrmask::json_schema
