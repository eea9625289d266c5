// Puts a fork's part of the Terminal DWA together from shared pieces.
//
// Most of a fork's walk over the vocabulary trie does not depend on the fork: after the first
// byte of a token, the lexer branch is usually in a state many forks reach too (a fresh lexeme
// after a space or an operator, the inside of a string). So the builder walks each subtrie
// below a first byte once per distinct branch state reached there (a *piece*), and a fork's
// label trie is its pieces grafted under the label (if any) that the first byte emitted. The
// pieces' token sets are interned once; a fork's weight is one of them or the union of a few
// (equal (label sequence, end fork) reached below different first bytes), so the same sets
// recur across forks and their unions hit the pool's memo. On the SynCode grammars with
// Llama-3 this cuts the lexer steps 30- to 60-fold and avoids building a bitmap per weight.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lexer/runtime/lexer_dfa.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/core/flat_u64_map.h"
#include "lib/token_set/roaring.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask::lexer {

// A label trie: node 0 is the root and parents have smaller ids than their children.
struct LabelTrie {
  std::vector<uint32_t> parent = {UINT32_MAX};
  std::vector<LabelId> label = {LexerDfa::kNoLabel};  // on the edge into the node
};

// A subtrie walk with its end forks numbered and its token sets interned.
struct SubtriePiece {
  LabelTrie trie;
  struct Group {
    uint32_t node;
    ForkId end;
    TokenSetId tokens;
  };
  std::vector<Group> groups;
  RoaringBitmap alive;  // the union of the groups' tokens
};

// One piece used by a fork: grafted at the root, or under `label` (what the first byte emitted).
struct PieceUse {
  LabelId label;  // LexerDfa::kNoLabel: at the root
  uint32_t piece;
};

// A fork's label trie; each weight is the union of its `inputs` (ascending, at least one).
struct AssembledFork {
  LabelTrie trie;
  struct Group {
    uint32_t node;
    ForkId end;
    uint32_t inputs_begin, inputs_end;
  };
  std::vector<Group> groups;
  std::vector<TokenSetId> inputs;
  RoaringBitmap alive;
};

// Reusable per thread. Reads the pieces only (and no pool): safe to run on many forks at once.
class ForkAssembler {
 public:
  AssembledFork assemble(std::span<const PieceUse> uses, std::span<const SubtriePiece> pieces);

 private:
  uint32_t child(LabelTrie& trie, uint32_t node, LabelId label);

  FlatU64Map children_;
  FlatU64Map groups_;
  std::vector<uint32_t> mapped_;
  std::vector<std::pair<uint32_t, TokenSetId>> contributions_;  // (group, set)
  std::vector<std::pair<uint32_t, ForkId>> group_keys_;
  std::vector<const RoaringBitmap*> alive_inputs_;
};

}  // namespace glrmask::lexer
