#include <fmt/format.h>

#include <algorithm>

#include "api/src/tokenizer_impl.h"
#include "lib/core/error.h"
#include "lib/tokenizer/tokenizer_choice.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {
namespace {

// The vocabulary with the first stop id as its EOS, and the stop ids checked: each a special
// token, none twice.
Vocabulary with_stop_ids(Vocabulary vocabulary, const std::vector<std::int32_t>& stop_ids) {
  for (std::size_t i = 0; i < stop_ids.size(); ++i) {
    const std::int32_t id = stop_ids[i];
    if (id < 0 || static_cast<std::size_t>(id) >= vocabulary.size() ||
        !vocabulary.is_special(static_cast<TokenId>(id)))
      throw Error(fmt::format("{}: stop id {} is not a special token of the vocabulary ({} ids)",
                              vocabulary.name(), id, vocabulary.size()),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    if (std::find(stop_ids.begin(), stop_ids.begin() + static_cast<std::ptrdiff_t>(i), id) !=
        stop_ids.begin() + static_cast<std::ptrdiff_t>(i))
      throw Error(fmt::format("{}: stop id {} is given twice", vocabulary.name(), id),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
  }
  if (stop_ids.empty() || vocabulary.eos() == static_cast<TokenId>(stop_ids.front()))
    return vocabulary;
  return vocabulary.with_eos(static_cast<TokenId>(stop_ids.front()));
}

}  // namespace

Tokenizer::Impl::Impl(Vocabulary vocabulary_in, std::optional<Encoder> encoder_in,
                      std::vector<std::int32_t> stop_ids_in)
    : vocabulary(with_stop_ids(std::move(vocabulary_in), stop_ids_in)),
      encoder(std::move(encoder_in)),
      stop_ids(std::move(stop_ids_in)),
      is_stop(vocabulary.size(), 0) {
  for (const std::int32_t id : stop_ids) is_stop[static_cast<std::size_t>(id)] = 1;
}

TokenId Tokenizer::Impl::checked(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= vocabulary.size())
    throw Error(fmt::format("token id {} is out of range (the {} vocabulary has {} ids)", id,
                            vocabulary.name(), vocabulary.size()),
                ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
  return static_cast<TokenId>(id);
}

const Tokenizer::Impl::Spelling& Tokenizer::Impl::spelling() const {
  std::call_once(spelling_once_, [&] {
    spelling_.token_of.reserve(vocabulary.size());
    for (TokenId id = 0; id < vocabulary.size(); ++id) {
      if (!vocabulary.contains(id) || vocabulary.is_special(id)) continue;
      const std::string_view bytes = vocabulary.bytes(id);
      if (bytes.empty()) continue;
      spelling_.token_of.try_emplace(bytes, id);
      spelling_.longest = std::max(spelling_.longest, bytes.size());
    }
  });
  return spelling_;
}

const mask::VocabularyTables& Tokenizer::Impl::vocabulary_tables() const {
  std::call_once(tables_once_,
                 [&] { tables_ = std::make_unique<const mask::VocabularyTables>(vocabulary); });
  return *tables_;
}

Tokenizer Tokenizer::load(std::string_view name_or_path, std::vector<std::int32_t> stop_ids) {
  const TokenizerSpec spec = TokenizerSpec::load(resolve_encoder_tokenizer(name_or_path));
  Vocabulary vocabulary = vocabulary_for(name_or_path, spec);
  if (stop_ids.empty() && vocabulary.eos())
    stop_ids.push_back(static_cast<std::int32_t>(*vocabulary.eos()));
  return Tokenizer(
      std::make_shared<const Impl>(std::move(vocabulary), Encoder(spec), std::move(stop_ids)));
}

Tokenizer Tokenizer::from_vocab(std::span<const std::string> vocab, VocabType type,
                                std::vector<std::int32_t> stop_ids,
                                const std::vector<std::int32_t>& special_ids) {
  if (stop_ids.empty())
    throw Error("a tokenizer made from its vocabulary needs at least one stop id",
                ErrorCode::kInvalidArgument);
  std::vector<TokenId> special;
  for (const std::int32_t id : special_ids) {
    if (id < 0)
      throw Error(fmt::format("special token id {} is negative", id), ErrorCode::kInvalidArgument,
                  ErrorLocation::of_token(id));
    special.push_back(static_cast<TokenId>(id));
  }
  for (const std::int32_t id : stop_ids) {
    if (id < 0)
      throw Error(fmt::format("stop id {} is negative", id), ErrorCode::kInvalidArgument,
                  ErrorLocation::of_token(id));
    special.push_back(static_cast<TokenId>(id));
  }
  std::sort(special.begin(), special.end());
  special.erase(std::unique(special.begin(), special.end()), special.end());
  const VocabularyKind kind = type == VocabType::kByteLevel      ? VocabularyKind::ByteLevel
                              : type == VocabType::kByteFallback ? VocabularyKind::SentencePiece
                                                                 : VocabularyKind::Raw;
  Vocabulary vocabulary = Vocabulary::from_pieces("vocabulary", vocab, kind, special,
                                                  static_cast<TokenId>(stop_ids.front()));
  return Tokenizer(
      std::make_shared<const Impl>(std::move(vocabulary), std::nullopt, std::move(stop_ids)));
}

std::size_t Tokenizer::vocab_size() const {
  return impl_->vocabulary.size();
}

std::size_t Tokenizer::bitmask_words() const {
  return (impl_->vocabulary.size() + 31) / 32;
}

std::span<const std::int32_t> Tokenizer::stop_ids() const {
  return impl_->stop_ids;
}

bool Tokenizer::is_stop(std::int32_t id) const {
  return impl_->is_stop[impl_->checked(id)] != 0;
}

bool Tokenizer::is_special(std::int32_t id) const {
  return impl_->vocabulary.is_special(impl_->checked(id));
}

std::string_view Tokenizer::token_bytes(std::int32_t id) const {
  return impl_->vocabulary.bytes(impl_->checked(id));
}

std::string Tokenizer::decode(std::span<const std::int32_t> ids) const {
  std::string text;
  for (const std::int32_t id : ids) text.append(impl_->vocabulary.bytes(impl_->checked(id)));
  return text;
}

bool Tokenizer::can_encode() const {
  return impl_->encoder.has_value();
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view text) const {
  if (!impl_->encoder)
    throw Error(fmt::format("the tokenizer {} has no encoder (it was made from its vocabulary, "
                            "not from a tokenizer.json)",
                            impl_->vocabulary.name()),
                ErrorCode::kState);
  const std::vector<TokenId> ids = impl_->encoder->encode(text);
  return std::vector<std::int32_t>(ids.begin(), ids.end());
}

std::string Tokenizer::description() const {
  std::string stops;
  for (const std::int32_t id : impl_->stop_ids) {
    if (!stops.empty()) stops += ", ";
    stops +=
        fmt::format("{} {:?}", id, std::string(impl_->vocabulary.piece(static_cast<TokenId>(id))));
  }
  return fmt::format("{}; stop ids: {}", impl_->vocabulary.description(),
                     stops.empty() ? "none" : stops);
}

}  // namespace glrmask
