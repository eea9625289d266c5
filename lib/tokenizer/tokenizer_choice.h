// What a --tokenizer argument names: a tokenizer of the setup cache (llama2, llama3, ...), the
// path of a tokenizer.json, or a padded vocabulary written BASE+DONOR[+DONOR...]@SIZE.
//
// "llama2+gemma3@262144" is Llama-2's tokenizer (its encoder, ids and EOS) with the vocabulary
// grown to 262,144 ids by Gemma-3's tokens (Vocabulary::padded). Every text keeps its
// tokenization, so only the vocabulary size changes: the experiments use it to measure what
// depends on the size alone, which the real tokenizers cannot show (they tokenize differently
// too). Each part is a name or a path without '+'.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/tokenizer/tokenizer_spec.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask {

struct PaddedTokenizerName {
  std::string base;
  std::vector<std::string> donors;
  std::size_t size = 0;
};

// nullopt for a plain name or a path. Throws glrmask::Error for a name that ends in "@<digits>"
// but is not of the padded form, and for a name without '/' that has an '@' and is not.
std::optional<PaddedTokenizerName> parse_padded_tokenizer_name(std::string_view name);

// The tokenizer.json whose encoder serves `name`: its own, or a padded name's base.
std::filesystem::path resolve_encoder_tokenizer(std::string_view name);

// The vocabulary `name` stands for, given the spec loaded from resolve_encoder_tokenizer(name):
// the spec's own, or that one padded with the donors' tokens.
Vocabulary vocabulary_for(std::string_view name, const TokenizerSpec& spec);

// The same, loading the spec itself.
Vocabulary load_vocabulary(std::string_view name);

}  // namespace glrmask
