// Evaluates a JSON Schema `pattern` (ECMA-262 syntax) on a decoded string, for the decisions the
// compiler takes on concrete strings: which enum values a pattern keeps, which declared property
// names a patternProperties pattern matches. std::regex's ECMAScript grammar, on UTF-8 bytes
// (exact for ASCII patterns and names, which is what schemas use).
#pragma once

#include <string>

namespace glrmask::json_schema {

// re.search semantics (not anchored). Throws glrmask::Error naming `where` when std::regex
// cannot read the pattern.
bool ecma_search(const std::string& pattern, const std::string& text, const std::string& where);

}  // namespace glrmask::json_schema
