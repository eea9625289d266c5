#include "lexer/terminal_dwa/vocabulary_trie.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask::lexer {

VocabularyTrie VocabularyTrie::build(const Vocabulary& vocabulary) {
  std::vector<VocabularyEntry> entries;
  entries.reserve(vocabulary.size());
  for (TokenId id = 0; id < vocabulary.size(); ++id) {
    if (vocabulary.contains(id) && !vocabulary.is_special(id)) {
      entries.push_back({id, vocabulary.bytes(id)});
    }
  }
  return build(entries, static_cast<uint32_t>(vocabulary.size()));
}

VocabularyTrie VocabularyTrie::build(std::span<const VocabularyEntry> tokens,
                                     uint32_t universe_size) {
  VocabularyTrie trie;
  trie.node_of_token_.assign(universe_size, kNoNode);
  std::vector<VocabularyEntry> sorted(tokens.begin(), tokens.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    const TokenId id = sorted[i].id;
    if (id >= universe_size) {
      throw Error(fmt::format("vocabulary trie: token id {} (entry {}) is out of range for a "
                              "vocabulary of {} ids",
                              id, i, universe_size),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    }
    if (trie.node_of_token_[id] != kNoNode) {
      throw Error(fmt::format("vocabulary trie: token id {} appears twice (entry {})", id, i),
                  ErrorCode::kInvalidArgument, ErrorLocation::of_token(id));
    }
    trie.node_of_token_[id] = 0;  // marked; the real node is set below
  }
  std::sort(sorted.begin(), sorted.end(), [](const VocabularyEntry& a, const VocabularyEntry& b) {
    return a.bytes != b.bytes ? a.bytes < b.bytes : a.id < b.id;
  });

  // Breadth first over ranges of the sorted entries that share a prefix of length `depth`; the
  // entries that end at a node come first in its range.
  struct Pending {
    size_t begin, end, depth;
  };
  std::vector<Pending> queue = {{0, sorted.size(), 0}};
  trie.byte_.push_back(0);
  trie.parent_.push_back(kNoNode);
  for (size_t node = 0; node < queue.size(); ++node) {
    auto [begin, end, depth] = queue[node];
    trie.token_begin_.push_back(static_cast<uint32_t>(trie.token_ids_.size()));
    while (begin < end && sorted[begin].bytes.size() == depth) {
      trie.token_ids_.push_back(sorted[begin].id);
      trie.node_of_token_[sorted[begin].id] = static_cast<uint32_t>(node);
      ++begin;
    }
    trie.child_begin_.push_back(static_cast<uint32_t>(queue.size()));
    while (begin < end) {
      const char byte = sorted[begin].bytes[depth];
      size_t child_end = begin + 1;
      while (child_end < end && sorted[child_end].bytes[depth] == byte) ++child_end;
      queue.push_back({begin, child_end, depth + 1});
      trie.byte_.push_back(static_cast<uint8_t>(byte));
      trie.parent_.push_back(static_cast<uint32_t>(node));
      begin = child_end;
    }
  }
  trie.token_begin_.push_back(static_cast<uint32_t>(trie.token_ids_.size()));
  trie.child_begin_.push_back(static_cast<uint32_t>(queue.size()));
  for (const VocabularyEntry& entry : sorted) trie.sorted_tokens_.push_back(entry.id);
  std::sort(trie.sorted_tokens_.begin(), trie.sorted_tokens_.end());
  return trie;
}

std::string VocabularyTrie::bytes_of(TokenId token) const {
  std::string bytes;
  for (uint32_t node = node_of(token); node != kNoNode && node != kRoot; node = parent_[node]) {
    bytes.push_back(static_cast<char>(byte_[node]));
  }
  std::reverse(bytes.begin(), bytes.end());
  return bytes;
}

}  // namespace glrmask::lexer
