// Force-included into every file of the fuzzing build (GLRMASK_FUZZ=ON, clang), and only there.
//
// lib/json_schema/value.h's JsonValue holds std::vector<std::pair<std::string, JsonValue>>.
// GCC accepts it; clang 16 with libstdc++ 12 does not: defining JsonValue's implicit default
// constructor instantiates std::pair<std::string, JsonValue>, whose default constructor's
// constraint asks whether JsonValue is implicitly default constructible while JsonValue is still
// being defined ("template argument must be a complete class"). Stating the answer, which is
// true, breaks the cycle without changing the library's code. A libstdc++ internal is named:
// the fuzzing build only ever uses the Debian toolchain scripts/setup.sh installs.
#pragma once

#include <type_traits>

namespace glrmask::json_schema {
struct JsonValue;
}

template <>
struct std::__is_implicitly_default_constructible<glrmask::json_schema::JsonValue>
    : std::true_type {};
