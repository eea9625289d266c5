// The reference mask engine: tries every token. For each non-special vocabulary token it asks the
// session whether committing the token's bytes would succeed (Session::accepts_bytes, which is
// commit_bytes on a copy), in parallel over tokens with TBB. Slow (one commit per vocabulary
// entry), but it uses nothing the session does not already use, so it is the definition every
// faster engine is tested against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"

namespace glrmask::mask {

struct OracleOptions {
  // Mask words (32 tokens each) per TBB task: large enough that scheduling is noise, small
  // enough that both cores stay busy when costly tokens cluster.
  std::size_t words_per_task = 64;
  // Run on the calling thread only (for profiling and for comparing against the parallel run).
  bool sequential = false;
};

class OracleEngine final : public MaskEngine {
 public:
  // `vocabulary` must outlive the engine.
  explicit OracleEngine(const Vocabulary& vocabulary, OracleOptions options = {});

  std::string_view name() const override { return "oracle"; }
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override;

 private:
  // Fills words [first, last) (tokens 32*first .. 32*last-1).
  void fill_words(const glr::ParseView& parse, std::span<std::uint32_t> words, std::size_t first,
                  std::size_t last) const;

  const Vocabulary& vocabulary_;
  OracleOptions options_;
};

}  // namespace glrmask::mask
