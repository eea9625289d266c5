// What a mask engine needs from a vocabulary whatever the grammar: the byte trie of its tokens
// (lexer/terminal_dwa/vocabulary_trie.h) and which tokens are plain string content
// (lexer/terminal_dwa/lazy_terminal_dwa.h). Built once per tokenizer (about 0.1 s with Llama-3) and
// shared by every grammar a process compiles against that tokenizer: a server that receives a new
// JSON Schema per request pays for them once, not per schema.
#pragma once

#include "lexer/terminal_dwa/lazy_terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/tokenizer/vocabulary.h"

namespace glrmask::mask {

struct VocabularyTables {
  // `vocabulary` must outlive the tables.
  explicit VocabularyTables(const Vocabulary& tokens)
      : vocabulary(tokens), trie(lexer::VocabularyTrie::build(tokens)), plain(trie) {}
  VocabularyTables(const VocabularyTables&) = delete;
  VocabularyTables& operator=(const VocabularyTables&) = delete;

  const Vocabulary& vocabulary;
  const lexer::VocabularyTrie trie;
  const lexer::PlainTokens plain;
};

}  // namespace glrmask::mask
