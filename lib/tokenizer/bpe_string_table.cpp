#include "lib/tokenizer/bpe_string_table.h"

#include <functional>

namespace glrmask {

std::uint64_t TokenStringTable::hash_of(std::string_view key) {
  // std::hash gives 64 well-mixed bits on 64-bit targets (libstdc++: murmur-style); the high bits
  // pick the slot and are the tag.
  return std::hash<std::string_view>{}(key);
}

}  // namespace glrmask
