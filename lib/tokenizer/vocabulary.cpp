#include "lib/tokenizer/vocabulary.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "lib/core/binary_io.h"
#include "lib/core/check.h"
#include "lib/core/error.h"
#include "lib/core/token_terminal.h"
#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/byte_alphabet.h"

namespace glrmask {
namespace {

constexpr std::string_view kSentencePieceSpace = "\xE2\x96\x81";  // U+2581 '▁'

// "<0xNN>" (either case of hex digits) -> the byte, else nullopt.
std::optional<std::uint8_t> byte_fallback_value(std::string_view piece) {
  if (piece.size() != 6 || piece.substr(0, 3) != "<0x" || piece[5] != '>') return std::nullopt;
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  const int high = hex(piece[3]), low = hex(piece[4]);
  if (high < 0 || low < 0) return std::nullopt;
  return static_cast<std::uint8_t>(high * 16 + low);
}

// `code` is the kind of failure a piece outside the alphabet is: a refused tokenizer.json, or a
// bad argument of the caller who gave the pieces.
void append_byte_level_bytes(const std::string& source, std::string_view piece, TokenId id,
                             std::string& out, ErrorCode code) {
  if (const std::optional<char32_t> c = byte_alphabet::append_bytes(piece, out))
    throw Error(fmt::format("{}: token id {} ({:?}): character U+{:04X} is not in the "
                            "byte-level alphabet",
                            source, id, piece, static_cast<std::uint32_t>(*c)),
                code, ErrorLocation::of_token(id));
}

void append_sentencepiece_bytes(bool byte_fallback, std::string_view piece, bool model_token,
                                std::string& out) {
  if (model_token && byte_fallback) {
    if (auto byte = byte_fallback_value(piece)) {
      out.push_back(static_cast<char>(*byte));
      return;
    }
  }
  std::size_t start = 0;
  for (std::size_t found;
       (found = piece.find(kSentencePieceSpace, start)) != std::string_view::npos;
       start = found + kSentencePieceSpace.size()) {
    out.append(piece.substr(start, found - start));
    out.push_back(' ');
  }
  out.append(piece.substr(start));
}

// The folder that names the tokenizer: ".../<name>/package/models/tokenizer.json" (the setup
// cache's layout) gives <name>; otherwise the folder holding the file.
std::string tokenizer_name(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.parent_path();
  if (folder.filename() == "models" && folder.parent_path().filename() == "package")
    return folder.parent_path().parent_path().filename().string();
  std::string name = folder.filename().string();
  return name.empty() ? path.stem().string() : name;
}

}  // namespace

Vocabulary Vocabulary::load(const std::filesystem::path& tokenizer_json) {
  return Vocabulary(TokenizerSpec::load(tokenizer_json));
}

Vocabulary::Vocabulary(const TokenizerSpec& spec)
    : kind_(spec.kind), name_(tokenizer_name(spec.path)) {
  struct Entry {
    std::string_view piece;
    bool added = false;
    bool special = false;
    bool present = false;
  };
  TokenId max_id = 0;
  bool any = false;
  for (const auto& [piece, id] : spec.vocab) max_id = std::max(max_id, id), any = true;
  for (const auto& added : spec.added_tokens) max_id = std::max(max_id, added.id), any = true;
  if (!any)
    throw Error(fmt::format("{}: the vocabulary is empty", spec.path.string()),
                ErrorCode::kTokenizer, ErrorLocation::in_json(spec.path.string(), "/model/vocab"));
  // TokenizerSpec keeps ids below 2^26, so this allocation stays bounded.
  std::vector<Entry> entries(std::size_t{max_id} + 1);

  std::size_t piece_bytes = 0;
  for (const auto& [piece, id] : spec.vocab) {
    if (entries[id].present)
      throw Error(fmt::format("{}: /model/vocab: token id {} is given to both {:?} and {:?}",
                              spec.path.string(), id, entries[id].piece, piece),
                  ErrorCode::kTokenizer,
                  ErrorLocation::in_json(spec.path.string(), "/model/vocab"));
    entries[id] = {piece, false, false, true};
    piece_bytes += piece.size();
  }
  // Later entries win, as in the reference: added tokens over the model's vocab.
  for (const auto& added : spec.added_tokens) {
    entries[added.id] = {added.content, true, added.special, true};
    piece_bytes += added.content.size();
  }

  // The few tokens tokenizer_config.json names, looked up by content (added tokens first).
  const auto find_content = [&](std::string_view content) -> std::optional<TokenId> {
    for (auto added = spec.added_tokens.rbegin(); added != spec.added_tokens.rend(); ++added)
      if (added->content == content) return added->id;
    for (const auto& [piece, id] : spec.vocab)
      if (piece == content) return id;
    return std::nullopt;
  };
  const std::filesystem::path config = spec.path.parent_path() / "tokenizer_config.json";
  for (const std::string& extra : spec.additional_special_tokens) {
    const auto id = find_content(extra);
    if (!id)
      throw Error(fmt::format("{}: /additional_special_tokens: {:?} is not in the vocabulary",
                              config.string(), extra),
                  ErrorCode::kTokenizer,
                  ErrorLocation::in_json(config.string(), "/additional_special_tokens"));
    entries[*id].special = true;
  }

  offsets_.reserve(entries.size() + 1);
  piece_offsets_.reserve(entries.size() + 1);
  flags_.reserve(entries.size());
  pieces_.reserve(piece_bytes);
  bytes_.reserve(piece_bytes);
  for (TokenId id = 0; id < entries.size(); ++id) {
    const Entry& entry = entries[id];
    offsets_.push_back(static_cast<std::uint32_t>(bytes_.size()));
    piece_offsets_.push_back(static_cast<std::uint32_t>(pieces_.size()));
    flags_.push_back(
        static_cast<std::uint8_t>((entry.present ? kPresent : 0) | (entry.special ? kSpecial : 0)));
    if (!entry.present) continue;
    pieces_.append(entry.piece);
    if (entry.added && kind_ == VocabularyKind::ByteLevel)
      bytes_.append(entry.piece);  // added tokens are plain text, not in the byte alphabet
    else if (kind_ == VocabularyKind::ByteLevel)
      append_byte_level_bytes(spec.path.string(), entry.piece, id, bytes_, ErrorCode::kTokenizer);
    else
      append_sentencepiece_bytes(spec.byte_fallback, entry.piece, !entry.added, bytes_);
    if (entry.special) special_ids_.push_back(id);
    if (bytes_.size() > std::numeric_limits<std::uint32_t>::max() ||
        pieces_.size() > std::numeric_limits<std::uint32_t>::max())
      throw Error(fmt::format("{}: vocabulary larger than 4 GiB", spec.path.string()),
                  ErrorCode::kLimit);
  }
  offsets_.push_back(static_cast<std::uint32_t>(bytes_.size()));
  piece_offsets_.push_back(static_cast<std::uint32_t>(pieces_.size()));

  if (!spec.has_config) {
    eos_note_ = "EOS unknown: no tokenizer_config.json beside the tokenizer";
  } else if (!spec.eos_token) {
    eos_note_ = "EOS unknown: tokenizer_config.json names no eos_token";
  } else {
    eos_ = find_content(*spec.eos_token);
    if (!eos_)
      throw Error(fmt::format("{}: /eos_token: {:?} is not in the vocabulary", config.string(),
                              *spec.eos_token),
                  ErrorCode::kTokenizer, ErrorLocation::in_json(config.string(), "/eos_token"));
  }
}

Vocabulary Vocabulary::from_pieces(std::string name, std::span<const std::string> pieces,
                                   VocabularyKind kind, std::span<const TokenId> special,
                                   std::optional<TokenId> eos) {
  if (pieces.empty())
    throw Error(fmt::format("{}: the vocabulary is empty", name), ErrorCode::kInvalidArgument);
  if (pieces.size() > kMaxPaddedSize)
    throw Error(fmt::format("{}: {} tokens is more than the {} a vocabulary may have", name,
                            pieces.size(), kMaxPaddedSize),
                ErrorCode::kInvalidArgument);
  Vocabulary vocabulary;
  vocabulary.kind_ = kind;
  vocabulary.name_ = std::move(name);
  std::vector<std::uint8_t> is_special(pieces.size(), 0);
  for (const TokenId id : special) {
    if (id >= pieces.size())
      throw Error(fmt::format("{}: special token id {} is out of range ({} tokens)",
                              vocabulary.name_, id, pieces.size()),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    is_special[id] = 1;
  }
  if (eos && (*eos >= pieces.size() || !is_special[*eos]))
    throw Error(
        fmt::format("{}: EOS token id {} is not one of the special tokens", vocabulary.name_, *eos),
        ErrorCode::kInvalidArgument, ErrorLocation::of_token(*eos));
  vocabulary.offsets_.reserve(pieces.size() + 1);
  vocabulary.piece_offsets_.reserve(pieces.size() + 1);
  vocabulary.flags_.reserve(pieces.size());
  for (TokenId id = 0; id < pieces.size(); ++id) {
    const std::string& piece = pieces[id];
    vocabulary.offsets_.push_back(static_cast<std::uint32_t>(vocabulary.bytes_.size()));
    vocabulary.piece_offsets_.push_back(static_cast<std::uint32_t>(vocabulary.pieces_.size()));
    vocabulary.flags_.push_back(
        static_cast<std::uint8_t>(kPresent | (is_special[id] ? kSpecial : 0)));
    vocabulary.pieces_.append(piece);
    if (is_special[id] || kind == VocabularyKind::Raw) {
      vocabulary.bytes_.append(piece);
    } else if (kind == VocabularyKind::ByteLevel) {
      if (find_invalid_utf8(piece))
        throw Error(
            fmt::format("{}: token id {}: the piece is not valid UTF-8", vocabulary.name_, id),
            ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
      append_byte_level_bytes(vocabulary.name_, piece, id, vocabulary.bytes_,
                              ErrorCode::kInvalidArgument);
    } else {
      append_sentencepiece_bytes(true, piece, true, vocabulary.bytes_);
    }
    if (is_special[id]) vocabulary.special_ids_.push_back(id);
    if (vocabulary.bytes_.size() > std::numeric_limits<std::uint32_t>::max() ||
        vocabulary.pieces_.size() > std::numeric_limits<std::uint32_t>::max())
      throw Error(fmt::format("{}: vocabulary larger than 4 GiB", vocabulary.name_),
                  ErrorCode::kLimit);
  }
  vocabulary.offsets_.push_back(static_cast<std::uint32_t>(vocabulary.bytes_.size()));
  vocabulary.piece_offsets_.push_back(static_cast<std::uint32_t>(vocabulary.pieces_.size()));
  vocabulary.eos_ = eos;
  if (!eos) vocabulary.eos_note_ = "no EOS given";
  return vocabulary;
}

Vocabulary Vocabulary::with_eos(TokenId eos) const {
  if (!contains(eos) || !is_special(eos))
    throw Error(fmt::format("{}: token id {} cannot end a text: it is not a special token of the "
                            "vocabulary ({} ids)",
                            name_, eos, size()),
                ErrorCode::kInvalidArgument, ErrorLocation::of_token(eos));
  Vocabulary copy = *this;
  copy.eos_ = eos;
  return copy;
}

std::string_view Vocabulary::bytes(TokenId id) const {
  if (id >= size())
    throw Error(fmt::format("token id {} is out of range (the {} vocabulary has {} ids)", id, name_,
                            size()),
                ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
  return std::string_view(bytes_).substr(offsets_[id], offsets_[id + 1] - offsets_[id]);
}

std::string_view Vocabulary::piece(TokenId id) const {
  if (id >= size())
    throw Error(fmt::format("token id {} is out of range (the {} vocabulary has {} ids)", id, name_,
                            size()),
                ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
  return std::string_view(pieces_).substr(piece_offsets_[id],
                                          piece_offsets_[id + 1] - piece_offsets_[id]);
}

std::uint64_t Vocabulary::fingerprint() const {
  if (const std::uint64_t known = fingerprint_.value.load(std::memory_order_relaxed); known != 0)
    return known;
  // Two flat buffers: the tokens' bytes back to back, and per token its length and whether it is
  // special (which also marks where each token's bytes end).
  std::vector<std::uint64_t> shape;
  shape.reserve(size() + 2);
  shape.push_back(size());
  shape.push_back(eos_ ? *eos_ : ~std::uint64_t{0});
  for (TokenId id = 0; id < size(); ++id)
    shape.push_back((offsets_[id + 1] - offsets_[id]) |
                    (is_special(id) ? std::uint64_t{1} << 63 : 0));
  const std::string_view shape_bytes(reinterpret_cast<const char*>(shape.data()),
                                     shape.size() * sizeof(std::uint64_t));
  const std::string_view text(bytes_.data() + offsets_.front(), offsets_.back() - offsets_.front());
  std::uint64_t sum = checksum64(shape_bytes) ^ (checksum64(text) * 0x9e3779b97f4a7c15ULL);
  if (sum == 0) sum = 1;  // 0 marks "not computed"
  fingerprint_.value.store(sum, std::memory_order_relaxed);
  return sum;
}

std::string Vocabulary::decode(std::span<const TokenId> ids) const {
  std::string text;
  for (TokenId id : ids) text.append(bytes(id));
  return text;
}

Vocabulary Vocabulary::padded(std::span<const Vocabulary* const> donors, std::size_t size) const {
  std::string name = name_;
  for (const Vocabulary* donor : donors) name += "+" + donor->name();
  name += fmt::format("@{}", size);
  if (size < this->size())
    throw Error(fmt::format("{}: cannot pad the {} vocabulary down from {} to {} ids", name, name_,
                            this->size(), size),
                ErrorCode::kInvalidArgument);
  if (size > kMaxPaddedSize)
    throw Error(fmt::format("{}: {} ids is more than the {} a vocabulary may have", name, size,
                            kMaxPaddedSize),
                ErrorCode::kInvalidArgument);

  Vocabulary grown = *this;
  grown.name_ = std::move(name);
  // Views into this vocabulary's and the donors' buffers, which do not move while this runs.
  std::unordered_set<std::string_view> known;
  known.reserve(size);
  for (TokenId id = 0; id < this->size(); ++id)
    if (contains(id) && !is_special(id)) known.insert(bytes(id));
  for (const Vocabulary* donor : donors) {
    for (TokenId id = 0; id < donor->size() && grown.size() < size; ++id) {
      if (!donor->contains(id) || donor->is_special(id)) continue;
      const std::string_view token = donor->bytes(id);
      if (token.empty() || !known.insert(token).second) continue;
      grown.bytes_.append(token);
      grown.offsets_.push_back(static_cast<std::uint32_t>(grown.bytes_.size()));
      grown.pieces_.append(token);
      grown.piece_offsets_.push_back(static_cast<std::uint32_t>(grown.pieces_.size()));
      grown.flags_.push_back(kPresent);
      if (grown.bytes_.size() > std::numeric_limits<std::uint32_t>::max() ||
          grown.pieces_.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error(fmt::format("{}: vocabulary larger than 4 GiB", grown.name_),
                    ErrorCode::kLimit);
    }
  }
  if (grown.size() < size)
    throw Error(fmt::format("{}: the donors have only {} new tokens, {} short of {} ids",
                            grown.name_, grown.size() - this->size(), size - grown.size(), size),
                ErrorCode::kInvalidArgument);
  return grown;
}

Vocabulary Vocabulary::with_padding(std::size_t size) const {
  if (size < this->size())
    throw Error(fmt::format("{}: a vocabulary size of {} is below the tokenizer's {} ids", name_,
                            size, this->size()),
                ErrorCode::kInvalidArgument);
  if (size > kMaxPaddedSize)
    throw Error(fmt::format("{}: {} ids is more than the {} a vocabulary may have", name_, size,
                            kMaxPaddedSize),
                ErrorCode::kInvalidArgument);
  Vocabulary grown = *this;
  for (std::size_t id = this->size(); id < size; ++id) {
    grown.offsets_.push_back(static_cast<std::uint32_t>(grown.bytes_.size()));
    grown.piece_offsets_.push_back(static_cast<std::uint32_t>(grown.pieces_.size()));
    grown.flags_.push_back(kPresent | kSpecial);
    grown.special_ids_.push_back(static_cast<TokenId>(id));
  }
  GLRMASK_DCHECK(grown.size() == size, "padded to {} ids, not {}", grown.size(), size);
  return grown;
}

Vocabulary Vocabulary::with_token_terminals(std::span<const TokenId> ids) const {
  std::vector<std::uint8_t> named(size(), 0);
  for (const TokenId id : ids) {
    if (!contains(id))
      throw Error(fmt::format("token id {} is not a token of the {} vocabulary ({} ids)", id, name_,
                              size()),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    if (eos_ && id == *eos_)
      throw Error(fmt::format("token id {} is the {} vocabulary's end-of-sequence token; a grammar "
                              "cannot name it (the text may end where the grammar ends)",
                              id, name_),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    named[id] = 1;
  }
  Vocabulary result = *this;
  result.bytes_.clear();
  result.offsets_.clear();
  result.special_ids_.clear();
  const char lead = static_cast<char>(kTokenTerminalLead);
  for (TokenId id = 0; id < size(); ++id) {
    result.offsets_.push_back(static_cast<std::uint32_t>(result.bytes_.size()));
    const std::string_view own = bytes(id);
    if (named[id]) {
      result.bytes_ += token_terminal_bytes(id);
      result.flags_[id] = static_cast<std::uint8_t>(result.flags_[id] & ~kSpecial);
      continue;
    }
    result.bytes_ += own;
    if ((flags_[id] & kPresent) && own.find(lead) != std::string_view::npos)
      result.flags_[id] = static_cast<std::uint8_t>(result.flags_[id] | kSpecial);
    if (result.flags_[id] & kSpecial) result.special_ids_.push_back(id);
  }
  result.offsets_.push_back(static_cast<std::uint32_t>(result.bytes_.size()));
  GLRMASK_DCHECK(result.size() == size(), "{} ids became {}", size(), result.size());
  return result;
}

std::string Vocabulary::description() const {
  const std::string kind = kind_ == VocabularyKind::ByteLevel       ? "byte-level BPE"
                           : kind_ == VocabularyKind::SentencePiece ? "SentencePiece-style BPE"
                                                                    : "byte strings";
  const std::string eos =
      eos_ ? fmt::format("EOS {:?} = {}", std::string(piece(*eos_)), *eos_) : eos_note_;
  return fmt::format("{} ({}, {} ids, {} special, {})", name_, kind, size(), special_ids_.size(),
                     eos);
}

}  // namespace glrmask
