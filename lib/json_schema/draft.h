// The JSON Schema drafts whose meanings differ where the compiler cares: drafts 4 to 7 ignore the
// keywords beside `$ref` and name anchors with `$id: "#name"` (draft 4: `id`); 2019-09 and later
// apply the keywords beside `$ref` and name anchors with `$anchor`. Draft 3 is read as draft 4.
#pragma once

#include <cstdint>
#include <string_view>

namespace glrmask::json_schema {

enum class Draft : std::uint8_t { k4, k6, k7, k2019_09, k2020_12 };

// Parses "4", "6", "7", "2019-09" or "2020-12"; throws glrmask::Error otherwise.
Draft parse_draft(std::string_view name);

}  // namespace glrmask::json_schema
