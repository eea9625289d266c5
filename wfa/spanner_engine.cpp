#include "wfa/spanner_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "glr/session.h"
#include "lexer/lexer_fork.h"
#include "lexer/terminal_dwa_builder.h"
#include "lib/dense_mask.h"
#include "lib/error.h"
#include "wfa/post_lexer_refusal.h"

namespace glrmask::wfa {

namespace {

lexer::TerminalDwa build_dwa(const glr::CompiledGrammar& grammar, const Vocabulary& vocabulary,
                             TokenSetPool& pool) {
  const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
  return lexer::build_terminal_dwa(grammar.dfa(), trie, pool);
}

// Per DWA fork, glr::ForkFutures::can_end: the grammar enumerated every byte-reachable fork, and
// every fork a token reaches is one of them.
std::vector<char> forks_that_can_end(const lexer::TerminalDwa& dwa,
                                     const glr::ForkFutures& futures) {
  std::vector<char> result(dwa.num_forks(), 0);
  for (lexer::ForkId id = 0; id < dwa.num_forks(); ++id) {
    const lexer::LexerFork& fork = dwa.fork(id);
    if (const auto known = futures.find(fork)) {
      result[id] = futures.can_end(*known) ? 1 : 0;
    } else {
      const glr::ForkFutures alone(dwa.dfa(), std::span<const lexer::LexerFork>(&fork, 1));
      result[id] = alone.can_end(0) ? 1 : 0;
    }
  }
  return result;
}

}  // namespace

SpannerEngine::SpannerEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                             const Vocabulary& vocabulary)
    : grammar_(without_post_lexer(std::move(grammar), "spanner")),
      vocabulary_(vocabulary),
      pool_(static_cast<std::uint32_t>(vocabulary.size())),
      dwa_(build_dwa(*grammar_, vocabulary_, pool_)),
      can_end_(forks_that_can_end(dwa_, grammar_->fork_futures())) {}

void SpannerEngine::fill_mask(const glr::Session& session, std::span<std::uint32_t> words) {
  const auto universe = static_cast<std::uint32_t>(vocabulary_.size());
  if (words.size() != dense_word_count(universe)) {
    throw Error(fmt::format("spanner mask: {} words given, the vocabulary '{}' ({} ids) needs {}",
                            words.size(), vocabulary_.name(), universe,
                            dense_word_count(universe)));
  }
  if (&session.grammar() != grammar_.get()) {
    throw Error(fmt::format(
        "spanner mask: the session at byte offset {} uses another grammar than the engine",
        session.byte_offset()));
  }
  std::fill(words.begin(), words.end(), 0u);
  if (session.is_finished()) return;
  const glr::IncrementalRecognizer& recognizer = session.recognizer();
  for (const lexer::DwaEntry& entry : dwa_.enter(session.lexer_configuration())) {
    glr::GssHeads heads = session.heads();
    bool alive = true;
    for (const lexer::LabelId label : entry.labels) {
      if (!recognizer.feed_token(heads, label)) {
        alive = false;
        break;
      }
    }
    if (alive) collect(recognizer, dwa_.root(entry.fork), heads, words);
  }
  // The trie holds no special token, but EOS is decided here alone.
  if (const auto eos = vocabulary_.eos(); eos && *eos < universe) {
    const std::uint32_t bit = std::uint32_t{1} << (*eos % 32);
    words[*eos / 32] =
        session.is_accepting() ? (words[*eos / 32] | bit) : (words[*eos / 32] & ~bit);
  }
}

void SpannerEngine::collect(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
                            const glr::GssHeads& heads, std::span<std::uint32_t> words) const {
  for (const lexer::DwaWeight& weight : dwa_.weights(node))
    if (end_fork_allows(recognizer, weight.end, heads)) pool_.or_into_dense(weight.tokens, words);
  for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
    glr::GssHeads next = heads;
    if (recognizer.feed_token(next, edge.label)) collect(recognizer, edge.child, next, words);
  }
}

bool SpannerEngine::end_fork_allows(const glr::IncrementalRecognizer& recognizer, lexer::ForkId end,
                                    const glr::GssHeads& heads) const {
  for (const std::uint32_t terminal : dwa_.next_terminals(end))
    if (recognizer.can_take(heads, terminal)) return true;
  return can_end_[end] != 0 && recognizer.parser().accepts_end(heads);
}

}  // namespace glrmask::wfa
