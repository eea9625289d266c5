// The id of an LLM vocabulary entry. Ids are dense indices into the tokenizer's vocabulary
// (0 .. size-1); 32 bits cover every vocabulary in use (the largest has ~262k entries).
#pragma once

#include <cstdint>

namespace glrmask {

using TokenId = std::uint32_t;

}  // namespace glrmask
