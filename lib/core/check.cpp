#include "lib/core/check.h"

#include <cstdio>
#include <cstdlib>

namespace glrmask::detail {

void dcheck_failed(const char* condition, const char* file, int line, std::string_view message) {
  std::fprintf(stderr, "%s:%d: GLRMASK_DCHECK(%s) failed%s%.*s\n", file, line, condition,
               message.empty() ? "" : ": ", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

}  // namespace glrmask::detail
