// The pre-tokenizer of a tokenizer: splits normalized text into the words that BPE merges within.
// Steps run in order, each on every piece the previous one produced: Split (one of the known
// regular expressions, or a literal) and ByteLevel (optional prefix space and GPT-2 split). The
// byte-alphabet mapping of ByteLevel is not done here: byte-level BPE works on raw bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

// A piece of pre-tokenized text: the bytes [begin, end) of the buffer PreTokenizer::split fills.
struct TextSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

class PreTokenizer {
 public:
  explicit PreTokenizer(std::vector<PreTokenizerStep> steps);

  // Splits `text` (valid UTF-8) into `pieces`, which index `buffer`: `buffer` receives `text`
  // and any piece a step rewrites. `scratch` is working space, passed in to reuse its memory.
  void split(std::string_view text, std::string& buffer, std::vector<TextSpan>& pieces,
             std::vector<TextSpan>& scratch) const;

 private:
  std::vector<PreTokenizerStep> steps_;
};

}  // namespace glrmask
