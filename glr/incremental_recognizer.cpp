#include "glr/incremental_recognizer.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "glr/linear_lookahead.h"
#include "lexer/byte_classes.h"

namespace glrmask::glr {

IncrementalRecognizer::IncrementalRecognizer(std::shared_ptr<const CompiledGrammar> grammar)
    : grammar_(std::move(grammar)),
      parser_(grammar_->table()),
      byte_classes_(byte_class_representatives(grammar_->dfa())),
      indenter_(grammar_->indenter()) {
  const auto& terminals = grammar_->dfa().terminals();
  ignored_.resize(terminals.size());
  skippable_.resize(terminals.size());
  for (std::size_t t = 0; t < terminals.size(); ++t) {
    ignored_[t] = terminals[t].ignored;
    skippable_[t] = grammar_->is_skippable(static_cast<SymbolId>(t));
  }
}

ParsePosition IncrementalRecognizer::start() const {
  ParsePosition position;
  position.heads = parser_.initial_heads();
  position.lexer = lexer::initial_configuration(grammar_->dfa());
  if (indenter_ != nullptr) position.branches.push_back({IndenterState{}, position.heads});
  return position;
}

bool IncrementalRecognizer::feed_token(GssHeads& heads, lexer::LabelId label) const {
  const lexer::LexerDfa& dfa = grammar_->dfa();
  if (dfa.label_is_ignored(label)) return true;
  const std::span<const std::uint32_t> alternatives = dfa.label_terminals(label);
  if (alternatives.size() == 1) {  // the common case: no tie
    const SymbolId terminal = alternatives.front();
    GssHeads next = parser_.shift(heads, terminal);
    if (next.empty()) return skippable_[terminal] != 0;  // skipped: the stacks stay
    heads = std::move(next);
    return true;
  }
  // A tie: every alternative is tried on the same stacks and the survivors are merged.
  GssHeads merged;
  bool keep_unchanged = false;
  for (const SymbolId terminal : alternatives) {
    if (ignored_[terminal]) {
      keep_unchanged = true;
      continue;
    }
    GssHeads next = parser_.shift(heads, terminal);
    if (next.empty()) {
      keep_unchanged = keep_unchanged || skippable_[terminal];
    } else {
      merged = merged.empty() ? std::move(next) : GlrParser::merge(merged, next);
    }
  }
  if (keep_unchanged) merged = GlrParser::merge(merged, heads);
  if (merged.empty()) return false;
  heads = std::move(merged);
  return true;
}

bool IncrementalRecognizer::can_take(std::span<const GssNodeRef> heads, SymbolId terminal) const {
  return ignored_[terminal] || skippable_[terminal] || can_shift(heads, terminal);
}

bool IncrementalRecognizer::advance(ParsePosition& position, std::string_view bytes,
                                    Rejection* why) const {
  if (indenter_ != nullptr) return advance_indented(position, bytes, why);
  const lexer::LexerDfa& dfa = grammar_->dfa();
  std::vector<lexer::EmittedLexeme> tokens;
  const std::optional<lexer::LexFailure> failure = lexer::feed(dfa, position.lexer, bytes, tokens);
  // Tokens that became final before a lexing failure are parsed first: an earlier syntax error
  // is the one to report.
  const auto chunk_begin = static_cast<std::int64_t>(position.offset);
  for (const lexer::EmittedLexeme& token : tokens) {
    const auto end = static_cast<std::uint64_t>(chunk_begin + token.end);
    if (why != nullptr) why->heads = position.heads;
    if (!feed_token(position.heads, token.label)) {
      if (why != nullptr) {
        why->kind = Rejection::Kind::kUnexpectedToken;
        why->begin = position.lexeme_begin;
        why->end = end;
        why->label = token.label;
      }
      return false;
    }
    position.lexeme_begin = end;
  }
  if (failure) {
    if (why != nullptr) {
      why->kind = Rejection::Kind::kNoTerminal;
      why->heads = position.heads;
      why->begin = static_cast<std::uint64_t>(chunk_begin + failure->lexeme_begin);
      why->end = static_cast<std::uint64_t>(chunk_begin + failure->offset);
      why->lexeme = failure->lexeme;
    }
    return false;
  }
  position.offset += bytes.size();
  if (!is_viable(position)) {
    if (why != nullptr) {
      why->kind = Rejection::Kind::kDeadEnd;
      why->heads = position.heads;
      why->begin = position.lexeme_begin;
      why->end = position.offset;
    }
    return false;
  }
  return true;
}

// Viability (docs/glr.md, "Viability"): the Terminal DWA's usage rule for the empty token. The
// configuration stands for its forks (lexer_fork.h): the lexeme keeping on growing, and, when it
// has an accepted prefix, the fall-back with the labels that emits. A future exists iff for some
// fork those labels parse and then some terminal the fork can emit next is takeable, or the fork
// can end (at once or after ignored text) and the stacks accept the end of input.
bool IncrementalRecognizer::is_viable(const ParsePosition& position) const {
  if (indenter_ != nullptr) return is_viable_indented(position);
  const lexer::LexerConfiguration& lexer = position.lexer;
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  // The growing lexeme first: it emits nothing, so it needs no copy of the stacks, and it is the
  // fork that answers in the common case.
  const lexer::LexerFork growing{lexer.state, {}};
  const lexer::ForkFutures::Id growing_id = futures.uninhibited(lexer.state);
  if (growing_id != lexer::ForkFutures::kUnknown ? fork_allows(futures, growing_id, position.heads)
                                                 : fork_allows(growing, position.heads))
    return true;
  if (lexer.accepted == lexer::LexerDfa::kNoLabel) return false;
  if (lexer.pending.empty()) {
    // The lexeme is exactly its accepted match: the only fall-back emits it and restarts,
    // inhibited by the lexeme's state (what fork_configuration() gives, without building it).
    const lexer::ForkFutures::Id emitted = futures.emitted_early(lexer.state);
    if (emitted != lexer::ForkFutures::kUnknown) {
      GssHeads heads = position.heads;
      return feed_token(heads, lexer.accepted) && fork_allows(futures, emitted, heads);
    }
  }
  for (const lexer::ForkedLexing& alternative : lexer::fork_configuration(grammar_->dfa(), lexer)) {
    if (alternative.fork == growing && alternative.labels.empty()) continue;  // done above
    GssHeads heads = position.heads;
    bool parses = true;
    for (const lexer::LabelId label : alternative.labels) {
      if (!feed_token(heads, label)) {
        parses = false;
        break;
      }
    }
    if (!parses) continue;
    const std::optional<lexer::ForkFutures::Id> id = futures.find(alternative.fork);
    if (id ? fork_allows(futures, *id, heads) : fork_allows(alternative.fork, heads)) return true;
  }
  return false;
}

bool IncrementalRecognizer::fork_allows(const lexer::ForkFutures& futures,
                                        lexer::ForkFutures::Id fork,
                                        std::span<const GssNodeRef> heads) const {
  return any_takeable(futures, fork, heads) ||
         (futures.can_end(fork) && parser_.accepts_end(heads));
}

// GlrParser::can_shift, by plain LR simulation on each head where the stack below is linear.
bool IncrementalRecognizer::can_shift(std::span<const GssNodeRef> heads, SymbolId terminal) const {
  bool undecided = false;
  for (const GssNodeRef& head : heads) {
    const std::optional<bool> shifts = linear_can_shift(parser_.table(), *head, terminal);
    if (!shifts) {
      undecided = true;
    } else if (*shifts) {
      return true;
    }
  }
  return undecided && parser_.can_shift(heads, terminal);
}

// Some terminal of next_terminals(fork) is takeable. Ignored terminals are never listed, so that
// is: a listed skippable terminal, or one some stack shifts. A short list (inside most lexemes:
// one or two terminals) is tried directly. A long one (at a token boundary: nearly every terminal
// of the grammar) is filtered through the heads' table rows instead: a terminal the top states
// have no action on cannot be shifted, and a row has a few cells. Shifts at once are tried
// before anything that needs reductions.
bool IncrementalRecognizer::any_takeable(const lexer::ForkFutures& futures,
                                         lexer::ForkFutures::Id fork,
                                         std::span<const GssNodeRef> heads) const {
  constexpr std::size_t kShortList = 8;
  const std::span<const std::uint32_t> listed = futures.next_terminals(fork);
  if (listed.size() <= kShortList) {
    for (const std::uint32_t terminal : listed)
      if (skippable_[terminal] != 0 || can_shift(heads, terminal)) return true;
    return false;
  }
  for (const SymbolId terminal : grammar_->skippable_terminals())
    if (futures.lists(fork, terminal)) return true;
  const LrTable& table = parser_.table();
  bool needs_reductions = false;
  for (const GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      if (!futures.lists(fork, table.cell_terminal(cell))) continue;
      for (const Action action : table.cell_actions(cell)) {
        if (!action.is_reduce()) return true;
        needs_reductions = true;
      }
    }
  }
  if (!needs_reductions) return false;
  for (const GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      const SymbolId terminal = table.cell_terminal(cell);
      if (futures.lists(fork, terminal) && can_shift(heads, terminal)) return true;
    }
  }
  return false;
}

