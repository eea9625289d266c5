// The wfa mask engine (the project's default): the Parser DWA run over the session's GSS.
//
// get_mask: for each entry {early labels, fork} of the Terminal DWA for the session's lexer
// configuration, start the Parser DWA in start_state(fork) on every GSS head and walk down the
// GSS edges, one automaton transition per GSS node, uniting the transition weights into the
// mask. A branch stops when the automaton has nothing left to decide below (dead target) and
// each (GSS node, automaton state) pair is visited once. No parsing, no loop over the
// vocabulary. The early labels of an entry (a match emitted before the bytes that confirm it,
// lexer_fork.h) are first fed to a copy of the heads by the session's recognizer; that is the
// only step that builds GSS nodes, and most configurations have none.
//
// Skippable terminals (SynCode's Go EOS) are dropped by the session only when no stack can shift
// them, a condition over all stacks together; the automaton decides it per stack (guarded items,
// docs/wfa.md). The two agree because the construction accepts skippable terminals only where
// the session never holds two stacks (no forking cell, no lexical tie: `--policy lark`).
//
// The mask is the union of the weights collected by the walk; recurring unions come from a cache
// of dense masks (dense_mask_cache.h), so most steps cost the walk and one copy. The entries of
// recurring lexer configurations are cached too (lexer_entry_cache.h).
//
// EOS is part of the automaton: the start state of a fork that can finish checks the end of
// input, which makes the EOS bit exactly Session::is_accepting().
//
// With an indenter (Python's, glr/indenter.h) the engine is given a strategy, IndentedWalk
// (indented_walk.h), that walks once per indenter branch of the position and takes the branch
// groups' ways whose conditions hold; everything else here is the plain walk.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "glr/compiled_grammar.h"
#include "glr/gss.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/token_set/token_set.h"
#include "lib/tokenizer/vocabulary.h"
#include "mask/cache/dense_mask_cache.h"
#include "mask/cache/lexer_entry_cache.h"
#include "mask/cache/stack_summaries.h"
#include "mask/cache/visited_pairs.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/mask_engine.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

class IndentedWalk;

class WfaEngine final : public MaskEngine {
 public:
  // Compiles the grammar against the vocabulary (CompiledMask::compile: seconds on a real
  // tokenizer). Throws glrmask::Error when the grammar is outside what the construction supports
  // (parser_dwa_builder.h).
  WfaEngine(std::shared_ptr<const glr::CompiledGrammar> grammar, const Vocabulary& vocabulary);
  // Uses an existing compilation (built, or loaded from an artifact) of the grammar against
  // `vocabulary`, which must outlive the engine. `dense_cache_slots` recurring results are kept
  // as dense masks (0 turns the cache off: every step pays the unions, as a benchmark of the
  // miss path wants).
  static constexpr std::size_t kDefaultDenseCacheSlots = 256;
  WfaEngine(std::shared_ptr<const CompiledMask> compiled, const Vocabulary& vocabulary,
            std::size_t dense_cache_slots = kDefaultDenseCacheSlots);
  ~WfaEngine() override;

