#include "lib/token_set/list_memo.h"

#include "lib/core/hash_mix.h"

namespace glrmask {

std::uint64_t TokenSetListMemo::hash(std::span<const TokenSetId> list) {
  std::uint64_t h = list.size();
  for (const TokenSetId id : list) h = splitmix64_mix(h ^ id.value());
  return h;
}

}  // namespace glrmask
