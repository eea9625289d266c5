// The spanner mask engine: GreatGramma's token spanner table (the Terminal DWA) driven by the
// GLR parser instead of an LR stack. The Terminal DWA says, for the lexer configuration the
// session is in, which label sequences each vocabulary token emits and which lexer fork it
// leaves behind; the engine decides which of those sequences the session's GSS heads accept.
//
// This first version is exact but does no precomputation over parser states: at every step it
// walks the label trie of each entry fork on the real GSS heads (one GlrParser step per trie edge,
// pruned as soon as a label cannot be taken) and unites the token sets of the weights whose
// end fork lets the parse go on. Its cost is proportional to the number of label-trie nodes
// reachable from the entry forks, not to the vocabulary size. The split into context-independent
// accepted / rejected sets per (fork, LR state) (GreatGramma Algorithms 4-6) is the next step.
//
// Where the rule below and the session's viability test differ, the session wins. The session
// judges the lexeme it is inside by its own terminal alone (IncrementalRecognizer::is_viable): a
// lexeme whose match could still extend counts as viable when its terminal can be shifted, even
// if no lexable terminal can follow it (SynCode SQL: after "CROSS" the grammar wants an anonymous
// "JOIN" that the higher-priority JOIN_EXPR always shadows), and its fall-back search only tries
// bytes that end the lexeme at once (after "T\xc4" in SQL it misses "T" + "\xc4\xb1nner join").
// Both cases need a match emitted early that the token's bytes have not confirmed yet, so the
// engine hands the tokens of weights whose end fork is inhibited (and that no other weight
// already allows) to Session::accepts_bytes; checked_tokens() counts them.
//
// Semantics (terminal_dwa.h, "How the next stage uses it"): for each entry {early labels, fork}
// of enter(configuration), the early labels and then the labels on the path to a trie node are
// fed to the heads exactly as the session's recognizer feeds lexer tokens
// (IncrementalRecognizer::feed_token: ties are alternatives, ignored alternatives skip,
// unshiftable skippable terminals are dropped). A token of weight (node, end fork) is allowed iff
// then some terminal of next_terminals(end fork) can be taken, or the end of input is accepted and
// the end fork can finish, either at once (can_finish) or after ignored text only (a token that
// opens a trailing comment; terminal_dwa.h's rule misses this case). EOS is allowed iff
// Session::is_accepting().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/gss.h"
#include "glr/incremental_recognizer.h"
#include "lexer/terminal_dwa.h"
#include "lexer/vocabulary_trie.h"
#include "lib/token_set.h"
#include "lib/vocabulary.h"
#include "wfa/mask_engine.h"

namespace glrmask::wfa {

class SpannerEngine final : public MaskEngine {
 public:
  // Builds the Terminal DWA of the grammar's lexer over the vocabulary (may take seconds on a
  // real tokenizer). `vocabulary` must outlive the engine. Throws glrmask::Error when the DWA
  // cannot be built.
  SpannerEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary);

  std::string_view name() const override { return "spanner"; }
  // Throws glrmask::Error when `words` has the wrong size or the session uses another grammar.
  void fill_mask(const glr::Session& session, std::span<std::uint32_t> words) override;

  const lexer::TerminalDwa& dwa() const { return dwa_; }
  const TokenSetPool& pool() const { return pool_; }  // the DWA weights' token sets
  // Tokens the last fill_mask() decided with Session::accepts_bytes (see the header comment).
  std::size_t checked_tokens() const { return checked_tokens_; }

 private:
  // Adds to `words` the tokens under `node` (labels so far already fed to `heads`) that the
  // rule allows, and to `unsure` those of weights whose end fork is inhibited.
  void collect(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
               const glr::GssHeads& heads, std::span<std::uint32_t> words,
               std::span<std::uint32_t> unsure) const;
  // Decides the unsure tokens not allowed otherwise with Session::accepts_bytes.
  void decide_unsure(const glr::Session& session, std::span<std::uint32_t> words);
  // Whether a token leaving the lexer in `end` may follow the labels that produced `heads`.
  bool end_fork_allows(const glr::IncrementalRecognizer& recognizer, lexer::ForkId end,
                       const glr::GssHeads& heads) const;

  std::shared_ptr<const glr::CompiledGrammar> grammar_;
  const Vocabulary& vocabulary_;
  TokenSetPool pool_;
  lexer::TerminalDwa dwa_;
  // Per fork: ignored text can bring it to a token boundary, so the output may end after it.
  std::vector<char> ends_through_ignored_;
  std::vector<std::uint32_t> unsure_;  // per fill_mask(): dense, like the mask
  std::size_t checked_tokens_ = 0;
};

}  // namespace glrmask::wfa
