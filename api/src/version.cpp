#include "glrmask/version.hpp"

namespace glrmask {

const char* version() noexcept {
  return GLRMASK_VERSION_STRING;
}

}  // namespace glrmask
