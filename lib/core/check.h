// GLRMASK_DCHECK(condition) and GLRMASK_DCHECK(condition, "format {}", args...): an invariant the
// code relies on, checked in Debug builds and in the sanitizer build (GLRMASK_SANITIZE=ON), where
// CMake defines GLRMASK_ENABLE_DCHECK, and compiled out elsewhere (the condition is not evaluated,
// so it may cost what it likes). A failed check is a bug of glrmask, not bad input: it prints the
// condition, the place and the message to stderr and aborts, so the sanitizer build stops at the
// first broken invariant with a stack trace. Bad input is reported by throwing glrmask::Error,
// never by a DCHECK.
//
// Used where a comment states an invariant or where a bug would be silent (a wrong mask rather
// than a crash): GSS ownership, walk preconditions, ids in range at table lookups, sortedness
// that a binary search or a merge relies on.
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>
#include <utility>

namespace glrmask::detail {

[[noreturn]] void dcheck_failed(const char* condition, const char* file, int line,
                                std::string_view message);

inline std::string dcheck_message() {
  return {};
}
template <class... Args>
std::string dcheck_message(fmt::format_string<Args...> format, Args&&... args) {
  return fmt::format(format, std::forward<Args>(args)...);
}

}  // namespace glrmask::detail

#if defined(GLRMASK_ENABLE_DCHECK)
#define GLRMASK_DCHECK_IS_ON 1
#define GLRMASK_DCHECK(condition, ...)                                    \
  (__builtin_expect(static_cast<bool>(condition), 1)                      \
       ? static_cast<void>(0)                                             \
       : ::glrmask::detail::dcheck_failed(#condition, __FILE__, __LINE__, \
                                          ::glrmask::detail::dcheck_message(__VA_ARGS__)))
#else
#define GLRMASK_DCHECK_IS_ON 0
#define GLRMASK_DCHECK(condition, ...) static_cast<void>(sizeof(static_cast<bool>(condition)))
#endif
