// A grammar compiled against one vocabulary: everything the wfa engine's get_mask reads — the
// token-set pool, the Terminal DWA and the Parser DWA — plus the statistics of the compilation.
// Immutable once built; sessions and engines on any thread share one through a shared_ptr.
// `glrmask compile` builds it and writes it as an artifact (mask_artifact.h).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "glr/compiled_grammar.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/token_set/dense_sources.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/compiled/weight_class_rows.h"
#include "mask/parser_dwa/parser_dwa.h"
#include "mask/parser_dwa/parser_dwa_builder.h"

namespace glrmask::mask {

struct CompileStats {
  double terminal_dwa_seconds = 0;
  double parser_dwa_seconds = 0;
  double weight_classes_seconds = 0;  // mask classes and the weights' class rows
  std::uint32_t mask_classes = 0;
  // Written to artifacts byte for byte: the padding is spelled out so that every byte written is
  // initialized (mask_artifact.cpp checks that there is no other).
  std::uint32_t unused_padding = 0;
  std::size_t peak_memory_bytes = 0;  // of the whole process, after the compilation
  std::size_t distinct_token_sets = 0;
};

class CompiledMask {
 public:
  // Builds both automata (seconds on a real tokenizer). Throws glrmask::Error when the grammar
  // is outside what the construction supports (parser_dwa_builder.h).
  static std::shared_ptr<const CompiledMask> compile(
      std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary,
      const ParserDwaOptions& options = {});
  // The same with the vocabulary's trie built already (it depends on the vocabulary alone, so a
  // process compiling many grammars builds it once; `trie` must be VocabularyTrie::build of
  // `vocabulary`).
  static std::shared_ptr<const CompiledMask> compile(
      std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary,
      const lexer::VocabularyTrie& trie, const ParserDwaOptions& options = {});

  const glr::CompiledGrammar& grammar() const { return *grammar_; }
  const std::shared_ptr<const glr::CompiledGrammar>& grammar_ptr() const { return grammar_; }
  const TokenSetPool& pool() const { return pool_; }
  const lexer::TerminalDwa& terminal_dwa() const { return terminal_dwa_; }
  const ParserDwa& parser_dwa() const { return parser_dwa_; }
  // The export records of every transition weight (lib/token_set/dense_sources.h), for get_mask's
  // unions.
  const DenseSources& weight_sources() const { return weight_sources_; }
  // Every transition weight as a row over the mask classes (weight_class_rows.h): the identity
  // of a union, for the dense-mask cache.
  const WeightClassRows& weight_classes() const { return weight_classes_; }
  const CompileStats& stats() const { return stats_; }
  // Per Terminal DWA fork, whether some token can go on from it: it lists a next terminal, can
  // finish, or reaches a finishing fork through ignored lexemes alone. Read by the wfa engine
  // under a post-lexer; a search over the lexer's forks (about 0.3 s for SynCode's Python with
  // Llama-3), so it is made on first use, once for every engine of the automata.
  // The Parser DWA's content digest (ParserDwa::content_digest) with each weight given by its
  // tokens: equal for two builds (or a build and a loaded artifact) iff they built the same
  // automaton state for state. `glrmask compile` prints it.
  std::uint64_t parser_dwa_digest() const;
  const std::vector<char>& forks_with_future() const;

 private:
  friend class MaskArtifactReader;
  CompiledMask(std::shared_ptr<const glr::CompiledGrammar> grammar, TokenSetPool pool,
               lexer::TerminalDwa terminal_dwa)
      : grammar_(std::move(grammar)),
        pool_(std::move(pool)),
        terminal_dwa_(std::move(terminal_dwa)) {}
  // Builds weight_sources_ once parser_dwa_ is in place.
  void index_weights();

  std::shared_ptr<const glr::CompiledGrammar> grammar_;
  TokenSetPool pool_;
  lexer::TerminalDwa terminal_dwa_;
  ParserDwa parser_dwa_;
  DenseSources weight_sources_;
  WeightClassRows weight_classes_;
  CompileStats stats_;
  mutable std::once_flag forks_with_future_once_;
  mutable std::vector<char> forks_with_future_;
};

}  // namespace glrmask::mask
