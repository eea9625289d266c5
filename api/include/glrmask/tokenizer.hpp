// A tokenizer as glrmask needs it: every token id with the exact bytes it appends to the output,
// which ids are special (never in a mask), and which ids end a text (stop ids, EOS).
//
// Made from a HuggingFace tokenizer.json, or from what an inference engine already holds (the
// token strings of its tokenizer). A Tokenizer is a cheap handle to immutable data: copies share
// it, and it is safe to use from any number of threads. Constraints keep the tokenizer they were
// compiled for alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "glrmask/export.hpp"

namespace glrmask {

// How the token strings given to Tokenizer::from_vocab spell their bytes.
enum class VocabType : std::uint8_t {
  kRaw,           // the strings are the bytes
  kByteFallback,  // SentencePiece (Llama-2, Gemma): '▁' is a space, "<0x0A>" is the byte 0x0A
  kByteLevel,     // GPT-2's byte alphabet (Llama-3, Qwen, gpt-oss): 'Ġ' is a space
};

// What a tokenizer is made with besides its vocabulary.
struct TokenizerOptions {
  // The ids that end a text, the first being the primary EOS; empty: the EOS of
  // tokenizer_config.json. Each must be a special token.
  std::vector<std::int32_t> stop_ids;
  // The model's vocabulary size when its logits are wider than the tokenizer's ids (Qwen3: 151,936
  // logits for 151,669 ids): the ids between are special placeholders, never in a mask, and the
  // bitmask covers them. 0: the tokenizer's own count.
  std::size_t vocab_size = 0;
};

class GLRMASK_API Tokenizer {
 public:
  // Loads a tokenizer.json (and the tokenizer_config.json beside it, for EOS). `name_or_path` is
  // a path, or the name of a tokenizer fetched by the project's setup script ("llama3", "qwen3",
  // ...). `stop_ids` replaces the EOS of tokenizer_config.json when given (instruct models stop on
  // several ids, e.g. Llama-3's <|end_of_text|> and <|eot_id|>); each must be a special token.
  // Throws glrmask::Error (ErrorCode::kTokenizer) naming the file and the JSON path.
  static Tokenizer load(std::string_view name_or_path, std::vector<std::int32_t> stop_ids = {});
  static Tokenizer load(std::string_view name_or_path, const TokenizerOptions& options);
  // The same from the text of a tokenizer.json (what a Hugging Face tokenizer object's
  // `backend_tokenizer.to_str()` gives) and, when not empty, of its tokenizer_config.json; `name`
  // names it in messages. Throws glrmask::Error (kTokenizer) naming the JSON path.
  static Tokenizer from_json(std::string_view tokenizer_json, const TokenizerOptions& options = {},
                             std::string_view name = "<tokenizer.json>",
                             std::string_view config_json = {});

  // The folder where a name such as "llama3" is looked up (<folder>/tokenizers/<name>/...):
  // GLRMASK_CACHE when set, else the build's setup cache, else (a pip-installed package)
  // $XDG_CACHE_HOME/glrmask or ~/.cache/glrmask.
  static std::filesystem::path cache_dir();

  // A tokenizer from its token strings: token id i is `vocab[i]`, spelled as `type` says.
  // `stop_ids` (at least one) end a text; they and `special_ids` are never in a mask except a
  // stop id when the text is complete. Special tokens' strings are taken as their text. Such a
  // tokenizer has no encoder (encode() throws). Throws glrmask::Error (kInvalidArgument) naming
  // the token id of a malformed string or an id out of range.
  // `vocab_size`, when larger than vocab.size(), pads as TokenizerOptions::vocab_size does.
  static Tokenizer from_vocab(std::span<const std::string> vocab, VocabType type,
                              std::vector<std::int32_t> stop_ids,
                              const std::vector<std::int32_t>& special_ids = {},
                              std::size_t vocab_size = 0);

  // The tokenizer as bytes and back (for pickling, and to send it to another process): a loaded
  // or JSON-made tokenizer keeps its tokenizer.json (a loaded one reads its file again here: it
  // must be unchanged), a vocabulary-made one its strings; the options either way.
  std::string serialize() const;
  static Tokenizer deserialize(std::string_view bytes);

  // The number of token ids (the largest id + 1; with padding, the model's vocabulary size).
  std::size_t vocab_size() const;
  // 32-bit words of one bitmask row: ceil(vocab_size() / 32).
  std::size_t bitmask_words() const;
  // The ids that end a text, in the order given; the first is the primary EOS.
  std::span<const std::int32_t> stop_ids() const;
  bool is_stop(std::int32_t id) const;
  bool is_special(std::int32_t id) const;
  // The bytes token `id` appends to the output (empty for special tokens' ids whose text is not
  // output). Throws glrmask::Error for an id out of range.
  std::string_view token_bytes(std::int32_t id) const;
  // The concatenated bytes of `ids`.
  std::string decode(std::span<const std::int32_t> ids) const;

  // Whether encode() is available (a tokenizer loaded from tokenizer.json).
  bool can_encode() const;
  // Text -> ids with the tokenizer's real pipeline (added tokens, normalizer, pre-tokenizer, BPE),
  // identical to the reference implementation. Throws glrmask::Error without an encoder.
  std::vector<std::int32_t> encode(std::string_view text) const;

  // One line: name, kind, number of ids, stop ids.
  std::string description() const;

  // glrmask's own tools reach the internals through these; the Impl type is not public.
  struct Impl;
  const Impl& impl() const { return *impl_; }
  static Tokenizer wrap(std::shared_ptr<const Impl> impl) { return Tokenizer(std::move(impl)); }

 private:
  explicit Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
  friend class Constraint;
};

}  // namespace glrmask
