#include "mask/oracle/oracle_engine.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::mask {

OracleEngine::OracleEngine(const Vocabulary& vocabulary, OracleOptions options)
    : vocabulary_(vocabulary), options_(options) {
  options_.words_per_task = std::max<std::size_t>(options_.words_per_task, 1);
}

void OracleEngine::fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) {
  const auto universe = static_cast<std::uint32_t>(vocabulary_.size());
  check_mask_words("oracle", words.size(), universe);
  std::fill(words.begin(), words.end(), 0u);
  if (parse.is_finished()) return;
  if (options_.sequential) {
    fill_words(parse, words, 0, words.size());
  } else {
    // Tasks own disjoint word ranges, so no bit is written by two threads.
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words.size(), options_.words_per_task),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        fill_words(parse, words, range.begin(), range.end());
                      });
  }
  if (const auto eos = vocabulary_.eos(); eos && *eos < universe && parse.is_accepting())
    words[*eos / 32] |= std::uint32_t{1} << (*eos % 32);
}

void OracleEngine::fill_words(const glr::ParseView& parse, std::span<std::uint32_t> words,
                              std::size_t first, std::size_t last) const {
  const std::size_t universe = vocabulary_.size();
  const std::size_t eos = vocabulary_.eos() ? *vocabulary_.eos() : universe;  // decided apart
  for (std::size_t word = first; word < last; ++word) {
    std::uint32_t bits = 0;
    for (std::uint32_t bit = 0; bit < 32; ++bit) {
      const std::size_t id = word * 32 + bit;
      if (id >= universe) break;
      if (id == eos) continue;
      const auto token = static_cast<TokenId>(id);
      if (!vocabulary_.contains(token) || vocabulary_.is_special(token)) continue;
      if (parse.accepts_bytes(vocabulary_.bytes(token))) bits |= std::uint32_t{1} << bit;
    }
    words[word] = bits;
  }
}

}  // namespace glrmask::mask
