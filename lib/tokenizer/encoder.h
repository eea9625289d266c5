// Text -> token ids with a tokenizer's real pipeline, matching the reference implementation
// (transformers.js, shipped with each tokenizer package) id for id:
//   1. cut out added tokens (longest match, left to right; special or not);
//   2. normalize each remaining section (NFC, Prepend "▁", Replace " " -> "▁", ...);
//   3. pre-tokenize it (the Split regex of Llama-3 / Qwen / gpt-oss, a literal Split, ByteLevel);
//   4. BPE-merge each piece, with byte fallback and <unk> fusing where the model asks for them.
// No BOS/EOS is added: the result equals the reference's encode(text, {add_special_tokens: false}).
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

class Encoder {
 public:
  // Reads `tokenizer_json` (and the tokenizer_config.json beside it). Throws glrmask::Error.
  static Encoder load(const std::filesystem::path& tokenizer_json);
  explicit Encoder(const TokenizerSpec& spec);
  ~Encoder();
  Encoder(Encoder&&) noexcept;
  Encoder& operator=(Encoder&&) noexcept;

  // The ids of `utf8_text`. Throws glrmask::Error naming the byte offset of invalid UTF-8.
  // Safe to call from several threads at once.
  std::vector<TokenId> encode(std::string_view utf8_text) const;

  // As encode(), appending to `out`.
  void encode_append(std::string_view utf8_text, std::vector<TokenId>& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace glrmask
