#include "lib/tokenizer/bpe_model.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "lib/core/error.h"
#include "lib/core/unicode_utf8.h"
#include "lib/tokenizer/byte_alphabet.h"

namespace glrmask {
namespace {

constexpr TokenId kNoToken = TokenStringTable::kAbsent;
constexpr TokenId kDead = kNoToken - 1;

// Words longer than this are not cached (they rarely repeat), as in the reference.
constexpr std::size_t kMaxCachedWordBytes = 256;
// The cache is dropped when it holds this many ids, which bounds its memory per thread.
constexpr std::size_t kMaxCachedIds = std::size_t{1} << 20;

// Writes the raw bytes of a byte-level token string to `bytes`; false when a character is outside
// the byte alphabet (such a string can never come out of text).
bool alphabet_to_bytes(std::string_view token, std::string& bytes) {
  bytes.clear();
  return !byte_alphabet::append_bytes(token, bytes).has_value();
}

bool is_single_char(std::string_view text) {
  return !text.empty() && utf8_sequence_length(static_cast<unsigned char>(text[0])) == text.size();
}

// Min-heap order on (rank, position): the reference's score `rank + position / length`.
struct Later {
  template <typename Candidate>
  bool operator()(const Candidate& a, const Candidate& b) const {
    return a.rank != b.rank ? a.rank > b.rank : a.begin > b.begin;
  }
};

}  // namespace

BpeModel::BpeModel(const TokenizerSpec& spec)
    : kind_(spec.kind), byte_fallback_(spec.byte_fallback), ignore_merges_(spec.ignore_merges) {
  const bool byte_level = kind_ == VocabularyKind::ByteLevel;
  // The key of a token string: itself, or its raw bytes for byte-level vocabularies (then false
  // when it is not in the byte alphabet). `scratch` holds converted keys.
  const auto key_of = [&](std::string_view token, std::string& scratch,
                          std::string_view& key) -> bool {
    if (!byte_level) {
      key = token;
      return true;
    }
    if (!alphabet_to_bytes(token, scratch)) return false;
    key = scratch;
    return true;
  };

  std::size_t key_bytes = 0;
  for (const auto& entry : spec.vocab) key_bytes += entry.first.size();
  for (const AddedTokenSpec& added : spec.added_tokens) key_bytes += added.content.size();
  ids_.reserve(spec.vocab.size() + spec.added_tokens.size(), key_bytes);
  std::string scratch;
  const auto add_key = [&](std::string_view token, TokenId id) {
    std::string_view key;
    if (key_of(token, scratch, key)) ids_.insert_or_assign(key, id);
  };
  for (const auto& [token, id] : spec.vocab) add_key(token, id);
  // The reference puts the added tokens into the same map, so they win over model entries.
  for (const AddedTokenSpec& added : spec.added_tokens) add_key(added.content, added.id);

  const auto id_of = [&](std::string_view key) { return ids_.find(key); };
  const auto token_id = [&](std::string_view token, std::string& buffer) {
    std::string_view key;
    return key_of(token, buffer, key) ? id_of(key) : kNoToken;
  };

  // Resolving a merge is three lookups that mostly miss the cache; do them on all cores, then
  // insert in rank order (a repeated pair keeps its last rank, as in the reference's Map).
  struct Resolved {
    TokenId left, right, merged;
  };
  std::vector<Resolved> resolved(spec.merges.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, spec.merges.size(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      std::string joined, left_key, right_key, joined_key;
                      for (std::size_t rank = range.begin(); rank != range.end(); ++rank) {
                        const auto [left, right] = spec.merges[rank];
                        joined.assign(left).append(right);
                        resolved[rank] = {token_id(left, left_key), token_id(right, right_key),
                                          token_id(joined, joined_key)};
                      }
                    });
  merges_.reserve(spec.merges.size());
  for (std::size_t rank = 0; rank < spec.merges.size(); ++rank) {
    const auto [left_id, right_id, merged_id] = resolved[rank];
    if (left_id == kNoToken || right_id == kNoToken || merged_id == kNoToken)
      throw Error(
          fmt::format("{}: /model/merges/{}: {:?} + {:?}: {} is not in the vocabulary",
                      spec.path.string(), rank, spec.merges[rank].first, spec.merges[rank].second,
                      left_id == kNoToken    ? "the left part"
                      : right_id == kNoToken ? "the right part"
                                             : "the merged token"),
          ErrorCode::kTokenizer,
          ErrorLocation::in_json(spec.path.string(), fmt::format("/model/merges/{}", rank)));
    merges_.insert(left_id, right_id, {static_cast<std::uint32_t>(rank), merged_id});
  }

  byte_symbol_.fill(kNoToken);
  ascii_symbol_.fill(kNoToken);
  fallback_byte_.fill(kNoToken);
  ids_.for_each([&](std::string_view key, TokenId id) {
    if (byte_level) {
      if (key.size() == 1) byte_symbol_[static_cast<unsigned char>(key[0])] = id;
    } else if (is_single_char(key)) {
      std::size_t pos = 0;
      const char32_t c = decode_utf8(key, pos);
      if (c < 0x80)
        ascii_symbol_[c] = id;
      else
        char_symbol_.emplace(c, id);
    }
  });
  if (kind_ == VocabularyKind::SentencePiece) {
    // Tokens that contain a '▁' right after another character: the only ones that can cover a
    // cut made by next_cut(). (Llama-2 has none; Gemma-3 has one, ">▁</".)
    constexpr std::string_view kSpace = "\xE2\x96\x81";
    for (const auto& [token, id] : spec.vocab) {
      for (std::size_t at = token.find(kSpace, 1); at != std::string_view::npos;
           at = token.find(kSpace, at + kSpace.size()))
        if (at < kSpace.size() || token.substr(at - kSpace.size(), kSpace.size()) != kSpace)
          spanning_.push_back({std::string(token), at});
    }
  }
  if (byte_fallback_)
    for (unsigned byte = 0; byte < 256; ++byte)
      fallback_byte_[byte] = id_of(fmt::format("<0x{:02X}>", byte));
  if (spec.unk_token) {
    const TokenId unk = token_id(*spec.unk_token, scratch);
    if (unk == kNoToken)
      throw Error(fmt::format("{}: /model/unk_token: {:?} is not in the vocabulary",
                              spec.path.string(), *spec.unk_token),
                  ErrorCode::kTokenizer,
                  ErrorLocation::in_json(spec.path.string(), "/model/unk_token"));
    unk_id_ = unk;
  }
}

TokenId BpeModel::symbol_of_char(char32_t c) const {
  if (c < 0x80) return ascii_symbol_[c];
  auto found = char_symbol_.find(c);
  return found == char_symbol_.end() ? kNoToken : found->second;
}

void BpeModel::encode_word(std::string_view word, std::vector<TokenId>& out) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    if (const TokenId whole = ids_.find(word); whole != TokenStringTable::kAbsent) {
      out.push_back(whole);
      return;
    }
  }
  PerThread& scratch = per_thread_.local();
  for (std::size_t start = 0; start < word.size();) {
    const std::size_t end = next_cut(word, start);
    encode_part(word.substr(start, end - start), scratch, out);
    start = end;
  }
}

