#include <fmt/format.h>

#include <algorithm>

#include "api/src/tokenizer_impl.h"
#include "lib/core/binary_io.h"
#include "lib/core/error.h"
#include "lib/core/file_io.h"
#include "lib/core/settings.h"
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

// The vocabulary padded to the model's size when one is given.
Vocabulary padded(Vocabulary vocabulary, std::size_t vocab_size) {
  if (vocab_size == 0 || vocab_size == vocabulary.size()) return vocabulary;
  return vocabulary.with_padding(vocab_size);
}

// Tokenizer::serialize's format: a version, then the source's kind and what it holds.
constexpr std::uint32_t kTokenizerFormat = 1;

}  // namespace

Tokenizer::Impl::Impl(Vocabulary vocabulary_in, std::optional<Encoder> encoder_in,
                      std::vector<std::int32_t> stop_ids_in, Source source_in)
    : Impl(std::move(vocabulary_in),
           encoder_in ? std::make_shared<const Encoder>(std::move(*encoder_in)) : nullptr,
           std::move(stop_ids_in), std::move(source_in)) {}

Tokenizer::Impl::Impl(Vocabulary vocabulary_in, std::shared_ptr<const Encoder> encoder_in,
                      std::vector<std::int32_t> stop_ids_in, Source source_in)
    : vocabulary(with_stop_ids(std::move(vocabulary_in), stop_ids_in)),
      encoder(std::move(encoder_in)),
      stop_ids(std::move(stop_ids_in)),
      is_stop(vocabulary.size(), 0),
      source(std::move(source_in)) {
  for (const std::int32_t id : stop_ids) is_stop[static_cast<std::size_t>(id)] = 1;
}

Tokenizer::Impl::Impl(Vocabulary vocabulary_in, std::optional<Encoder> encoder_in,
                      std::vector<std::int32_t> stop_ids_in)
    : Impl(std::move(vocabulary_in), std::move(encoder_in), std::move(stop_ids_in), Source{}) {
  source.kind = Source::Kind::kNone;
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
  TokenizerOptions options;
  options.stop_ids = std::move(stop_ids);
  return load(name_or_path, options);
}

Tokenizer Tokenizer::load(std::string_view name_or_path, const TokenizerOptions& options) {
  const TokenizerSpec spec = TokenizerSpec::load(resolve_encoder_tokenizer(name_or_path));
  Vocabulary vocabulary = padded(vocabulary_for(name_or_path, spec), options.vocab_size);
  std::vector<std::int32_t> stop_ids = options.stop_ids;
  if (stop_ids.empty() && vocabulary.eos())
    stop_ids.push_back(static_cast<std::int32_t>(*vocabulary.eos()));
  Impl::Source source;
  source.name = std::string(name_or_path);
  source.vocab_size = options.vocab_size;
  return Tokenizer(std::make_shared<const Impl>(std::move(vocabulary), Encoder(spec),
                                                std::move(stop_ids), std::move(source)));
}

Tokenizer Tokenizer::from_json(std::string_view tokenizer_json, const TokenizerOptions& options,
                               std::string_view name, std::string_view config_json) {
  Impl::Source source;
  source.kind = Impl::Source::Kind::kJson;
  source.name = std::string(name);
  source.json = std::make_shared<const std::string>(tokenizer_json);
  if (!config_json.empty()) source.config_json = std::make_shared<const std::string>(config_json);
  source.vocab_size = options.vocab_size;
  const TokenizerSpec spec = TokenizerSpec::parse(
      *source.json, source.name,
      config_json.empty() ? std::nullopt : std::optional<std::string>(config_json));
  Vocabulary vocabulary = padded(Vocabulary(spec), options.vocab_size);
  std::vector<std::int32_t> stop_ids = options.stop_ids;
  if (stop_ids.empty() && vocabulary.eos())
    stop_ids.push_back(static_cast<std::int32_t>(*vocabulary.eos()));
  return Tokenizer(std::make_shared<const Impl>(std::move(vocabulary), Encoder(spec),
                                                std::move(stop_ids), std::move(source)));
}

Tokenizer Tokenizer::from_vocab(std::span<const std::string> vocab, VocabType type,
                                std::vector<std::int32_t> stop_ids,
                                const std::vector<std::int32_t>& special_ids,
                                std::size_t vocab_size) {
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
  Vocabulary vocabulary = padded(Vocabulary::from_pieces("vocabulary", vocab, kind, special,
                                                         static_cast<TokenId>(stop_ids.front())),
                                 vocab_size);
  Impl::Source source;
  source.kind = Impl::Source::Kind::kVocab;
  source.name = "vocabulary";
  source.pieces = std::make_shared<const std::vector<std::string>>(vocab.begin(), vocab.end());
  source.type = type;
  source.special_ids = special_ids;
  source.vocab_size = vocab_size;
  return Tokenizer(std::make_shared<const Impl>(std::move(vocabulary), std::nullopt,
                                                std::move(stop_ids), std::move(source)));
}

