// The spanner mask engine: GreatGramma's token spanner table (the Terminal DWA) driven by the
// GLR parser instead of an LR stack. The Terminal DWA says, for the lexer configuration the
// session is in, which label sequences each vocabulary token emits and which lexer fork it
// leaves behind; the engine decides which of those sequences the session's GSS heads accept.
//
// The precomputed split (spanner_table.h, GreatGramma Algorithms 5-6): for each entry fork f and
// each GSS head with top state q, the tokens accepted whatever lies below q are one precomputed
// set, the tokens rejected whatever lies below cost nothing, and only the context-dependent
// parts of f's label trie (the plan of (f, q)) are walked on the real head, one GlrParser step
// per trie edge. With several heads the per-head results are united, unless a cell relied on the
// skippable rule, which is decided over all heads (then the whole trie is walked on all heads
// together). use_table(false) switches to that whole walk everywhere (the engine before the
// table), for comparisons.
//
// The rule below is, by construction, the session's own viability test
// (IncrementalRecognizer::is_viable) applied after the token: both read the same forks, the same
// next-terminal sets and the same "can end through ignored text" facts, so the engine equals the
// oracle without asking the session about any token.
//
// Semantics (terminal_dwa.h, "How the next stage uses it"): for each entry {early labels, fork}
// of enter(configuration), the early labels and then the labels on the path to a trie node are
// fed to the heads exactly as the session's recognizer feeds lexer tokens
// (IncrementalRecognizer::feed_token: ties are alternatives, ignored alternatives skip,
// unshiftable skippable terminals are dropped). A token of weight (node, end fork) is allowed iff
// then some terminal of next_terminals(end fork) can be taken, or the end of input is accepted and
// the end fork can finish, either at once (can_finish) or after ignored text only (a token that
// opens a trailing comment; lexer::ForkFutures::can_end). EOS is allowed iff
// Session::is_accepting().
//
// With an indenter (Python's, glr/indenter.h) the labels go through the indenter as the session
// feeds them: the walk runs per indenter branch of the position (ParsePosition::branches), each
// newline label with the text its indent label carries (lexer/terminal_dwa/indent_label.h), and the
// end-fork test is the session's own (IncrementalRecognizer::indented_allows). The precomputed
// table is not built for such a grammar: its cells are decided on an LR state alone, while what a
// newline becomes depends on the indenter's state too. Every step walks the tries whole
// (docs/spanner.md, "Indenter").
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/gss.h"
#include "glr/incremental_recognizer.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lexer/terminal_dwa/vocabulary_trie.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/mask_engine.h"
#include "mask/spanner/spanner_table.h"

namespace glrmask::mask {

class SpannerEngine final : public MaskEngine {
 public:
  // Builds the Terminal DWA of the grammar's lexer over the vocabulary (may take seconds on a
  // real tokenizer). `vocabulary` must outlive the engine. Throws glrmask::Error when the DWA
  // cannot be built.
  SpannerEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary);

  std::string_view name() const override { return "spanner"; }
  // Throws glrmask::Error when `words` has the wrong size or the session uses another grammar.
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override;

  const lexer::TerminalDwa& dwa() const { return dwa_; }
  const TokenSetPool& pool() const { return pool_; }  // the DWA weights' and table's token sets
  const SpannerTable& table() const { return table_; }

  // false: walk every entry fork's whole label trie on the real heads at every step, ignoring the
  // table (the slower rule the table must agree with; for tests and measurements).
  void use_table(bool enabled) { use_table_ = enabled; }

 private:
  // Adds to `words` the tokens under `node` that the rule allows after `heads`, through the
  // table's cells of `node` when it is an entry node.
  void collect_split(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
                     const glr::GssHeads& heads, std::span<std::uint32_t> words) const;
  // The context-dependent part of a cell on the real heads.
  void walk_plan(const glr::IncrementalRecognizer& recognizer, SpannerPlanId plan,
                 const glr::GssHeads& heads, std::span<std::uint32_t> words) const;
  // Adds to `words` the tokens under `node` (labels so far already fed to `heads`) that the
  // rule allows.
  void collect(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
               const glr::GssHeads& heads, std::span<std::uint32_t> words) const;
  // Whether a token leaving the lexer in `end` may follow the labels that produced `heads`.
  bool end_fork_allows(const glr::IncrementalRecognizer& recognizer, lexer::ForkId end,
                       const glr::GssHeads& heads) const;

  void fill_mask_plain(const glr::ParseView& parse, std::span<std::uint32_t> words) const;
  // With an indenter: the whole walk, per branch of the position.
  void fill_mask_indented(const glr::ParseView& parse, std::span<std::uint32_t> words) const;
  void collect_indented(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
                        const std::vector<glr::IndentedStacks>& branches, glr::IndentScan carried,
                        std::span<std::uint32_t> words) const;

  std::shared_ptr<const glr::CompiledGrammar> grammar_;
  const Vocabulary& vocabulary_;
  TokenSetPool pool_;
  lexer::TerminalDwa dwa_;
  // Per DWA fork: it is at a token boundary or ignored text can bring it to one, so the output
  // may end after it (lexer::ForkFutures::can_end).
  std::vector<char> can_end_;
  // Per DWA fork, where its futures are (the grammar's ForkFutures, or one made for the fork
  // alone): the indenter's end-fork test reads them.
  std::vector<std::unique_ptr<lexer::ForkFutures>> lone_futures_;
  std::vector<std::pair<const lexer::ForkFutures*, lexer::ForkFutures::Id>> futures_of_fork_;
  SpannerTable table_;
  bool use_table_ = true;
};

}  // namespace glrmask::mask
