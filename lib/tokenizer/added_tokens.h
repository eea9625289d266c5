// Added tokens (special tokens such as <|endoftext|> and, for Gemma, also whitespace runs and
// HTML tags) are cut out of the text before normalization, as the reference does: scanning left
// to right, the longest added token that starts at a position is taken, and the text between
// added tokens is tokenized on its own. All added tokens take part, special or not.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/tokenizer/tokenizer_spec.h"

namespace glrmask {

class AddedTokenSplitter {
 public:
  explicit AddedTokenSplitter(const std::vector<AddedTokenSpec>& tokens);

  struct Section {
    std::string_view text;
    bool is_added = false;  // `text` is an added token; its id is `token`
    TokenId token = 0;
  };

  // Splits `text` into sections in order: added tokens, and the text between them (never empty).
  // Applies the lstrip/rstrip options of the added tokens to the neighbouring text.
  void split(std::string_view text, std::vector<Section>& out) const;

  bool empty() const { return by_content_.empty(); }

 private:
  struct TokenInfo {
    TokenId id;
    bool lstrip, rstrip;
  };
  // A byte trie of the contents. Node 0 is the root; edges are keyed by (node << 8 | byte).
  // The root's edges are also in a table, since most positions of a text stop there.
  std::unordered_map<std::uint64_t, std::uint32_t> edges_;
  std::vector<const std::pair<const std::string, TokenInfo>*> token_at_node_;   // null: no token
  std::vector<std::uint32_t> root_edges_ = std::vector<std::uint32_t>(256, 0);  // 0: no edge
  std::unordered_map<std::string, TokenInfo> by_content_;
  bool any_strip_ = false;
};

}  // namespace glrmask
