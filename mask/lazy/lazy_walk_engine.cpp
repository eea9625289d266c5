#include "mask/lazy/lazy_walk_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "glr/parse_view.h"
#include "lexer/runtime/lexer_fork.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"
#include "lib/token_set/roaring.h"
#include "mask/post_lexer_refusal.h"

namespace glrmask::mask {

LazyWalkEngine::LazyWalkEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                               const Vocabulary& vocabulary, const lexer::VocabularyTrie& trie,
                               const lexer::PlainTokens* plain)
    : grammar_(without_post_lexer(std::move(grammar), "lazy")),
      vocabulary_(vocabulary),
      dwa_(grammar_->dfa(), grammar_->fork_futures(), trie, plain),
      lists_skippable_(grammar_->fork_futures().size(), -1) {
  if (trie.universe_size() != vocabulary.size())
    throw Error(fmt::format("lazy engine: the vocabulary trie has {} ids, the vocabulary '{}' {}",
                            trie.universe_size(), vocabulary.name(), vocabulary.size()),
                ErrorCode::kInvalidArgument);
}

void LazyWalkEngine::fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) {
  const auto universe = static_cast<std::uint32_t>(vocabulary_.size());
  check_mask_words("lazy", words.size(), universe);
  check_session_grammar("lazy", parse, *grammar_);
  std::fill(words.begin(), words.end(), 0u);
  label_feeds_ = 0;
  forks_built_before_ = dwa_.stats().forks_built;
  if (parse.is_finished()) return;
  const glr::IncrementalRecognizer& recognizer = parse.recognizer();
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  for (const lexer::ForkedLexing& entry :
       lexer::fork_configuration(grammar_->dfa(), parse.lexer_configuration())) {
    glr::GssHeads heads = parse.heads();
    bool alive = true;
    for (const lexer::LabelId label : entry.labels) {
      ++label_feeds_;
      if (!recognizer.feed_token(heads, label)) {
        alive = false;
        break;
      }
    }
    if (!alive) continue;
    const std::optional<lexer::ForkFutures::Id> fork = futures.find(entry.fork);
    if (!fork)
      throw Error(fmt::format("lazy mask: the session's lexer is in {}, which no bytes reach",
                              lexer::describe_fork(entry.fork)),
                  ErrorCode::kInternal);
    collect(recognizer, dwa_.trie(*fork), 0, heads, words);
  }
  // The trie holds no special token; EOS is decided here alone.
  if (const auto eos = vocabulary_.eos(); eos && *eos < universe) {
    const std::uint32_t bit = std::uint32_t{1} << (*eos % 32);
    words[*eos / 32] = parse.is_accepting() ? (words[*eos / 32] | bit) : (words[*eos / 32] & ~bit);
  }
  counters_ = {
      {"label_feeds", static_cast<double>(label_feeds_)},
      {"forks_built", static_cast<double>(dwa_.stats().forks_built - forks_built_before_)}};
}

void LazyWalkEngine::collect(const glr::IncrementalRecognizer& recognizer,
                             const lexer::LazyForkTrie& trie, std::uint32_t node,
                             const glr::GssHeads& heads, std::span<std::uint32_t> words) {
  const lexer::LazyDwaNode& entry = trie.nodes[node];
  for (std::uint32_t g = entry.groups_begin; g < entry.groups_end; ++g)
    if (end_fork_allows(recognizer, trie.groups[g].end, heads))
      or_dense(*trie.groups[g].tokens, words);
  for (std::uint32_t c = entry.children_begin; c < entry.children_end; ++c) {
    const std::uint32_t child = trie.children[c];
    glr::GssHeads next = heads;
    ++label_feeds_;
    if (recognizer.feed_token(next, trie.nodes[child].label))
      collect(recognizer, trie, child, next, words);
  }
}

bool LazyWalkEngine::end_fork_allows(const glr::IncrementalRecognizer& recognizer,
                                     lexer::ForkFutures::Id end, const glr::GssHeads& heads) {
  // Some terminal of the end fork's next terminals can be taken: a skippable one always, another
  // if some head's LR row has an action on it (the rows are short, the next sets are not).
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  signed char& skippable = lists_skippable_[end];
  if (skippable < 0) {
    skippable = 0;
    for (const std::uint32_t terminal : futures.next_terminals(end))
      if (grammar_->is_skippable(static_cast<glr::SymbolId>(terminal))) skippable = 1;
  }
  if (skippable) return true;
  const glr::LrTable& table = recognizer.parser().table();
  for (const glr::GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      const glr::SymbolId terminal = table.cell_terminal(cell);
      if (futures.lists(end, terminal) && recognizer.can_take(heads, terminal)) return true;
    }
  }
  return futures.can_end(end) && recognizer.parser().accepts_end(heads);
}

}  // namespace glrmask::mask
