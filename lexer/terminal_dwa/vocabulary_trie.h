// A byte trie of the vocabulary's token strings, in flat arrays. Nodes are numbered breadth
// first, so the children of a node are a contiguous id range (sorted by byte) and a walk needs no
// child lists; each node lists the ids of the tokens whose bytes end there.
//
// Walking it while simulating the lexer shares the work on common prefixes: every byte of every
// token string is stepped once per walk instead of once per token.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::lexer {

struct VocabularyEntry {
  TokenId id;
  std::string_view bytes;
};

class VocabularyTrie {
 public:
  static constexpr uint32_t kRoot = 0;
  static constexpr uint32_t kNoNode = UINT32_MAX;

  // Every token of the vocabulary except special ones (EOS included: it is decided outside).
  static VocabularyTrie build(const Vocabulary& vocabulary);
  // Ids must be < universe_size (glrmask::Error names the first that is not); an id may appear
  // only once. Empty byte strings end at the root.
  static VocabularyTrie build(std::span<const VocabularyEntry> tokens, uint32_t universe_size);

  uint32_t num_nodes() const { return static_cast<uint32_t>(byte_.size()); }
  // Children of `node`: ids first_child(node) .. first_child(node + 1) - 1.
  uint32_t first_child(uint32_t node) const { return child_begin_[node]; }
  uint32_t child_end(uint32_t node) const { return child_begin_[node + 1]; }
  // The byte on the edge into `node` (0 for the root).
  uint8_t byte(uint32_t node) const { return byte_[node]; }
  std::span<const TokenId> tokens_at(uint32_t node) const {
    return {token_ids_.data() + token_begin_[node], token_ids_.data() + token_begin_[node + 1]};
  }
  bool has_tokens(uint32_t node) const { return token_begin_[node] != token_begin_[node + 1]; }

  // The node where `token` ends, or kNoNode when the token is not in the trie.
  uint32_t node_of(TokenId token) const {
    return token < node_of_token_.size() ? node_of_token_[token] : kNoNode;
  }
  // The tokens in the trie, ascending.
  const std::vector<TokenId>& tokens() const { return sorted_tokens_; }
  uint32_t universe_size() const { return static_cast<uint32_t>(node_of_token_.size()); }
  // The token's bytes, read back from the trie (for messages and tests).
  std::string bytes_of(TokenId token) const;

 private:
  std::vector<uint32_t> child_begin_;  // num_nodes + 1
  std::vector<uint8_t> byte_;
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> token_begin_;  // num_nodes + 1
  std::vector<TokenId> token_ids_;
  std::vector<uint32_t> node_of_token_;  // universe_size
  std::vector<TokenId> sorted_tokens_;
};

}  // namespace glrmask::lexer
