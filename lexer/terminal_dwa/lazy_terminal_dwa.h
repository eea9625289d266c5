// The Terminal DWA (terminal_dwa.h) of one lexer, built one fork at a time: a fork's label trie
// is walked over the vocabulary trie the first time a session is in that fork, and kept. A new
// grammar then needs no walk before its first mask but the walk of its start fork, instead of
// the walks of every fork the grammar can reach (docs/json_schema.md, "Time to first mask").
//
// Same content as the whole automaton: a fork's trie here has the label sequences and end forks
// of TerminalDwa::root(fork), the tokens of each (node, end fork) as one bitmap; end forks are
// named by their ForkFutures id (every fork a token reaches is byte-reachable, so it has one),
// which is where the next terminals and the "can end" facts of an end fork are read.
//
// Counted strings. Inside a string every *plain* token (complete UTF-8 characters, none of '"',
// '\' or a control character) moves the lexer by its number of characters and emits nothing, when
// the fork's lexer state maps every plain character to one next state. Such a fork gets the plain
// tokens as one weight per character count k (the end fork: k plain characters further), from
// sets built once per vocabulary (PlainTokens), and walks only the subtrie of tokens that are not
// plain: a few thousand tokens instead of the whole vocabulary. The result is the same automaton;
// `maxLength: 255` costs 13 forks per position whose walks are small.
//
// Not thread-safe: one engine owns one.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "lexer/runtime/fork_futures.h"
#include "lexer/runtime/lexer_dfa.h"
#include "lexer/terminal_dwa/fork_trie_walk.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/token_set/roaring.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::lexer {

// What a vocabulary's tokens are as string content, computed once per vocabulary trie and shared
// by every grammar compiled against it.
class PlainTokens {
 public:
  explicit PlainTokens(const VocabularyTrie& trie);

  // Tokens whose bytes are complete UTF-8 characters, none of them '"', '\' or below U+0020,
  // grouped by their number of characters (index k: k characters; index 0 is empty).
  const std::vector<RoaringBitmap>& by_length() const { return by_length_; }
  bool is_plain(TokenId token) const { return plain_[token] != 0; }
  // Whether the subtrie below `node` (the node included) holds a token that is not plain.
  bool has_other_below(uint32_t node) const { return other_below_[node] != 0; }
  std::size_t plain_count() const { return plain_count_; }
  // The two as flags per token id and per trie node (a walk's filter, fork_trie_walk.h).
  const std::vector<char>& plain_flags() const { return plain_; }
  const std::vector<char>& other_below_flags() const { return other_below_; }

 private:
  std::vector<RoaringBitmap> by_length_;
  std::vector<char> plain_;        // per token id
  std::vector<char> other_below_;  // per trie node
  std::size_t plain_count_ = 0;
};

struct LazyDwaGroup {
  ForkFutures::Id end;
  const RoaringBitmap* tokens;  // owned by the fork's trie, or PlainTokens's shared sets
};

struct LazyDwaNode {
  LabelId label = LexerDfa::kNoLabel;  // on the edge into the node
  uint32_t children_begin = 0, children_end = 0;
  uint32_t groups_begin = 0, groups_end = 0;
};

// One fork's label trie: node 0 is the root.
struct LazyForkTrie {
  std::vector<LazyDwaNode> nodes;
  std::vector<uint32_t> children;
  std::vector<LazyDwaGroup> groups;
  std::deque<RoaringBitmap> owned;  // the walked groups' token sets
  uint64_t steps = 0;               // lexer branch steps the walk took
};

struct LazyTerminalDwaStats {
  std::size_t forks_built = 0;
  std::size_t plain_forks = 0;  // built through the plain-token shortcut
  uint64_t steps = 0;
  double build_seconds = 0;
};

class LazyTerminalDwa {
 public:
  // `dfa`, `futures`, `trie` and `plain` (built from `trie`; may be null: no shortcut) must
  // outlive this object.
  LazyTerminalDwa(const LexerDfa& dfa, const ForkFutures& futures, const VocabularyTrie& trie,
                  const PlainTokens* plain);

  // The label trie of a fork, walked on first use.
  const LazyForkTrie& trie(ForkFutures::Id fork);
  const LazyTerminalDwaStats& stats() const { return stats_; }

 private:
  // The next state of `state` after one plain character, when every plain character leads to the
  // same state (and none of them emits a label); nullopt otherwise.
  std::optional<uint32_t> plain_successor(uint32_t state);
  std::unique_ptr<LazyForkTrie> build(ForkFutures::Id fork);
  // The walk as a trie; `shortcut_groups` are added at the root.
  std::unique_ptr<LazyForkTrie> from_walk(SubtrieWalk walk,
                                          std::vector<LazyDwaGroup> shortcut_groups);

  const LexerDfa& dfa_;
  const ForkFutures& futures_;
  const VocabularyTrie& trie_;
  const PlainTokens* plain_;
  ForkTrieWalker walker_;
  std::vector<std::unique_ptr<LazyForkTrie>> tries_;  // per ForkFutures id
  std::vector<int64_t> plain_successor_;  // per DFA state: -2 unknown, -1 none, else the state
  LazyTerminalDwaStats stats_;
};

}  // namespace glrmask::lexer
