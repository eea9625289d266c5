// The lazy mask engine: masks from the first step of a grammar never seen before, with nothing
// built ahead but the grammar's lexer DFA and LR table. It reads the lexer fork's label trie from
// a lazily built Terminal DWA (lexer/terminal_dwa/lazy_terminal_dwa.h: a fork is walked over the
// shared vocabulary trie the first time a session reaches it) and walks that trie on the session's
// real GSS, feeding each label to a copy of the heads (GLR steps): the rule of the spanner engine
// without its table (spanner_engine.h), which is the session's own viability test applied after
// each token, so the masks equal the oracle's bit for bit.
//
// A step costs the walk of the fork's trie (tens to hundreds of GLR label steps) and, the first
// time a fork is met, its walk over the vocabulary (milliseconds inside a string, less
// elsewhere). It is the first stage of the staged engine (staged_engine.h), which switches to
// the wfa engine once that is built.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/incremental_recognizer.h"
#include "lexer/terminal_dwa/lazy_terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"

namespace glrmask::mask {

class LazyWalkEngine final : public MaskEngine {
 public:
  // `vocabulary`, `trie` (built from it) and `plain` (from `trie`, or null) are shared across
  // grammars and must outlive the engine.
  LazyWalkEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary,
                 const lexer::VocabularyTrie& trie, const lexer::PlainTokens* plain);

  std::string_view name() const override { return "lazy"; }
  // Throws glrmask::Error when `words` has the wrong size or the session uses another grammar.
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override;
  std::span<const EngineCounter> last_step_counters() const override { return counters_; }

  const lexer::LazyTerminalDwa& dwa() const { return dwa_; }

 private:
  void collect(const glr::IncrementalRecognizer& recognizer, const lexer::LazyForkTrie& trie,
               std::uint32_t node, const glr::GssHeads& heads, std::span<std::uint32_t> words);
  bool end_fork_allows(const glr::IncrementalRecognizer& recognizer, lexer::ForkFutures::Id end,
                       const glr::GssHeads& heads);

  std::shared_ptr<const glr::CompiledGrammar> grammar_;
  const Vocabulary& vocabulary_;
  lexer::LazyTerminalDwa dwa_;
  std::vector<signed char> lists_skippable_;  // per fork: -1 unknown
  std::size_t label_feeds_ = 0;
  std::size_t forks_built_before_ = 0;
  std::vector<EngineCounter> counters_;
};

}  // namespace glrmask::mask
