// URI references as JSON Schema uses them to name schemas (`$id`, `$ref`): RFC 3986's
// resolution of a reference against a base URI (section 5.2) with its removal of dot segments,
// on the text of the URIs (no percent-decoding or case folding beyond what RFC 3986 requires).
#pragma once

#include <string>
#include <string_view>

namespace glrmask::json_schema {

// The target of `reference` resolved against `base` (RFC 3986 section 5.2.2). An empty base (a
// document without an `$id`) leaves a relative reference relative, its dot segments removed.
std::string resolve_uri(std::string_view base, std::string_view reference);

// `uri` without its fragment, and the fragment (without '#'; empty when there is none).
std::string without_fragment(std::string_view uri);
std::string fragment_of(std::string_view uri);

}  // namespace glrmask::json_schema