std::size_t BpeModel::next_cut(std::string_view word, std::size_t start) const {
  if (kind_ != VocabularyKind::SentencePiece) return word.size();
  constexpr std::string_view kSpace = "\xE2\x96\x81";  // '▁'
  for (std::size_t cut = word.find(kSpace, start + 1); cut != std::string_view::npos;
       cut = word.find(kSpace, cut + kSpace.size())) {
    if (cut >= kSpace.size() && word.substr(cut - kSpace.size(), kSpace.size()) == kSpace)
      continue;  // inside a run of spaces
    const bool spanned = std::any_of(spanning_.begin(), spanning_.end(), [&](const Spanning& s) {
      return cut >= s.junction && word.substr(cut - s.junction, s.token.size()) == s.token;
    });
    if (!spanned) return cut;
  }
  return word.size();
}

void BpeModel::encode_part(std::string_view part, PerThread& scratch,
                           std::vector<TokenId>& out) const {
  if (part.size() > kMaxCachedWordBytes) {
    merge_word(part, scratch, out);
    return;
  }
  if (auto hit = scratch.cached.find(part); hit != scratch.cached.end()) {
    const auto [offset, length] = hit->second;
    out.insert(out.end(), scratch.cached_ids.begin() + offset,
               scratch.cached_ids.begin() + offset + length);
    return;
  }
  const std::size_t first = out.size();
  merge_word(part, scratch, out);
  if (scratch.cached_ids.size() > kMaxCachedIds) {
    scratch.cached.clear();
    scratch.cached_ids.clear();
  }
  scratch.cached.emplace(std::string(part),
                         std::pair{static_cast<std::uint32_t>(scratch.cached_ids.size()),
                                   static_cast<std::uint32_t>(out.size() - first)});
  scratch.cached_ids.insert(scratch.cached_ids.end(), out.begin() + first, out.end());
}

