#include "lib/tokenizer/tokenizer_choice.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/core/settings.h"

namespace glrmask {

std::optional<PaddedTokenizerName> parse_padded_tokenizer_name(std::string_view name) {
  const std::size_t at = name.rfind('@');
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view size_text = name.substr(at + 1);
  const bool numeric =
      !size_text.empty() &&
      std::all_of(size_text.begin(), size_text.end(), [](char c) { return c >= '0' && c <= '9'; });
  // A path may hold an '@' of its own; only a trailing "@<digits>" makes it a padded name.
  if (!numeric && name.find('/') != std::string_view::npos) return std::nullopt;
  const auto malformed = [&](std::string_view why) {
    return Error(fmt::format("tokenizer {:?}: {} (a padded vocabulary is written "
                             "BASE+DONOR[+DONOR...]@SIZE, e.g. llama2+gemma3@262144)",
                             name, why),
                 ErrorCode::kInvalidArgument);
  };
  if (!numeric || size_text.size() > 9) throw malformed("the size after '@' is not a number");
  PaddedTokenizerName padded;
  padded.size = std::stoul(std::string(size_text));
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = std::min(name.find('+', start), at);
    if (end == start) throw malformed("a tokenizer name is empty");
    parts.emplace_back(name.substr(start, end - start));
    if (end == at) break;
    start = end + 1;
  }
  if (parts.size() < 2) throw malformed("no donor tokenizer after the base");
  padded.base = parts.front();
  padded.donors.assign(parts.begin() + 1, parts.end());
  return padded;
}

std::filesystem::path resolve_encoder_tokenizer(std::string_view name) {
  const std::optional<PaddedTokenizerName> padded = parse_padded_tokenizer_name(name);
  return resolve_tokenizer(padded ? std::string_view(padded->base) : name);
}

Vocabulary vocabulary_for(std::string_view name, const TokenizerSpec& spec) {
  Vocabulary vocabulary(spec);
  const std::optional<PaddedTokenizerName> padded = parse_padded_tokenizer_name(name);
  if (!padded) return vocabulary;
  std::vector<Vocabulary> donors;
  for (const std::string& donor : padded->donors)
    donors.push_back(Vocabulary::load(resolve_tokenizer(donor)));
  std::vector<const Vocabulary*> donor_ptrs;
  for (const Vocabulary& donor : donors) donor_ptrs.push_back(&donor);
  return vocabulary.padded(donor_ptrs, padded->size);
}

Vocabulary load_vocabulary(std::string_view name) {
  return vocabulary_for(name, TokenizerSpec::load(resolve_encoder_tokenizer(name)));
}

}  // namespace glrmask
