#include "mask/spanner/spanner_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <span>
#include <utility>
#include <vector>

#include "glr/fork_texts.h"
#include "glr/parse_view.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/indent_label.h"
#include "lexer/terminal_dwa/terminal_dwa_builder.h"
#include "lib/core/error.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask::mask {

namespace {

lexer::TerminalDwa build_dwa(const glr::CompiledGrammar& grammar, const Vocabulary& vocabulary,
                             TokenSetPool& pool) {
  const lexer::VocabularyTrie trie = lexer::VocabularyTrie::build(vocabulary);
  lexer::TerminalDwaOptions options;
  if (const glr::IndenterSpec* indenter = grammar.indenter()) {
    if (!grammar.skippable_terminals().empty())
      throw Error("spanner: a grammar with a post-lexer and skippable terminals is not supported",
                  ErrorCode::kUnsupported);
    options.indent_labeling = lexer::IndentLabeling{indenter->newline, indenter->tab_len};
  }
  return lexer::build_terminal_dwa(grammar.dfa(), trie, pool, options);
}

// Per DWA fork, lexer::ForkFutures::can_end: the grammar enumerated every byte-reachable fork, and
// every fork a token reaches is one of them.
std::vector<char> forks_that_can_end(const lexer::TerminalDwa& dwa,
                                     const lexer::ForkFutures& futures) {
  std::vector<char> result(dwa.num_forks(), 0);
  for (lexer::ForkId id = 0; id < dwa.num_forks(); ++id) {
    const lexer::LexerFork& fork = dwa.fork(id);
    if (const auto known = futures.find(fork)) {
      result[id] = futures.can_end(*known) ? 1 : 0;
    } else {
      const lexer::ForkFutures alone(dwa.dfa(), std::span<const lexer::LexerFork>(&fork, 1));
      result[id] = alone.can_end(0) ? 1 : 0;
    }
  }
  return result;
}

// The session recognizer's per-terminal facts, for the table (none with an indenter).
SpannerTable build_table(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                         const std::vector<char>& can_end, TokenSetPool& pool) {
  if (grammar.indenter() != nullptr) return SpannerTable{};
  const auto& terminals = grammar.dfa().terminals();
  std::vector<char> ignored(terminals.size(), 0);
  std::vector<char> skippable(terminals.size(), 0);
  for (std::size_t t = 0; t < terminals.size(); ++t) {
    ignored[t] = terminals[t].ignored ? 1 : 0;
    skippable[t] = grammar.is_skippable(static_cast<glr::SymbolId>(t)) ? 1 : 0;
  }
  return SpannerTable::build(dwa, grammar.table(), can_end, skippable, ignored, pool);
}

}  // namespace

SpannerEngine::SpannerEngine(std::shared_ptr<const glr::CompiledGrammar> grammar,
                             const Vocabulary& vocabulary)
    : grammar_(std::move(grammar)),
      vocabulary_(vocabulary),
      pool_(static_cast<std::uint32_t>(vocabulary.size())),
      dwa_(build_dwa(*grammar_, vocabulary_, pool_)),
      can_end_(forks_that_can_end(dwa_, grammar_->fork_futures())),
      table_(build_table(*grammar_, dwa_, can_end_, pool_)) {
  if (grammar_->indenter() == nullptr) return;
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  for (lexer::ForkId id = 0; id < dwa_.num_forks(); ++id) {
    const lexer::LexerFork& fork = dwa_.fork(id);
    if (const auto known = futures.find(fork)) {
      futures_of_fork_.emplace_back(&futures, *known);
    } else {
      lone_futures_.push_back(std::make_unique<lexer::ForkFutures>(
          dwa_.dfa(), std::span<const lexer::LexerFork>(&fork, 1)));
      futures_of_fork_.emplace_back(lone_futures_.back().get(), 0);
    }
  }
}

void SpannerEngine::fill_mask(const glr::ParseView& parse, std::span<std::uint32_t> words) {
  const auto universe = static_cast<std::uint32_t>(vocabulary_.size());
  check_mask_words("spanner", words.size(), universe);
  check_session_grammar("spanner", parse, *grammar_);
  std::fill(words.begin(), words.end(), 0u);
  if (parse.is_finished()) return;
  if (grammar_->indenter() != nullptr) {
    fill_mask_indented(parse, words);
  } else {
    fill_mask_plain(parse, words);
  }
  // The trie holds no special token, but EOS is decided here alone.
  if (const auto eos = vocabulary_.eos(); eos && *eos < universe) {
    const std::uint32_t bit = std::uint32_t{1} << (*eos % 32);
    words[*eos / 32] = parse.is_accepting() ? (words[*eos / 32] | bit) : (words[*eos / 32] & ~bit);
  }
}

void SpannerEngine::fill_mask_plain(const glr::ParseView& parse,
                                    std::span<std::uint32_t> words) const {
  const glr::IncrementalRecognizer& recognizer = parse.recognizer();
  for (const lexer::DwaEntry& entry : dwa_.enter(parse.lexer_configuration())) {
    glr::GssHeads heads = parse.heads();
    bool alive = true;
    for (const lexer::LabelId label : entry.labels) {
      if (!recognizer.feed_token(heads, label)) {
        alive = false;
        break;
      }
    }
    if (!alive) continue;
    if (use_table_) {
      collect_split(recognizer, dwa_.root(entry.fork), heads, words);
    } else {
      collect(recognizer, dwa_.root(entry.fork), heads, words);
    }
  }
}

