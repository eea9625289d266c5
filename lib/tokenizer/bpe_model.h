// Byte-pair encoding of one pre-tokenized word, as the reference (transformers.js) does it:
// start from single characters (bytes for byte-level vocabularies), repeatedly merge the adjacent
// pair with the lowest merge rank (the leftmost among equal ranks) using a priority queue over a
// linked list of symbols, then map pieces without a vocabulary entry to <0xNN> byte tokens or to
// <unk>. Results for short words are cached per thread.
//
// SentencePiece-style tokenizers have no pre-tokenizer, so a "word" is a whole line. It is cut
// before each '▁' that follows another character, unless a vocabulary token spans that point:
// every symbol BPE builds is a vocabulary token and a substring of the word, so when no token
// covers a cut, no pair across it ever merges, and merging the parts one by one (in the same
// rank-then-position order) gives the same result. The parts repeat, so the cache works again.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/tokenizer/bpe_merge_table.h"
#include "lib/tokenizer/bpe_string_table.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

class BpeModel {
 public:
  explicit BpeModel(const TokenizerSpec& spec);

  // Appends the ids of `word`: raw bytes for byte-level vocabularies, else UTF-8 text as the
  // normalizer left it ('▁' for spaces). Safe to call from several threads at once.
  void encode_word(std::string_view word, std::vector<TokenId>& out) const;

  std::optional<TokenId> unk_id() const { return unk_id_; }

 private:
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };

  struct Symbol {
    TokenId id;  // kNoToken: a character without a vocabulary entry; kDead: merged away
    std::uint32_t begin, end;  // bytes of the word it covers
    std::int32_t prev, next;   // neighbours in the linked list, -1 at the ends
  };
  struct Candidate {  // a pair that may merge, in the priority queue
    std::uint32_t rank, begin;
    std::int32_t left;
    TokenId left_id, right_id, merged;
  };
  struct PerThread {
    std::unordered_map<std::string, std::pair<std::uint32_t, std::uint32_t>, StringHash,
                       std::equal_to<>>
        cached;                       // word -> [offset, length) in `cached_ids`
    std::vector<TokenId> cached_ids;  // the cached results, back to back
    std::vector<Symbol> symbols;
    std::vector<Candidate> queue;
  };

  // A vocabulary token with a '▁' after another character, at byte `junction`.
  struct Spanning {
    std::string token;
    std::size_t junction;
  };

  std::size_t next_cut(std::string_view word, std::size_t start) const;
  void encode_part(std::string_view part, PerThread& scratch, std::vector<TokenId>& out) const;
  TokenId symbol_of_char(char32_t c) const;
  void merge_word(std::string_view word, PerThread& scratch, std::vector<TokenId>& out) const;
  void emit_unknown(std::string_view piece, std::vector<TokenId>& out) const;

  VocabularyKind kind_;
  // Token (raw bytes for byte-level vocabularies) -> id: the model's vocab with the added tokens
  // on top, like the reference's tokens_to_ids.
  TokenStringTable ids_;
  MergeTable merges_;
  std::array<TokenId, 256> byte_symbol_;   // byte-level: the token of each single byte
  std::array<TokenId, 128> ascii_symbol_;  // SentencePiece: the token of each ASCII character
  std::unordered_map<char32_t, TokenId> char_symbol_;  // SentencePiece: single-character tokens
  std::array<TokenId, 256> fallback_byte_;             // the <0xNN> tokens (kNoToken where absent)
  std::vector<Spanning> spanning_;                     // SentencePiece: tokens that prevent a cut
  bool byte_fallback_ = false;
  bool ignore_merges_ = false;
  std::optional<TokenId> unk_id_;
  mutable tbb::enumerable_thread_specific<PerThread> per_thread_;
};

}  // namespace glrmask
