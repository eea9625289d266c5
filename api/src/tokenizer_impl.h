// What a glrmask::Tokenizer handle holds: the vocabulary the engines read (its EOS is the first
// stop id), the encoder when the tokenizer came from a tokenizer.json, and the stop ids.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "glrmask/tokenizer.hpp"
#include "lib/tokenizer/encoder.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/lazy/vocabulary_tables.h"

namespace glrmask {

struct Tokenizer::Impl {
  Vocabulary vocabulary;
  // Shared with the tokenizers derived from this one (api/src/token_terminals.h).
  std::shared_ptr<const Encoder> encoder;
  std::vector<std::int32_t> stop_ids;
  std::vector<std::uint8_t> is_stop;  // per id

  // What the tokenizer was made from, for serialize().
  struct Source {
    enum class Kind : std::uint8_t { kFile, kJson, kVocab, kNone } kind = Kind::kFile;
    std::string name;  // the name or path given (kFile), the name of the text (kJson)
    std::shared_ptr<const std::string> json;         // kJson: tokenizer.json's text
    std::shared_ptr<const std::string> config_json;  // kJson: tokenizer_config.json's, or empty
    std::shared_ptr<const std::vector<std::string>> pieces;  // kVocab
    VocabType type = VocabType::kRaw;                        // kVocab
    std::vector<std::int32_t> special_ids;                   // kVocab
    std::size_t vocab_size = 0;                              // the padded size asked for (0: none)
  };
  Source source;

  Impl(Vocabulary vocabulary_in, std::optional<Encoder> encoder_in,
       std::vector<std::int32_t> stop_ids_in, Source source_in);
  Impl(Vocabulary vocabulary_in, std::shared_ptr<const Encoder> encoder_in,
       std::vector<std::int32_t> stop_ids_in, Source source_in);
  // A tokenizer that cannot be serialized (the harness's, made from an engine's vocabulary).
  Impl(Vocabulary vocabulary_in, std::optional<Encoder> encoder_in,
       std::vector<std::int32_t> stop_ids_in);

  // Throws glrmask::Error (kInvalidArgument) naming `id` when it is not a token id.
  TokenId checked(std::int32_t id) const;

  // Ordinary (not special) tokens by their bytes (the lowest id where several share them), for
  // spelling a string with tokens; built on first use.
  struct Spelling {
    std::unordered_map<std::string_view, TokenId> token_of;
    std::size_t longest = 0;  // bytes of the longest token
  };
  const Spelling& spelling() const;

  // The vocabulary's trie and plain string tokens, for the lazy and staged engines; built on
  // first use (about a second with a 128k vocabulary) and shared by every constraint of this
  // tokenizer.
  const mask::VocabularyTables& vocabulary_tables() const;

 private:
  mutable std::once_flag spelling_once_;
  mutable Spelling spelling_;
  mutable std::once_flag tables_once_;
  mutable std::unique_ptr<const mask::VocabularyTables> tables_;
};

}  // namespace glrmask
