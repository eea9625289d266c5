// A vocabulary subtrie walked from one lexer fork: depth first over the trie below a node, every
// live branch of the lexer stepped by each trie byte (the same step as lexer_fork.h's
// step_fork, on interned inhibitor sets), tokens grouped by (label sequence, end fork). The
// bytes on the way to the start node are taken as already read. Local numbering throughout;
// the Terminal DWA builder merges the results.
#pragma once

#include <cstdint>
#include <vector>

#include "lexer/runtime/inhibitor_sets.h"
#include "lexer/runtime/lexer_dfa.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/indent_label.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/core/flat_u64_map.h"
#include "lib/token_set/roaring.h"

namespace glrmask::lexer {

struct SubtrieWalk {
  // The label trie of the sequences emitted; node 0 is the root (the empty sequence) and a
  // node's parent always has a smaller id.
  std::vector<uint32_t> parent;
  std::vector<LabelId> label;   // on the edge into the node
  std::vector<LexerFork> ends;  // end forks, in local numbering
  struct Group {
    uint32_t node;
    uint32_t end;
    RoaringBitmap tokens;
  };
  std::vector<Group> groups;  // one per (node, end) that some token reaches
  RoaringBitmap alive;        // tokens in some group
  uint64_t steps = 0;         // branch steps taken
};

// What a walk tracks of the current lexeme's text when it emits indent labels
// (indent_label.h), packed in one word: whether it holds a '\n', whether the lexeme began before
// the token, and the width after the last '\n' (or of all of it). Kept only while the lexeme can
// still become a label with the newline terminal (0 otherwise, so branches still merge).
class LexemeScan {
 public:
  explicit LexemeScan(const LexerDfa& dfa, const IndentLabeling& labeling);

  // The scan a walk starts with in `state` (the lexeme began before the token unless `state`
  // is the start state).
  uint32_t initial(uint32_t state) const;
  // `scan` after `byte`, for a lexeme now in `state`.
  uint32_t advance(uint32_t scan, uint8_t byte, uint32_t state) const;
  // The label a lexeme with this scan emits: an indent label when `label` has the newline
  // terminal, else `label` itself.
  LabelId annotate(LabelId label, uint32_t scan) const;

 private:
  static constexpr uint32_t kHasNewline = 1u << 31;
  static constexpr uint32_t kFromRoot = 1u << 30;
  static constexpr uint32_t kWidth = kFromRoot - 1;

  const LexerDfa& dfa_;
  IndentLabeling labeling_;
  std::vector<char> capable_;        // per DFA state: a newline label is still reachable
  std::vector<char> newline_label_;  // per lexer label: it has the newline terminal
};

// Restricts a walk to part of the vocabulary (lazy_terminal_dwa.h: tokens that are not plain
// string content). Both vectors are indexed like the trie's tokens and nodes.
struct WalkFilter {
  const std::vector<char>* skip_token = nullptr;  // tokens not recorded
  const std::vector<char>* enter_node = nullptr;  // a child is walked only if set
};

// Reusable per thread: the scratch buffers and the inhibitor-set memo survive across walks.
class ForkTrieWalker {
 public:
  // With `scan`, labels with the newline terminal are emitted as indent labels.
  ForkTrieWalker(const LexerDfa& dfa, const VocabularyTrie& trie, const LexemeScan* scan = nullptr);

  // The tokens of the subtrie below `trie_node` (those ending at it included), read from `fork`;
  // with `descend` false only those ending at it. `initial_scan`: the LexemeScan of the fork's
  // lexeme at `trie_node` (0 without indent labels). A filter leaves tokens and subtries out.
  SubtrieWalk walk(uint32_t trie_node, const LexerFork& fork, bool descend = true,
                   uint32_t initial_scan = 0, const WalkFilter* filter = nullptr);

 private:
  struct Branch {
    uint32_t node;        // label-trie node of the labels emitted so far
    uint32_t state;       // DFA state of the current lexeme
    uint32_t inhibitors;  // InhibitorSets id
    uint32_t scan;        // LexemeScan of the current lexeme, or 0
    auto operator<=>(const Branch&) const = default;
  };
  struct Frame {
    uint32_t trie_node;
    uint32_t next_child;
    uint32_t branches_begin, branches_end;
  };

  void step(Branch branch, uint8_t byte, SubtrieWalk& out);
  uint32_t label_child(uint32_t node, LabelId label, SubtrieWalk& out);
  void record(uint32_t trie_node, uint32_t begin, uint32_t end, const WalkFilter* filter);
  void build_groups(SubtrieWalk& out);

  const LexerDfa& dfa_;
  const VocabularyTrie& trie_;
  const LexemeScan* scan_;
  InhibitorSets inhibitor_sets_;
  FlatU64Map label_children_;
  FlatU64Map end_ids_;
  FlatU64Map group_ids_;
  std::vector<std::pair<uint32_t, uint32_t>> end_keys_;    // local end -> (state, inhibitors)
  std::vector<std::pair<uint32_t, uint32_t>> group_keys_;  // group -> (node, end)
  std::vector<Branch> branches_;
  std::vector<Frame> stack_;
  std::vector<uint64_t> memberships_;  // token << 32 | group, one per (token, live branch)
  std::vector<uint32_t> group_begin_;
  std::vector<TokenId> group_tokens_;
};

}  // namespace glrmask::lexer
