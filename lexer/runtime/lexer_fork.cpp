#include "lexer/runtime/lexer_fork.h"

#include <algorithm>
#include <boost/container_hash/hash.hpp>
#include <utility>

#include "lib/core/check.h"
#include "lib/core/error.h"

namespace glrmask::lexer {

size_t LexerForkHash::operator()(const LexerFork& fork) const {
  // Forks are compared as values, so equal inhibitor sets must be equal vectors.
  GLRMASK_DCHECK(std::adjacent_find(fork.inhibitors.begin(), fork.inhibitors.end(),
                                    std::greater_equal<>()) == fork.inhibitors.end() &&
                     (fork.inhibitors.empty() || fork.inhibitors.front() != LexerDfa::kDeadState),
                 "inhibitors of {} are not sorted, unique and live", describe_fork(fork));
  size_t seed = 0;
  boost::hash_combine(seed, fork.state);
  boost::hash_range(seed, fork.inhibitors.begin(), fork.inhibitors.end());
  return seed;
}

LexerFork initial_fork(const LexerDfa& dfa) {
  return LexerFork{dfa.start_state(), {}};
}

namespace {

void add_inhibitor(std::vector<uint32_t>& inhibitors, uint32_t state) {
  const auto at = std::lower_bound(inhibitors.begin(), inhibitors.end(), state);
  if (at == inhibitors.end() || *at != state) inhibitors.insert(at, state);
}

void append_label(const LexerDfa& dfa, std::vector<LabelId>& labels, LabelId label) {
  if (!dfa.label_is_ignored(label)) labels.push_back(label);
}

void sort_unique(std::vector<ForkedLexing>& alternatives) {
  std::sort(alternatives.begin(), alternatives.end());
  alternatives.erase(std::unique(alternatives.begin(), alternatives.end()), alternatives.end());
}

}  // namespace

void step_fork(const LexerDfa& dfa, const ForkedLexing& from, uint8_t byte,
               std::vector<ForkedLexing>& out) {
  std::vector<uint32_t> inhibitors;
  for (const uint32_t inhibitor : from.fork.inhibitors) {
    const uint32_t next = step_inhibitor(dfa, inhibitor, byte);
    if (next == kInhibitorFired) return;
    if (next != kInhibitorDischarged) add_inhibitor(inhibitors, next);
  }
  const uint32_t next = dfa.next(from.fork.state, byte);
  if (next == LexerDfa::kDeadState) return;
  const LabelId label =
      dfa.label(next) != LexerDfa::kNoLabel ? dfa.label(next) : dfa.tentative_label(next);
  if (label == LexerDfa::kNoLabel || !dfa.is_final(next)) {
    out.push_back({from.labels, {next, inhibitors}});  // keep extending
  }
  if (label != LexerDfa::kNoLabel) {  // emit now
    ForkedLexing emitted{from.labels, {dfa.start_state(), std::move(inhibitors)}};
    append_label(dfa, emitted.labels, label);
    if (!dfa.is_final(next)) add_inhibitor(emitted.fork.inhibitors, emission_inhibitor(dfa, next));
    out.push_back(std::move(emitted));
  }
}

void feed_forks(const LexerDfa& dfa, std::vector<ForkedLexing>& alternatives,
                std::string_view bytes) {
  std::vector<ForkedLexing> next;
  for (const char c : bytes) {
    next.clear();
    for (const ForkedLexing& alternative : alternatives) {
      step_fork(dfa, alternative, static_cast<uint8_t>(c), next);
    }
    sort_unique(next);
    alternatives.swap(next);
  }
}

std::vector<ForkedLexing> fork_configuration(const LexerDfa& dfa,
                                             const LexerConfiguration& configuration) {
  if (configuration.state == LexerDfa::kDeadState || configuration.state >= dfa.num_states()) {
    throw Error("fork_configuration: lexer configuration has DFA state " +
                    std::to_string(configuration.state) +
                    ", which is not a live state of a DFA with " +
                    std::to_string(dfa.num_states()) + " states",
                ErrorCode::kInvalidArgument);
  }
  std::vector<ForkedLexing> alternatives;
  // The lexeme keeps extending. Its bytes (pending, when nothing is accepted yet) do not matter:
  // if it never reaches an accepting state, lexing fails whatever they were.
  alternatives.push_back({{}, {configuration.state, {}}});
  if (dfa.is_tentative(configuration.state)) {
    // The whole lexeme is a match held back one byte: emitted now, void if the veto byte comes.
    ForkedLexing held{{}, initial_fork(dfa)};
    append_label(dfa, held.labels, dfa.tentative_label(configuration.state));
    held.fork.inhibitors.push_back(emission_inhibitor(dfa, configuration.state));
    alternatives.push_back(std::move(held));
  }
  if (configuration.accepted != LexerDfa::kNoLabel) {
    // The fall-back: the accepted label, then the pending bytes again from the start state. The
    // accepted lexeme continued over the pending bytes is in `state`: live, and no accepting state
    // lies between (else it would be the accepted one), so it inhibits every fork of the re-lexing
    // (if `state` holds a match back, the inhibitor fires unless the veto byte comes).
    std::vector<ForkedLexing> relexed = {{{}, initial_fork(dfa)}};
    append_label(dfa, relexed.front().labels, configuration.accepted);
    feed_forks(dfa, relexed, configuration.pending);
    for (ForkedLexing& alternative : relexed) {
      add_inhibitor(alternative.fork.inhibitors, configuration.state);
      alternatives.push_back(std::move(alternative));
    }
  }
  sort_unique(alternatives);
  return alternatives;
}

std::string describe_fork(const LexerFork& fork) {
  std::string text = "state " + std::to_string(fork.state);
  if (!fork.inhibitors.empty()) {
    text += ", inhibited by {";
    for (size_t i = 0; i < fork.inhibitors.size(); ++i) {
      if (i > 0) text += ", ";
      text += std::to_string(fork.inhibitors[i]);
    }
    text += "}";
  }
  return text;
}

}  // namespace glrmask::lexer
