// What a HuggingFace `tokenizer.json` (and the `tokenizer_config.json` beside it) says, read once
// and checked, in the form Vocabulary and Encoder are built from. Only what the encoder implements
// is accepted: a BPE model with the normalizers and pre-tokenizers listed below. Anything else is
// rejected with a glrmask::Error that names the file and the JSON path of the offending part, so a
// tokenizer is never silently encoded differently from its reference implementation.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/core/token_id.h"

namespace glrmask {

// How token strings in the vocabulary spell bytes.
enum class VocabularyKind {
  ByteLevel,      // GPT-2 byte alphabet: every byte is one character ('Ġ' is the space)
  SentencePiece,  // text as is, '▁' (U+2581) for the space, `<0xNN>` byte-fallback tokens
  Raw,            // the pieces are the bytes (a vocabulary given as byte strings)
};

// The pre-tokenizer regular expressions the encoder knows. Each is matched by hand-written code
// (see pretokenizer.h); an unknown expression is rejected.
enum class SplitRegex {
  Gpt2,    // ByteLevel's built-in pattern: 's|'t|...| ?\p{L}+| ?\p{N}+|...
  Llama3,  // (?i:'s|...)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|...
  Qwen2,   // as Llama3 but \p{N} one digit at a time
  O200k,   // gpt-oss: case-aware words with \p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}, ...[\r\n/]*
};

struct AddedTokenSpec {
  TokenId id = 0;
  std::string content;
  bool special = false;
  bool lstrip = false;  // strip whitespace before it in the text
  bool rstrip = false;  // strip whitespace after it in the text
};

struct NormalizerStep {
  enum class Kind { Nfc, Nfd, Nfkc, Nfkd, Prepend, Replace };
  Kind kind = Kind::Nfc;
  std::string text;         // Prepend: the prefix. Replace: the literal that is replaced.
  std::string replacement;  // Replace: what replaces it.
};

struct PreTokenizerStep {
  enum class Kind { SplitRegex, SplitLiteral, ByteLevel };
  Kind kind = Kind::ByteLevel;
  SplitRegex regex = SplitRegex::Gpt2;  // SplitRegex
  std::string literal;                  // SplitLiteral
  bool invert = false;                  // Split: keep only the matches, drop the text between
  bool add_prefix_space = false;        // ByteLevel: put a space before text not starting with one
  bool use_regex = true;                // ByteLevel: split with the GPT-2 pattern first
};

struct TokenizerSpec {
  std::filesystem::path path;  // the tokenizer.json
  VocabularyKind kind = VocabularyKind::SentencePiece;

  // The BPE model. Token strings are as written in the file (byte-level ones in the byte alphabet);
  // ids are below 2^26.
  // The views point into `storage`, the parsed file, so that the half million merges of a large
  // tokenizer cost no allocations; copy what must outlive the spec.
  std::vector<std::pair<std::string_view, TokenId>> vocab;            // model.vocab, file order
  std::vector<std::pair<std::string_view, std::string_view>> merges;  // model.merges, rank = index
  std::optional<std::string> unk_token;
  bool byte_fallback = false;  // unknown pieces become <0xNN> tokens
  bool ignore_merges = false;  // a pre-token that is a whole vocabulary entry is not merged
  bool fuse_unk = false;       // consecutive unknown pieces become one <unk>

  std::vector<AddedTokenSpec> added_tokens;
  std::vector<NormalizerStep> normalizers;
  std::vector<PreTokenizerStep> pre_tokenizers;

  // From tokenizer_config.json; `has_config` is false when that file does not exist.
  bool has_config = false;
  std::optional<std::string> eos_token;
  std::vector<std::string> additional_special_tokens;

  std::shared_ptr<const void> storage;

  // Reads `tokenizer_json` and the tokenizer_config.json in the same folder.
  static TokenizerSpec load(const std::filesystem::path& tokenizer_json);
  // The same from the text of a tokenizer.json (what a Hugging Face tokenizer object's
  // backend_tokenizer.to_str() gives), named `name` in messages, and of its tokenizer_config.json
  // when given.
  static TokenizerSpec parse(std::string_view tokenizer_json, const std::string& name,
                             const std::optional<std::string>& config_json = std::nullopt);
};

}  // namespace glrmask