void SpannerEngine::fill_mask_indented(const glr::ParseView& parse,
                                       std::span<std::uint32_t> words) const {
  const glr::IncrementalRecognizer& recognizer = parse.recognizer();
  const glr::ParsePosition& position = parse.position();
  for (const glr::ForkTexts& fork :
       glr::fork_texts(dwa_.dfa(), position.lexer, grammar_->indenter()->tab_len, true)) {
    const std::optional<lexer::ForkId> id = dwa_.find_fork(fork.fork);
    if (!id)
      throw Error(
          fmt::format(
              "spanner mask: the lexer configuration at byte offset {} has the fork {}, which no "
              "sequence of vocabulary tokens reaches",
              parse.byte_offset(), lexer::describe_fork(fork.fork)),
          ErrorCode::kUnsupported,
          ErrorLocation::at_byte(static_cast<std::int64_t>(parse.byte_offset())));
    std::vector<glr::IndentedStacks> branches = position.branches;
    bool alive = true;
    for (std::size_t i = 0; i < fork.labels.size() && alive; ++i)
      alive = recognizer.feed_indented(branches, fork.labels[i],
                                       fork.texts[i].resolve(position.accepted_scan));
    if (!alive) continue;
    collect_indented(recognizer, dwa_.root(*id), branches,
                     fork.carried.resolve(position.accepted_scan), words);
  }
}

void SpannerEngine::collect_indented(const glr::IncrementalRecognizer& recognizer,
                                     lexer::DwaNodeId node,
                                     const std::vector<glr::IndentedStacks>& branches,
                                     glr::IndentScan carried,
                                     std::span<std::uint32_t> words) const {
  for (const lexer::DwaWeight& weight : dwa_.weights(node)) {
    const auto& [futures, id] = futures_of_fork_[weight.end];
    if (recognizer.indented_allows(branches, *futures, id))
      pool_.or_into_dense(weight.tokens, words);
  }
  for (const lexer::DwaEdge& edge : dwa_.edges(node)) {
    // A newline's text: what the token holds of it (its indent label), after the text the
    // lexeme had before the token when the label is relative.
    glr::IndentScan text;
    if (lexer::is_indent_label(edge.label)) {
      const lexer::IndentText part = lexer::indent_text(edge.label);
      switch (part.kind) {
        case lexer::IndentTextKind::kAbsolute:
          text = {true, part.width};
          break;
        case lexer::IndentTextKind::kRelative:
          text = glr::append_scan(carried, {false, part.width});
          break;
        case lexer::IndentTextKind::kNoNewline:
          break;
      }
    }
    std::vector<glr::IndentedStacks> next = branches;
    if (recognizer.feed_indented(next, lexer::base_label(edge.label), text))
      collect_indented(recognizer, edge.child, next, carried, words);
  }
}

void SpannerEngine::collect_split(const glr::IncrementalRecognizer& recognizer,
                                  lexer::DwaNodeId node, const glr::GssHeads& heads,
                                  std::span<std::uint32_t> words) const {
  // One cell per head; the whole subtrie on all heads together when some head has none or the
  // heads cannot be split (spanner_table.h, "Several heads").
  boost::container::small_vector<const SpannerCell*, 4> cells;
  for (const glr::GssNodeRef& head : heads) {
    const SpannerCell* cell = table_.find_cell(node, head->state());
    if (cell == nullptr || (heads.size() > 1 && cell->skip_sensitive)) {
      collect(recognizer, node, heads, words);
      return;
    }
    cells.push_back(cell);
  }
  for (std::size_t i = 0; i < heads.size(); ++i) {
    if (!cells[i]->accepted.is_empty()) pool_.or_into_dense(cells[i]->accepted, words);
    if (cells[i]->plan == SpannerTable::kNoPlan) continue;
    if (heads.size() == 1) {
      walk_plan(recognizer, cells[i]->plan, heads, words);
    } else {
      walk_plan(recognizer, cells[i]->plan, glr::GssHeads{heads[i]}, words);
    }
  }
}

void SpannerEngine::walk_plan(const glr::IncrementalRecognizer& recognizer, SpannerPlanId plan,
                              const glr::GssHeads& heads, std::span<std::uint32_t> words) const {
  const SpannerPlanNode& node = table_.plan(plan);
  if (node.reenter) {
    collect_split(recognizer, node.node, heads, words);
    return;
  }
  const std::span<const lexer::DwaWeight> weights = dwa_.weights(node.node);
  for (const std::uint32_t i : table_.plan_weights(node))
    if (end_fork_allows(recognizer, weights[i].end, heads))
      pool_.or_into_dense(weights[i].tokens, words);
  for (const SpannerPlanEdge& edge : table_.plan_edges(node)) {
    glr::GssHeads next = heads;
    if (recognizer.feed_token(next, edge.label)) walk_plan(recognizer, edge.child, next, words);
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
  // Some terminal of next_terminals(end) can be taken: a skippable one always; another only if
  // some head's state has an action on it (no action, no reduction, no shift), so the heads' LR
  // rows (a few cells) are scanned instead of the list (at a token boundary: nearly every
  // terminal of the grammar).
  const NextTerminalBits& next = table_.next_terminal_bits();
  if (next.lists_skippable(end)) return true;
  const glr::LrTable& table = recognizer.parser().table();
  for (const glr::GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      const glr::SymbolId terminal = table.cell_terminal(cell);
      if (next.lists(end, terminal) && recognizer.can_take(heads, terminal)) return true;
    }
  }
  return can_end_[end] != 0 && recognizer.parser().accepts_end(heads);
}

}  // namespace glrmask::mask
