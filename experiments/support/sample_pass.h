// Sample pass rates as PSC defines them (paper 001, Table 2 and its footnote 3): teacher-force a
// sample through a mask engine; the sample is *rejected* by the engine when the mask of some step
// lacks the real next token (EOS after the last token). A positive sample (a corpus program, a
// valid MaskBench instance) passes iff the engine never rejects it; a negative sample (an invalid
// instance) passes iff it does.
//
// Beside the engine's verdict the tally keeps the grammar's own verdict (what a matcher of the
// library accepts: exact viability), so a report can tell engine failures (a mask that differs from
// the grammar's verdict) from grammar failures (a valid program the grammar rejects, an invalid
// instance it accepts), and counts samples whose grammar the engine refused to build as PSC's "X".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "glrmask/constraint.hpp"

namespace glrmask::experiments {

enum class SampleKind { kPositive, kNegative };

// How teacher forcing one sample through an engine ended. Steps count from 0; step
// tokens.size() is the EOS step.
struct EngineRun {
  enum class End {
    kRefusedGrammar,  // the engine could not be built for the grammar (PSC's X)
    kAllowedAll,      // every real token and EOS was in its mask
    kMasked,          // the mask of `step` lacked the real token (or EOS)
    kUnsound,         // the mask of `step` allowed a token the session then refused
  };
  End end = End::kAllowedAll;
  std::size_t step = 0;
};

// The grammar's verdict on a sample: the first step the grammar rejects (a token whose commit is
// not viable, or EOS when the text is not a sentence), or nullopt when it accepts the sample.
using GrammarVerdict = std::optional<std::size_t>;

// Commits the tokens one by one to a fresh matcher of `constraint` (of the tokenizer the tokens
// come from), then asks for EOS.
GrammarVerdict grammar_verdict(const Constraint& constraint, std::span<const std::int32_t> tokens);

// PSC's rule: did the engine process this sample correctly? A refused grammar never passes.
bool sample_passes(SampleKind kind, const EngineRun& run);

// Counts for one cell of Table 2 (one engine on one grammar or schema set and one tokenizer).
struct PassRateTally {
  std::size_t positives = 0;
  std::size_t negatives = 0;
  std::size_t positives_passed = 0;
  std::size_t negatives_passed = 0;
  // Samples whose grammar the engine refused (X), and samples whose grammar the front-end could
  // not build at all (a JSON Schema it refuses): neither passes.
  std::size_t engine_refused = 0;
  std::size_t grammar_missing = 0;
  // Grammar failures: positives the grammar rejects, negatives it accepts. An exact engine fails
  // exactly these samples.
  std::size_t grammar_rejects_positive = 0;
  std::size_t grammar_accepts_negative = 0;
  // Engine failures: samples where the engine rejected at another step than the grammar did, or
  // allowed a token the grammar refuses. Zero for an exact engine.
  std::size_t engine_disagreements = 0;

  // One sample the engine ran (or refused, run.end == kRefusedGrammar) under a grammar whose
  // verdict is `grammar`.
  void add(SampleKind kind, const EngineRun& run, const GrammarVerdict& grammar);
  // One sample without a grammar (the front-end refused its schema).
  void add_without_grammar(SampleKind kind);
  // Adds another cell's counts (e.g. schemas into their set).
  void merge(const PassRateTally& other);

  std::size_t samples() const { return positives + negatives; }
  std::size_t passed() const { return positives_passed + negatives_passed; }
  // Passed / all samples, in [0, 1]; 0 without samples.
  double pass_rate() const;
  // Whether the engine refused every sample's grammar (the whole cell is an X).
  bool all_refused() const { return samples() != 0 && engine_refused == samples(); }
};

}  // namespace glrmask::experiments
