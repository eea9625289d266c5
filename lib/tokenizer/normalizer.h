// The normalizer of a tokenizer: Unicode normalization (via ICU), Prepend and literal Replace,
// applied in order to each stretch of text between added tokens, as the reference does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

class Normalizer {
 public:
  explicit Normalizer(std::vector<NormalizerStep> steps);

  bool empty() const { return steps_.empty(); }

  // Writes the normalized form of `text` (valid UTF-8) to `out`.
  void apply(std::string_view text, std::string& out) const;

 private:
  std::vector<NormalizerStep> steps_;
};

}  // namespace glrmask
