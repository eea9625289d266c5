#include "glr/incremental_recognizer.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "glr/fork_texts.h"
#include "glr/linear_lookahead.h"
#include "glr/post_lexing.h"

namespace glrmask::glr {

namespace {

// Where the text of the tokens a chunk completes lies. The bytes of the current lexeme after
// its accepted prefix are still in the lexer's configuration (`carried`); with the chunk they
// form a window that starts at absolute offset `begin`. Only a post-lexer that reads token texts
// (the indenter: a newline's width) uses it.
struct TextWindow {
  std::string carried;  // a copy: feeding the chunk replaces the configuration's pending bytes
  std::string_view chunk;
  std::uint64_t begin = 0;
  IndentScan accepted;  // the current lexeme's accepted prefix, which lies before the window
  std::uint32_t tab_len = 0;

  // The summary of the bytes [from, to), both inside the window.
  IndentScan scan(std::uint64_t from, std::uint64_t to) const {
    const auto first = static_cast<std::size_t>(from - begin);
    const auto last = static_cast<std::size_t>(to - begin);
    IndentScan result;
    if (first < carried.size())
      result = scan_indent(
          result, std::string_view(carried).substr(first, std::min(last, carried.size()) - first),
          tab_len);
    if (last > carried.size()) {
      const std::size_t chunk_first = first > carried.size() ? first - carried.size() : 0;
      result = scan_indent(result, chunk.substr(chunk_first, last - carried.size() - chunk_first),
                           tab_len);
    }
    return result;
  }
  // The summary of the token [token_begin, end): a part before the window is the accepted prefix.
  IndentScan token(std::uint64_t token_begin, std::uint64_t end) const {
    if (token_begin >= begin) return scan(token_begin, end);
    return append_scan(accepted, scan(begin, end));
  }
};

// What the identity post-lexer keeps of token texts: nothing.
struct NoText {};

}  // namespace

IncrementalRecognizer::IncrementalRecognizer(std::shared_ptr<const CompiledGrammar> grammar,
                                             ParserLimits limits)
    : grammar_(std::move(grammar)),
      parser_(grammar_->table(), limits),
      byte_classes_(grammar_->dfa().byte_classes()),
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

bool IncrementalRecognizer::feed_indented(std::vector<IndentedStacks>& branches,
                                          lexer::LabelId label, IndentScan text) const {
  return IndenterPostLexing(*this).feed(branches, label, text, nullptr);
}

bool IncrementalRecognizer::indented_allows(const std::vector<IndentedStacks>& branches,
                                            const lexer::ForkFutures& futures,
                                            lexer::ForkFutures::Id fork) const {
  return IndenterPostLexing(*this).allows(futures, fork, branches);
}

bool IncrementalRecognizer::is_viable(const ParsePosition& position) const {
  if (indenter_ != nullptr) return viable_through(IndenterPostLexing(*this), position);
  return viable_through(IdentityPostLexing(*this), position);
}

bool IncrementalRecognizer::is_accepting(const ParsePosition& position) const {
  if (indenter_ != nullptr) return accepting_through(IndenterPostLexing(*this), position);
  return accepting_through(IdentityPostLexing(*this), position);
}

// Inlined into advance(), so that the path without a post-lexer costs what it did before it
// shared this code (a call here was ~15 instructions per commit, 0.2% of a Go commit).
template <typename PostLexing>
[[gnu::always_inline]] inline bool IncrementalRecognizer::advance_through(const PostLexing& post,
                                                                          ParsePosition& position,
                                                                          std::string_view bytes,
                                                                          Rejection* why) const {
  const lexer::LexerDfa& dfa = grammar_->dfa();
  typename PostLexing::Stacks& stacks = PostLexing::stacks(position);
  const std::uint64_t first_lexeme_begin = position.lexeme_begin;
  std::conditional_t<PostLexing::kReadsText, TextWindow, NoText> window;
  if constexpr (PostLexing::kReadsText) {
    window = {position.lexer.pending, bytes, position.offset - position.lexer.pending.size(),
              position.accepted_scan, indenter_->tab_len};
  }
  std::vector<lexer::EmittedLexeme> tokens;
  const std::optional<lexer::LexFailure> failure = lexer::feed(dfa, position.lexer, bytes, tokens);
  // Tokens that became final before a lexing failure are parsed first: an earlier syntax error
  // is the one to report.
  const auto chunk_begin = static_cast<std::int64_t>(position.offset);
  for (const lexer::EmittedLexeme& token : tokens) {
    const auto end = static_cast<std::uint64_t>(chunk_begin + token.end);
    IndentScan text;
    if constexpr (PostLexing::kReadsText) text = window.token(position.lexeme_begin, end);
    if (why != nullptr) why->heads = PostLexing::heads_of(stacks);
    if (!post.feed(stacks, token.label, text, why)) {
      if (why != nullptr) {
        why->begin = position.lexeme_begin;
        why->end = end;
        why->label = token.label;
      }
      return false;
    }
    position.lexeme_begin = end;
  }
  PostLexing::publish(position);
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
  if constexpr (PostLexing::kReadsText) {
    const std::uint64_t accepted_end = position.offset - position.lexer.pending.size();
    position.accepted_scan = position.lexeme_begin == first_lexeme_begin
                                 ? window.token(first_lexeme_begin, accepted_end)
                                 : window.scan(position.lexeme_begin, accepted_end);
  }
  if (!viable_through(post, position)) {
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

bool IncrementalRecognizer::advance(ParsePosition& position, std::string_view bytes,
                                    Rejection* why) const {
  if (indenter_ != nullptr) return advance_through(IndenterPostLexing(*this), position, bytes, why);
  return advance_through(IdentityPostLexing(*this), position, bytes, why);
}

// Viability (docs/glr.md, "Viability"; with the indenter docs/indenter.md): the Terminal DWA's
// usage rule for the empty token. The configuration stands for its forks (lexer_fork.h): the
// lexeme keeping on growing, and, when it has an accepted prefix, the fall-back with the labels
// that emits. A future exists iff for some fork those labels get through the post-lexer and
// parse, and then some terminal the fork can emit next is takeable, or the fork can end (at once
// or after ignored text) and the stacks accept the end of input.
template <typename PostLexing>
bool IncrementalRecognizer::viable_through(const PostLexing& post,
                                           const ParsePosition& position) const {
  const lexer::LexerConfiguration& lexer = position.lexer;
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  const typename PostLexing::Stacks& stacks = PostLexing::stacks(position);
  // A fork the compile-time search did not meet (no reachable configuration leads there) is
  // analysed alone.
  const auto allows = [&](const lexer::LexerFork& fork, const typename PostLexing::Stacks& at) {
    if (const std::optional<lexer::ForkFutures::Id> id = futures.find(fork))
      return post.allows(futures, *id, at);
    const lexer::ForkFutures alone(grammar_->dfa(), std::span<const lexer::LexerFork>(&fork, 1));
    return post.allows(alone, 0, at);
  };
  // The growing lexeme first: it emits nothing, so it needs no copy of the stacks, and it is the
  // fork that answers in the common case.
  const lexer::LexerFork growing{lexer.state, {}};
  const lexer::ForkFutures::Id growing_id = futures.uninhibited(lexer.state);
  if (growing_id != lexer::ForkFutures::kUnknown ? post.allows(futures, growing_id, stacks)
                                                 : allows(growing, stacks))
    return true;
  const bool held = grammar_->dfa().is_tentative(lexer.state);  // lexer_fork.h, kHeldEmission
  if (lexer.accepted == lexer::LexerDfa::kNoLabel && !held) return false;
  if (lexer.accepted != lexer::LexerDfa::kNoLabel && lexer.pending.empty()) {
    // The lexeme is exactly its accepted match: the only fall-back emits it and restarts,
    // inhibited by the lexeme's state (what fork_configuration() gives, without building it).
    const lexer::ForkFutures::Id emitted = futures.emitted_early(lexer.state);
    if (emitted != lexer::ForkFutures::kUnknown) {
      typename PostLexing::Stacks fed = stacks;
      return post.feed(fed, lexer.accepted, position.accepted_scan, nullptr) &&
             post.allows(futures, emitted, fed);
    }
  }
  const auto fall_back_allows = [&](std::span<const lexer::LabelId> labels,
                                    std::span<const IndentScan> texts,
                                    const lexer::LexerFork& fork) {
    typename PostLexing::Stacks fed = stacks;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (!post.feed(fed, labels[i], texts.empty() ? IndentScan{} : texts[i], nullptr))
        return false;
    return allows(fork, fed);
  };
  if constexpr (PostLexing::kReadsText) {
    std::vector<IndentScan> texts;
    for (const ForkTexts& fall_back :
         fork_texts(grammar_->dfa(), lexer, indenter_->tab_len, /*with_growing=*/false)) {
      texts.clear();
      for (const TextPart& text : fall_back.texts)
        texts.push_back(text.resolve(position.accepted_scan));
      if (fall_back_allows(fall_back.labels, texts, fall_back.fork)) return true;
    }
  } else {
    for (const lexer::ForkedLexing& alternative :
         lexer::fork_configuration(grammar_->dfa(), lexer)) {
      if (alternative.fork == growing && alternative.labels.empty()) continue;  // done above
      if (fall_back_allows(alternative.labels, {}, alternative.fork)) return true;
    }
  }
  return false;
}

template <typename PostLexing>
bool IncrementalRecognizer::accepting_through(const PostLexing& post,
                                              const ParsePosition& position) const {
  lexer::LexerConfiguration lexer = position.lexer;
  std::vector<lexer::EmittedLexeme> tokens;
  if (lexer::finish(grammar_->dfa(), lexer, tokens)) return false;
  const typename PostLexing::Stacks& stacks = PostLexing::stacks(position);
  if (tokens.empty()) return post.finishes(stacks);
  std::conditional_t<PostLexing::kReadsText, TextWindow, NoText> window;
  if constexpr (PostLexing::kReadsText) {
    window = {position.lexer.pending,
              {},
              position.offset - position.lexer.pending.size(),
              position.accepted_scan,
              indenter_->tab_len};
  }
  typename PostLexing::Stacks fed = stacks;
  std::uint64_t begin = position.lexeme_begin;
  for (const lexer::EmittedLexeme& token : tokens) {
    const auto end =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(position.offset) + token.end);
    IndentScan text;
    if constexpr (PostLexing::kReadsText) text = window.token(begin, end);
    if (!post.feed(fed, token.label, text, nullptr)) return false;
    begin = end;
  }
  return post.finishes(fed);
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

std::string IncrementalRecognizer::describe_terminal(SymbolId terminal) const {
  if (terminal == parser_.end_of_input()) return "end of input";
  const Terminal& t = grammar_->grammar().terminal(grammar_terminal(terminal));
  if (t.is_literal && t.flags.find('i') == std::string::npos)
    return fmt::format("\"{}\"", t.literal);
  return t.name;
}

std::string IncrementalRecognizer::terminal_name(SymbolId terminal) const {
  if (terminal == parser_.end_of_input()) return "$END";
  return grammar_->grammar().terminal(grammar_terminal(terminal)).name;
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
