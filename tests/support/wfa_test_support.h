// Helpers shared by the mask-engine tests (oracle, spanner).
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "glr/session.h"
#include "lib/token_set/dense_mask.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"

namespace glrmask::testing {

// The engine's mask for the session, over the whole vocabulary.
inline DenseMask engine_mask(mask::MaskEngine& engine, const glr::Session& session,
                             const Vocabulary& vocabulary) {
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  engine.fill_mask(session, mask.words());
  return mask;
}

// The engine's mask_view() of the session, copied out. The scratch buffer starts as garbage, so
// a view that hands back scratch without having written all of it shows up as a wrong mask.
inline DenseMask engine_mask_view(mask::MaskEngine& engine, const glr::Session& session,
                                  const Vocabulary& vocabulary) {
  DenseMask scratch(static_cast<std::uint32_t>(vocabulary.size()));
  std::fill(scratch.words().begin(), scratch.words().end(), 0xa5a5a5a5u);
  const std::span<const std::uint32_t> view = engine.mask_view(session, scratch.words());
  DenseMask mask(static_cast<std::uint32_t>(vocabulary.size()));
  REQUIRE(view.size() == mask.words().size());
  std::copy(view.begin(), view.end(), mask.words().begin());
  return mask;
}

// Every string over `alphabet` of length 0..n, shortest first.
inline std::vector<std::string> strings_up_to(const std::string& alphabet, std::size_t n) {
  std::vector<std::string> all{""};
  for (std::size_t begin = 0, length = 0; length < n; ++length) {
    const std::size_t end = all.size();
    for (std::size_t i = begin; i < end; ++i)
      for (const char c : alphabet) all.push_back(all[i] + c);
    begin = end;
  }
  return all;
}

// The id of the token whose bytes are `bytes` (the test fails when there is none).
inline TokenId token_of(const Vocabulary& vocabulary, const std::string& bytes) {
  for (TokenId id = 0; id < vocabulary.size(); ++id)
    if (vocabulary.bytes(id) == bytes) return id;
  FAIL("no token \"" << bytes << "\"");
  return 0;
}

}  // namespace glrmask::testing
