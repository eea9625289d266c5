#include "wfa/spanner_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <unordered_set>
#include <utility>
#include <vector>

#include "glr/session.h"
#include "lexer/fork_next_terminals.h"
#include "lexer/lexer_fork.h"
#include "lexer/terminal_dwa_builder.h"
#include "lib/dense_mask.h"
#include "lib/error.h"

namespace glrmask::wfa {

namespace {

lexer::TerminalDwa build_dwa(const glr::CompiledGrammar& grammar, const Vocabulary& vocabulary,
                             TokenSetPool& pool) {
  const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
  return lexer::build_terminal_dwa(grammar.dfa(), trie, pool);
}

// A label the parser may read as "skip": purely ignored, or a tie with an ignored alternative.
bool can_skip(const lexer::LexerDfa& dfa, lexer::LabelId label) {
  if (dfa.label_is_ignored(label)) return true;
  for (const std::uint32_t terminal : dfa.label_terminals(label))
    if (dfa.terminals()[terminal].ignored) return true;
  return false;
}

// Per fork: whether some bytes lead it to a token boundary while emitting only labels that can
// be skipped (a trailing comment or blank). next_terminals() looks through ignored text but only
// lists terminals, so this is the missing case "ignored text, then the end of input".
std::vector<char> forks_ending_through_ignored(const lexer::TerminalDwa& dwa) {
  const lexer::LexerDfa& dfa = dwa.dfa();
  const std::vector<std::uint8_t> bytes = lexer::byte_class_representatives(dfa);
  std::vector<char> result(dwa.num_forks(), 0);
  for (lexer::ForkId id = 0; id < dwa.num_forks(); ++id) {
    if (dwa.can_finish(id)) continue;  // decided by can_finish() itself
    std::unordered_set<lexer::LexerFork, lexer::LexerForkHash> seen{dwa.fork(id)};
    std::vector<lexer::LexerFork> stack{dwa.fork(id)};
    std::vector<lexer::ForkedLexing> successors;
    while (!stack.empty() && result[id] == 0) {
      const lexer::ForkedLexing from{{}, std::move(stack.back())};
      stack.pop_back();
      for (const std::uint8_t byte : bytes) {
        successors.clear();
        lexer::step_fork(dfa, from, byte, successors);
        for (lexer::ForkedLexing& next : successors) {
          if (!std::all_of(next.labels.begin(), next.labels.end(),
                           [&](lexer::LabelId label) { return can_skip(dfa, label); }))
            continue;
          if (lexer::can_finish(dfa, next.fork)) result[id] = 1;
          if (seen.insert(next.fork).second) stack.push_back(std::move(next.fork));
        }
      }
    }
  }
  return result;
}

}  // namespace

SpannerEngine::SpannerEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                             const Vocabulary& vocabulary)
    : grammar_(std::move(grammar)),
      vocabulary_(vocabulary),
      pool_(static_cast<std::uint32_t>(vocabulary.size())),
      dwa_(build_dwa(*grammar_, vocabulary_, pool_)),
      ends_through_ignored_(forks_ending_through_ignored(dwa_)) {}

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
  unsure_.assign(words.size(), 0u);
  checked_tokens_ = 0;
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
    if (alive) collect(recognizer, dwa_.root(entry.fork), heads, words, unsure_);
  }
  decide_unsure(session, words);
  // The trie holds no special token, but EOS is decided here alone.
  if (const auto eos = vocabulary_.eos(); eos && *eos < universe) {
    const std::uint32_t bit = std::uint32_t{1} << (*eos % 32);
    words[*eos / 32] =
        session.is_accepting() ? (words[*eos / 32] | bit) : (words[*eos / 32] & ~bit);
  }
}

void SpannerEngine::collect(const glr::IncrementalRecognizer& recognizer, lexer::DwaNodeId node,
                            const glr::GssHeads& heads, std::span<std::uint32_t> words,
                            std::span<std::uint32_t> unsure) const {
  for (const lexer::DwaWeight& weight : dwa_.weights(node)) {
    if (!dwa_.fork(weight.end).inhibitors.empty()) {
      pool_.or_into_dense(weight.tokens, unsure);
    } else if (end_fork_allows(recognizer, weight.end, heads)) {
      pool_.or_into_dense(weight.tokens, words);
    }
  }
  for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
    glr::GssHeads next = heads;
    if (recognizer.feed_token(next, edge.label))
      collect(recognizer, edge.child, next, words, unsure);
  }
}

void SpannerEngine::decide_unsure(const glr::Session& session, std::span<std::uint32_t> words) {
  for (std::size_t word = 0; word < words.size(); ++word) {
    std::uint32_t open = unsure_[word] & ~words[word];
    while (open != 0) {
      const int bit = std::countr_zero(open);
      open &= open - 1;
      const auto token = static_cast<TokenId>(word * 32 + static_cast<std::size_t>(bit));
      ++checked_tokens_;
      if (session.accepts_bytes(vocabulary_.bytes(token))) words[word] |= std::uint32_t{1} << bit;
    }
  }
}

bool SpannerEngine::end_fork_allows(const glr::IncrementalRecognizer& recognizer, lexer::ForkId end,
                                    const glr::GssHeads& heads) const {
  for (const std::uint32_t terminal : dwa_.next_terminals(end))
    if (recognizer.can_take(heads, terminal)) return true;
  return (dwa_.can_finish(end) || ends_through_ignored_[end] != 0) &&
         recognizer.parser().accepts_end(heads);
}

}  // namespace glrmask::wfa
