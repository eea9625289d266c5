#include "experiments/support/sample_pass.h"

#include "glrmask/matcher.hpp"

namespace glrmask::experiments {

GrammarVerdict grammar_verdict(const Constraint& constraint, std::span<const std::int32_t> tokens) {
  Matcher matcher(constraint);
  for (std::size_t step = 0; step < tokens.size(); ++step)
    if (!matcher.accept_token(tokens[step])) return step;
  // The EOS step: a viable prefix of a sentence is still rejected when it is not a sentence.
  if (!matcher.is_accepting()) return tokens.size();
  return std::nullopt;
}

bool sample_passes(SampleKind kind, const EngineRun& run) {
  // An unsound mask did not reject the sample, but decoding could not go on after it either: it
  // is an error in both directions, like PSC's parser errors.
  if (kind == SampleKind::kPositive) return run.end == EngineRun::End::kAllowedAll;
  return run.end == EngineRun::End::kMasked;
}

void PassRateTally::add(SampleKind kind, const EngineRun& run, const GrammarVerdict& grammar) {
  const bool positive = kind == SampleKind::kPositive;
  (positive ? positives : negatives) += 1;
  if (positive && grammar) ++grammar_rejects_positive;
  if (!positive && !grammar) ++grammar_accepts_negative;
  switch (run.end) {
    case EngineRun::End::kRefusedGrammar:
      ++engine_refused;
      return;
    case EngineRun::End::kAllowedAll:
      if (grammar) ++engine_disagreements;
      break;
    case EngineRun::End::kMasked:
      if (!grammar || *grammar != run.step) ++engine_disagreements;
      break;
    case EngineRun::End::kUnsound:
      ++engine_disagreements;
      break;
  }
  if (sample_passes(kind, run)) (positive ? positives_passed : negatives_passed) += 1;
}

void PassRateTally::add_without_grammar(SampleKind kind) {
  (kind == SampleKind::kPositive ? positives : negatives) += 1;
  ++grammar_missing;
}

void PassRateTally::merge(const PassRateTally& other) {
  positives += other.positives;
  negatives += other.negatives;
  positives_passed += other.positives_passed;
  negatives_passed += other.negatives_passed;
  engine_refused += other.engine_refused;
  grammar_missing += other.grammar_missing;
  grammar_rejects_positive += other.grammar_rejects_positive;
  grammar_accepts_negative += other.grammar_accepts_negative;
  engine_disagreements += other.engine_disagreements;
}

double PassRateTally::pass_rate() const {
  if (samples() == 0) return 0;
  return static_cast<double>(passed()) / static_cast<double>(samples());
}

}  // namespace glrmask::experiments
