// The vocabulary of an LLM tokenizer: for every token id, the exact bytes the token adds to the
// output, whether it is special (kept out of masks), and which id is EOS.
//
// Byte strings live back to back in one buffer with an offset table, so walking all tokens (as the
// lexer's vocabulary trie does) touches two flat arrays.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

class Vocabulary {
 public:
  // Reads `tokenizer_json` and the tokenizer_config.json beside it (for EOS). Throws
  // glrmask::Error naming the file and the problem.
  static Vocabulary load(const std::filesystem::path& tokenizer_json);
  explicit Vocabulary(const TokenizerSpec& spec);
  // A vocabulary from what an inference engine already holds: token `id` is `pieces[id]`, written
  // as `kind` says (ByteLevel: GPT-2's byte alphabet; SentencePiece: '▁' for the space and
  // `<0xNN>` byte tokens; Raw: the bytes themselves). Special tokens' pieces are their text in
  // every kind. `eos` must be one of `special`. Throws glrmask::Error naming the token id of a
  // piece that is not valid in `kind`, or an id out of range.
  static Vocabulary from_pieces(std::string name, std::span<const std::string> pieces,
                                VocabularyKind kind, std::span<const TokenId> special,
                                std::optional<TokenId> eos);

  // Number of ids: the largest id + 1. Ids without an entry (holes) are absent.
  std::size_t size() const { return offsets_.size() - 1; }
  bool contains(TokenId id) const { return id < size() && (flags_[id] & kPresent); }

  // The bytes the token contributes to the output: byte-level strings decoded from the GPT-2
  // alphabet; SentencePiece strings with '▁' as a space and <0xNN> as that byte; added tokens as
  // their text. Empty for holes. Throws glrmask::Error for an id >= size().
  std::string_view bytes(TokenId id) const;

  // The token as tokenizer.json writes it ("Ġthe", "▁the", "<0x0A>", "<|eot_id|>").
  std::string_view piece(TokenId id) const;

  // Special tokens (added tokens marked special, and tokenizer_config's additional special
  // tokens) never appear in masks except EOS. Added tokens not marked special, such as Gemma's
  // whitespace runs, are ordinary tokens.
  bool is_special(TokenId id) const { return id < size() && (flags_[id] & kSpecial); }
  const std::vector<TokenId>& special_ids() const { return special_ids_; }

  // The end-of-sequence token named by tokenizer_config.json; nullopt when that file is missing
  // or names none (description() then says so).
  std::optional<TokenId> eos() const { return eos_; }

  VocabularyKind kind() const { return kind_; }

  // This vocabulary with `eos` as its end-of-sequence token (an instruct model's stop token
  // instead of tokenizer_config.json's). Throws glrmask::Error unless `eos` is a special token.
  Vocabulary with_eos(TokenId eos) const;

  // A short name for printing: the tokenizer's folder name (e.g. "llama3").
  const std::string& name() const { return name_; }
  // One line: name, kind, number of ids, EOS.
  std::string description() const;

  // The concatenated bytes of `ids` (throws glrmask::Error for an id >= size()).
  std::string decode(std::span<const TokenId> ids) const;

  // This vocabulary grown to `size` ids with the ordinary tokens of `donors`, taken in order
  // (each donor in id order), for experiments that vary the vocabulary size while the text keeps
  // its tokenization: every existing id, EOS and special token stays as it is, so this
  // tokenizer's encoder still applies. A donor token is skipped when it is special, empty, or
  // its bytes are already a token. Appended tokens are ordinary and their piece is their bytes;
  // the name becomes "<name>+<donor>...@<size>". Throws glrmask::Error when `size` is below
  // size() or the donors run out of new tokens first.
  Vocabulary padded(std::span<const Vocabulary* const> donors, std::size_t size) const;

  // This vocabulary with ids [size(), size) added as special tokens of no bytes: a model whose
  // logits are wider than its tokenizer (Qwen3: 151,669 ids, 151,936 logits) samples from the
  // padded width, and no padding id may ever be in a mask. Throws glrmask::Error
  // (kInvalidArgument) when `size` is below size() or past the limit of ids.
  Vocabulary with_padding(std::size_t size) const;

  // This vocabulary for a constraint with token terminals (lib/core/token_terminal.h): each of
  // `ids` spells token_terminal_bytes(id) and is ordinary, and every other token whose bytes hold
  // 0xFF becomes special (no UTF-8 text has that byte, so such a token was never in a mask; now
  // it could begin a token's stand-in). Throws glrmask::Error naming an id that is not a token,
  // or EOS.
  Vocabulary with_token_terminals(std::span<const TokenId> ids) const;

  // A 64-bit fingerprint of what a compiled mask depends on: the number of ids, every token's
  // bytes, which ids are special, and EOS (not the name or the pieces). A saved artifact records
  // it, and every load compares it, so it is computed once per vocabulary — on the first call,
  // a pass over every token — and kept. Safe concurrently: racing first calls compute the same
  // value. A copy (with_eos, padded) computes its own.
  std::uint64_t fingerprint() const;

 private:
  Vocabulary() = default;

  static constexpr std::uint8_t kPresent = 1;
  static constexpr std::uint8_t kSpecial = 2;
  // As TokenizerSpec: ids stay below 2^26.
  static constexpr std::size_t kMaxPaddedSize = std::size_t{1} << 26;

  VocabularyKind kind_ = VocabularyKind::SentencePiece;
  std::string name_;
  std::string bytes_;                   // all byte strings, back to back
  std::vector<std::uint32_t> offsets_;  // id -> start in bytes_; size() + 1 entries
  std::string pieces_;                  // all token strings as written in the file
  std::vector<std::uint32_t> piece_offsets_;
  std::vector<std::uint8_t> flags_;
  std::vector<TokenId> special_ids_;
  std::optional<TokenId> eos_;
  std::string eos_note_;  // why there is no EOS, for description()

  // fingerprint() once computed, or 0. Copies and moves start over: the vocabulary functions
  // that copy a vocabulary change the copy afterwards.
  struct FingerprintCache {
    FingerprintCache() = default;
    FingerprintCache(const FingerprintCache&) {}
    FingerprintCache& operator=(const FingerprintCache&) {
      value.store(0, std::memory_order_relaxed);
      return *this;
    }
    mutable std::atomic<std::uint64_t> value{0};
  };
  FingerprintCache fingerprint_;
};

}  // namespace glrmask
