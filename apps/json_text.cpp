#include "apps/json_text.h"

#include "lib/core/escape.h"
#include "lib/core/unicode_utf8.h"

namespace glrmask::app {

std::string json_string(std::string_view bytes) {
  return json_quoted(bytes);
}

bool is_valid_utf8(std::string_view bytes) {
  return !find_invalid_utf8(bytes).has_value();
}

}  // namespace glrmask::app