  std::string_view name() const override { return "wfa"; }
  void fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) override;
  // A step answered by the dense-mask cache returns the cached mask itself.
  std::span<const std::uint32_t> mask_view(const glr::ParseView& parse,
                                           std::span<std::uint32_t> scratch) override;
  std::span<const EngineCounter> last_step_counters() const override { return counters_; }

  const CompiledMask& compiled() const { return *compiled_; }

  // Pairs at least this many nodes below a head are answered by their summaries
  // (stack_summaries.h): above that depth the walk reads the stack, as most walks end there; below
  // it a deep stack costs a look-up per step. Not for grammars with an indenter, whose weights
  // depend on the indenter state. kNoSummaries reads every stack to its end (a benchmark's
  // baseline); 0 summarizes from the heads down (the tests' way to exercise summaries).
  static constexpr std::uint32_t kDefaultSummaryDepth = 32;
  static constexpr std::uint32_t kNoSummaries = ~std::uint32_t{0};
  void set_summary_depth(std::uint32_t depth) { summary_depth_ = depth; }

 private:
  struct Pending {
    const glr::GssNode* node;
    DwaStateId state;
    std::uint32_t depth;  // GSS nodes read before this one
  };
  // Feeds the early labels (if any: most have a start state of their own) to a copy of the
  // heads, then walks from `start`.
  void walk_entry(const glr::ParseView& parse, DwaStateId start,
                  std::span<const lexer::LabelId> early_labels);
  // Collects the weights of the transitions taken from `start` on the heads' stacks.
  void walk(DwaStateId start, std::span<const glr::GssNodeRef> heads);
  // The summary of a pair the walk meets at summary_depth_ (stack_summaries.h): kept, or
  // computed and kept for it and for every pair of the single-edge chain below it.
  StackSummaries::SummaryId summarize(const glr::GssNode* node, DwaStateId state);
  // The summary of what the walk collects from `state` on every node below `node`.
  StackSummaries::SummaryId summarize_below(const glr::GssNode* node, DwaStateId state);
  // The mask of `parse`: the cached dense mask when the step's union is cached, a new union is
  // written into the slot it claims and that slot returned; nullptr (cache off, or a union the
  // cache does not keep) after writing the mask into `words`, which is otherwise left as it was.
  const std::uint32_t* compute(const glr::ParseView& parse, std::span<std::uint32_t> words);
  // The same for the collected weights.
  const std::uint32_t* emit(std::span<std::uint32_t> words);

  // The indenter's strategy (null without an indenter); it reads the caches and counters here.
  friend class IndentedWalk;
  std::unique_ptr<IndentedWalk> indented_;

  std::shared_ptr<const CompiledMask> compiled_;
  const TokenSetPool& pool_;
  const lexer::TerminalDwa& terminal_dwa_;
  const ParserDwa& parser_dwa_;
  const DenseSources& weight_sources_;
  const WeightClassRows& weight_classes_;
  const Vocabulary& vocabulary_;

  std::uint32_t summary_depth_ = kDefaultSummaryDepth;
  StackSummaries summaries_;

  // Reused by every fill_mask() so the walk does not allocate.
  VisitedPairs visited_;
  std::vector<Pending> pending_;
  std::vector<TokenSetId> collected_;
  struct ChainLink {
    const glr::GssNode* node;
    DwaStateId state;
    TokenSetId weight;
  };
  std::vector<ChainLink> chain_;  // summarize()
  VisitedPairs below_visited_;    // summarize_below()
  std::vector<Pending> below_pending_;
  std::vector<TokenSetId> below_weights_;
  std::vector<std::uint64_t> row_;  // the class row of the collected weights' union
  DenseMaskCache cache_;
  static constexpr std::size_t kEntryCacheSlots = 1024;
  LexerEntryCache entry_cache_;
  enum Counter {
    kPairsVisited,
    kDepthRead,
    kEntries,
    kEarlyLabelEntries,
    kEarlyLabelFeeds,
    kWeights,
    kCacheHit,
    kCacheRowHit,
    kBranchesTaken,
    kDeferredTokens
  };
  std::array<EngineCounter, 10> counters_ = {
      EngineCounter{"gss_pairs_visited", 0}, EngineCounter{"stack_depth_read", 0},
      EngineCounter{"entries", 0},           EngineCounter{"early_label_entries", 0},
      EngineCounter{"early_label_feeds", 0}, EngineCounter{"weights_united", 0},
      EngineCounter{"mask_cache_hit", 0},    EngineCounter{"mask_cache_row_hit", 0},
      EngineCounter{"indenter_branches", 0}, EngineCounter{"deferred_tokens", 0}};
};

}  // namespace glrmask::mask