std::filesystem::path Tokenizer::cache_dir() {
  return glrmask::cache_dir();
}

std::string Tokenizer::serialize() const {
  const Impl::Source& source = impl_->source;
  BinaryWriter out;
  out.put(kTokenizerFormat);
  std::string json;
  std::string config;
  Impl::Source::Kind kind = source.kind;
  if (kind == Impl::Source::Kind::kNone)
    throw Error("this tokenizer was made from an engine's vocabulary and cannot be serialized",
                ErrorCode::kUnsupported);
  if (kind == Impl::Source::Kind::kFile) {
    // A loaded tokenizer travels as its files' text.
    const std::filesystem::path path = resolve_encoder_tokenizer(source.name);
    json = read_text_file(path);
    const std::filesystem::path config_path = path.parent_path() / "tokenizer_config.json";
    std::error_code ec;
    if (std::filesystem::exists(config_path, ec)) config = read_text_file(config_path);
    kind = Impl::Source::Kind::kJson;
  } else if (kind == Impl::Source::Kind::kJson) {
    json = *source.json;
    if (source.config_json) config = *source.config_json;
  }
  out.put(static_cast<std::uint8_t>(kind));
  out.put_string(source.name);
  out.put<std::uint64_t>(source.vocab_size);
  out.put<std::uint64_t>(impl_->stop_ids.size());
  for (const std::int32_t id : impl_->stop_ids) out.put(id);
  if (kind == Impl::Source::Kind::kJson) {
    out.put_string(json);
    out.put_string(config);
  } else {
    out.put(static_cast<std::uint8_t>(source.type));
    out.put<std::uint64_t>(source.pieces->size());
    for (const std::string& piece : *source.pieces) out.put_string(piece);
    out.put<std::uint64_t>(source.special_ids.size());
    for (const std::int32_t id : source.special_ids) out.put(id);
  }
  return out.take();
}

Tokenizer Tokenizer::deserialize(std::string_view bytes) {
  BinaryReader in(bytes, "the serialized tokenizer");
  if (in.get<std::uint32_t>("format") != kTokenizerFormat)
    in.fail("not a tokenizer serialized by this version of glrmask");
  const auto kind = in.get<std::uint8_t>("kind");
  if (kind != static_cast<std::uint8_t>(Impl::Source::Kind::kJson) &&
      kind != static_cast<std::uint8_t>(Impl::Source::Kind::kVocab))
    in.fail("unknown tokenizer source");
  const std::string name = in.get_string("name");
  TokenizerOptions options;
  options.vocab_size = static_cast<std::size_t>(in.get<std::uint64_t>("vocabulary size"));
  const auto stops = in.get<std::uint64_t>("stop ids");
  if (stops > bytes.size()) in.fail("too many stop ids");
  for (std::uint64_t i = 0; i < stops; ++i)
    options.stop_ids.push_back(in.get<std::int32_t>("stop id"));
  if (kind == static_cast<std::uint8_t>(Impl::Source::Kind::kJson)) {
    const std::string json = in.get_string("tokenizer.json");
    const std::string config = in.get_string("tokenizer_config.json");
    if (!in.at_end()) in.fail("unexpected bytes after the tokenizer");
    return from_json(json, options, name, config);
  }
  const auto type = in.get<std::uint8_t>("vocabulary type");
  if (type > static_cast<std::uint8_t>(VocabType::kByteLevel)) in.fail("unknown vocabulary type");
  const auto count = in.get<std::uint64_t>("pieces");
  if (count > bytes.size()) in.fail("too many pieces");
  std::vector<std::string> pieces;
  pieces.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) pieces.push_back(in.get_string("piece"));
  const auto specials = in.get<std::uint64_t>("special ids");
  if (specials > bytes.size()) in.fail("too many special ids");
  std::vector<std::int32_t> special_ids;
  for (std::uint64_t i = 0; i < specials; ++i)
    special_ids.push_back(in.get<std::int32_t>("special id"));
  if (!in.at_end()) in.fail("unexpected bytes after the tokenizer");
  return from_vocab(pieces, static_cast<VocabType>(type), std::move(options.stop_ids), special_ids,
                    options.vocab_size);
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
  return impl_->encoder != nullptr;
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