bool IncrementalRecognizer::fork_allows(const lexer::LexerFork& fork,
                                        std::span<const GssNodeRef> heads) const {
  // Not met by the compile-time search (no reachable configuration leads here); analysed alone.
  const lexer::ForkFutures alone(grammar_->dfa(), std::span<const lexer::LexerFork>(&fork, 1));
  return fork_allows(alone, 0, heads);
}

bool IncrementalRecognizer::is_accepting(const ParsePosition& position) const {
  if (indenter_ != nullptr) return is_accepting_indented(position);
  lexer::LexerConfiguration lexer = position.lexer;
  std::vector<lexer::EmittedLexeme> tokens;
  if (lexer::finish(grammar_->dfa(), lexer, tokens)) return false;
  if (tokens.empty()) return parser_.accepts_end(position.heads);
  GssHeads heads = position.heads;
  for (const lexer::EmittedLexeme& token : tokens)
    if (!feed_token(heads, token.label)) return false;
  return parser_.accepts_end(heads);
}

std::string IncrementalRecognizer::describe_terminal(SymbolId terminal) const {
  if (terminal == parser_.end_of_input()) return "end of input";
  const Terminal& t = grammar_->grammar().terminal(grammar_terminal(terminal));
  if (t.is_literal && t.flags.find('i') == std::string::npos)
    return fmt::format("\"{}\"", t.literal);
  return t.name;
}

std::string IncrementalRecognizer::describe_expected(std::span<const GssNodeRef> heads) const {
  constexpr std::size_t kMaxListed = 40;
  const std::vector<SymbolId> terminals = parser_.shiftable_terminals(heads);
  if (terminals.empty()) return "nothing";
  std::string text;
  for (std::size_t i = 0; i < terminals.size() && i < kMaxListed; ++i) {
    if (i > 0) text += ", ";
    text += describe_terminal(terminals[i]);
  }
  if (terminals.size() > kMaxListed)
    text += fmt::format(", ... ({} more)", terminals.size() - kMaxListed);
  return text;
}

}  // namespace glrmask::glr
