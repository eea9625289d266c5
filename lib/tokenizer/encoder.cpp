#include "lib/tokenizer/encoder.h"

#include <algorithm>

#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/added_tokens.h"
#include "lib/tokenizer/bpe_model.h"
#include "lib/tokenizer/normalizer.h"
#include "lib/tokenizer/pretokenizer.h"

namespace glrmask {

// Working memory of one encode call, kept across its sections.
struct Scratch {
  std::vector<AddedTokenSplitter::Section> sections;
  std::string normalized, buffer;
  std::vector<TextSpan> pieces, spare;
};

struct Encoder::Impl {
  explicit Impl(const TokenizerSpec& spec)
      : added_tokens(spec.added_tokens),
        normalizer(spec.normalizers),
        pre_tokenizer(spec.pre_tokenizers),
        bpe(spec),
        fuse_unk(spec.fuse_unk) {}

  void encode_section(std::string_view section, Scratch& scratch, std::vector<TokenId>& out) const;

  AddedTokenSplitter added_tokens;
  Normalizer normalizer;
  PreTokenizer pre_tokenizer;
  BpeModel bpe;
  bool fuse_unk;
};

Encoder Encoder::load(const std::filesystem::path& tokenizer_json) {
  return Encoder(TokenizerSpec::load(tokenizer_json));
}

Encoder::Encoder(const TokenizerSpec& spec) : impl_(std::make_unique<Impl>(spec)) {}
Encoder::~Encoder() = default;
Encoder::Encoder(Encoder&&) noexcept = default;
Encoder& Encoder::operator=(Encoder&&) noexcept = default;

std::vector<TokenId> Encoder::encode(std::string_view utf8_text) const {
  std::vector<TokenId> ids;
  encode_append(utf8_text, ids);
  return ids;
}

void Encoder::encode_append(std::string_view utf8_text, std::vector<TokenId>& out) const {
  require_valid_utf8(utf8_text, "text to encode");
  Scratch scratch;
  impl_->added_tokens.split(utf8_text, scratch.sections);
  for (const auto& section : scratch.sections) {
    if (section.is_added)
      out.push_back(section.token);
    else
      impl_->encode_section(section.text, scratch, out);
  }
}

void Encoder::Impl::encode_section(std::string_view section, Scratch& scratch,
                                   std::vector<TokenId>& out) const {
  if (!normalizer.empty()) {
    normalizer.apply(section, scratch.normalized);
    section = scratch.normalized;
    if (section.empty()) return;
  }
  pre_tokenizer.split(section, scratch.buffer, scratch.pieces, scratch.spare);
  const std::string_view buffer = scratch.buffer;
  const std::size_t first = out.size();
  for (TextSpan piece : scratch.pieces)
    bpe.encode_word(buffer.substr(piece.begin, piece.end - piece.begin), out);
  // fuse_unk: a run of unknown pieces in one section becomes a single <unk>.
  if (fuse_unk && bpe.unk_id()) {
    const TokenId unk = *bpe.unk_id();
    const auto fused = std::unique(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                   [unk](TokenId a, TokenId b) { return a == unk && b == unk; });
    out.erase(fused, out.end());
  }
}

}  // namespace glrmask