void BpeModel::merge_word(std::string_view word, PerThread& scratch,
                          std::vector<TokenId>& out) const {
  std::vector<Symbol>& symbols = scratch.symbols;
  symbols.clear();
  for (std::size_t pos = 0; pos < word.size();) {
    const auto begin = static_cast<std::uint32_t>(pos);
    TokenId id;
    if (kind_ == VocabularyKind::ByteLevel)
      id = byte_symbol_[static_cast<unsigned char>(word[pos++])];
    else
      id = symbol_of_char(decode_utf8(word, pos));
    const auto index = static_cast<std::int32_t>(symbols.size());
    symbols.push_back({id, begin, static_cast<std::uint32_t>(pos), index - 1, index + 1});
  }
  symbols.back().next = -1;

  std::vector<Candidate>& queue = scratch.queue;
  queue.clear();
  const auto consider = [&](std::int32_t left) {
    const std::int32_t right = symbols[left].next;
    if (right < 0) return;
    const TokenId left_id = symbols[left].id, right_id = symbols[right].id;
    if (left_id == kNoToken || right_id == kNoToken) return;
    if (const MergeTable::Merge* merge = merges_.find(left_id, right_id)) {
      queue.push_back({merge->rank, symbols[left].begin, left, left_id, right_id, merge->merged});
      std::push_heap(queue.begin(), queue.end(), Later{});
    }
  };
  for (std::int32_t i = 0; i + 1 < static_cast<std::int32_t>(symbols.size()); ++i) consider(i);

  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), Later{});
    const Candidate best = queue.back();
    queue.pop_back();
    Symbol& left = symbols[best.left];
    // Stale when either side has merged since: a merge changes the id of the surviving left
    // symbol and marks the absorbed one dead, and ids of longer strings never repeat.
    if (left.id != best.left_id || left.next < 0 || symbols[left.next].id != best.right_id)
      continue;
    Symbol& right = symbols[left.next];
    left.id = best.merged;
    left.end = right.end;
    left.next = right.next;
    right.id = kDead;
    if (left.next >= 0) symbols[left.next].prev = best.left;
    if (left.prev >= 0) consider(left.prev);
    consider(best.left);
  }

  for (std::int32_t i = 0; i >= 0; i = symbols[i].next) {
    const Symbol& symbol = symbols[i];
    if (symbol.id != kNoToken)
      out.push_back(symbol.id);
    else
      emit_unknown(word.substr(symbol.begin, symbol.end - symbol.begin), out);
  }
}

void BpeModel::emit_unknown(std::string_view piece, std::vector<TokenId>& out) const {
  if (byte_fallback_ && std::all_of(piece.begin(), piece.end(), [&](char byte) {
        return fallback_byte_[static_cast<unsigned char>(byte)] != kNoToken;
      })) {
    for (char byte : piece) out.push_back(fallback_byte_[static_cast<unsigned char>(byte)]);
    return;
  }
  if (!unk_id_)
    throw Error(fmt::format("no token for the text {:?} (the vocabulary has no <unk> token)",
                            std::string(piece)),
                ErrorCode::kInvalidArgument);
  out.push_back(*unk_id_);
}

}  // namespace glrmask
