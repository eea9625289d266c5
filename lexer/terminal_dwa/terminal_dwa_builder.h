// Builds the Terminal DWA (terminal_dwa.h) of a lexer DFA and a vocabulary.
//
// Breadth first over lexer forks, starting from the initial one: the forks of a batch are walked
// in parallel (TBB), each walk following the vocabulary trie depth first while stepping every
// live branch of the lexer by the trie's bytes, so a prefix shared by many tokens is lexed once.
// A walk records, per trie node where tokens end, the label-trie node and end fork of each live
// branch; its token sets are built in token-id order in thread-local CRoaring bitmaps. The
// results are then merged one by one on the calling thread: end forks not seen before are
// numbered and queued, token sets are interned in the pool, and each fork's label trie is
// hash-consed into the shared node table.
#pragma once

#include <cstddef>
#include <optional>

#include "lexer/runtime/lexer_dfa.h"
#include "lexer/terminal_dwa/indent_label.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/token_set/token_set.h"

namespace glrmask::lexer {

struct TerminalDwaOptions {
  // The fork space is finite, but a pathological lexer could make it huge; the build stops with
  // a glrmask::Error naming a fork beyond the limit and the tokens that reach it.
  size_t max_forks = size_t{1} << 16;
  // Forks walked in parallel before their results are merged (bounds the memory held by
  // unmerged results: about one bitmap of the vocabulary per fork).
  size_t batch_size = 64;
  // For a grammar whose post-lexer is an indenter: labels with this newline terminal become
  // indent labels carrying the text of the newline (indent_label.h).
  std::optional<IndentLabeling> indent_labeling;
};

// `pool.universe_size()` must equal `vocabulary.universe_size()` (glrmask::Error otherwise).
// `dfa` must outlive the result. The pool is used on the calling thread only.
TerminalDwa build_terminal_dwa(const LexerDfa& dfa, const VocabularyTrie& vocabulary,
                               TokenSetPool& pool, const TerminalDwaOptions& options = {});

}  // namespace glrmask::lexer
