// The recognizer's paths for a grammar with a post-lexer (Python's indenter, glr/indenter.h):
// lexed tokens go through the indenter before the parser, so the position holds, per indenter
// state, the stacks that reached it. docs/indenter.md states the semantics and the viability
// rule implemented here.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "glr/incremental_recognizer.h"

namespace glrmask::glr {

namespace {

// The indentation summary of the bytes [from, to) of a window that starts at absolute offset
// `window_begin` and is `first` followed by `second` (the lexer's carried bytes, then the chunk).
IndentScan scan_window(std::string_view first, std::string_view second, std::uint64_t window_begin,
                       std::uint64_t from, std::uint64_t to, std::uint32_t tab_len) {
  const auto begin = static_cast<std::size_t>(from - window_begin);
  const auto end = static_cast<std::size_t>(to - window_begin);
  IndentScan scan;
  if (begin < first.size())
    scan = scan_indent(scan, first.substr(begin, std::min(end, first.size()) - begin), tab_len);
  if (end > first.size()) {
    const std::size_t second_begin = begin > first.size() ? begin - first.size() : 0;
    scan =
        scan_indent(scan, second.substr(second_begin, end - first.size() - second_begin), tab_len);
  }
  return scan;
}

// The indentation summary of the token [begin, end): its part before the window is the current
// lexeme's accepted prefix, summarized in `accepted`.
IndentScan token_scan(IndentScan accepted, std::string_view first, std::string_view second,
                      std::uint64_t window_begin, std::uint64_t begin, std::uint64_t end,
                      std::uint32_t tab_len) {
  if (begin >= window_begin) return scan_window(first, second, window_begin, begin, end, tab_len);
  return append_scan(accepted,
                     scan_window(first, second, window_begin, window_begin, end, tab_len));
}

GssHeads union_of(const std::vector<IndentedStacks>& branches) {
  if (branches.size() == 1) return branches.front().heads;
  GssHeads merged;
  for (const IndentedStacks& branch : branches)
    merged = merged.empty() ? branch.heads : GlrParser::merge(merged, branch.heads);
  return merged;
}

// Sorts by indenter state and unites the stacks of equal states.
void normalize(std::vector<IndentedStacks>& branches) {
  if (branches.size() < 2) return;
  std::sort(branches.begin(), branches.end(), [](const IndentedStacks& a, const IndentedStacks& b) {
    return a.indenter < b.indenter;
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < branches.size(); ++i) {
    if (kept > 0 && branches[kept - 1].indenter == branches[i].indenter) {
      branches[kept - 1].heads = GlrParser::merge(branches[kept - 1].heads, branches[i].heads);
    } else {
      if (kept != i) branches[kept] = std::move(branches[i]);
      ++kept;
    }
  }
  branches.resize(kept);
}

// A fall-back fork of the lexer with the labels it emits early, each with its text's summary.
struct FallBack {
  std::vector<std::pair<lexer::LabelId, IndentScan>> labels;
  lexer::LexerFork fork;
};

// What lexer::fork_configuration() gives for the fall-back of an accepted prefix, with the text
// of every label: the accepted label (its summary is `accepted`), then the pending bytes lexed
// again as forks, each fork inhibited by the whole lexeme's state. A label's text runs from the
// previous label's end (forks do not report where ignored text ended, so ignored text just
// before a label counts as part of it; only a newline token without '\n' right after ignored
// text holding one would be summarized wrongly).
std::vector<FallBack> fall_backs(const lexer::LexerDfa& dfa,
                                 const lexer::LexerConfiguration& configuration,
                                 IndentScan accepted, std::uint32_t tab_len) {
  struct Relexing {
    lexer::ForkedLexing lexing;
    std::vector<std::size_t> ends;  // end of each label within the pending bytes
  };
  const std::string& pending = configuration.pending;
  std::vector<Relexing> current = {{{{}, lexer::initial_fork(dfa)}, {}}};
  std::vector<Relexing> next;
  std::vector<lexer::ForkedLexing> stepped;
  for (std::size_t i = 0; i < pending.size() && !current.empty(); ++i) {
    next.clear();
    for (const Relexing& from : current) {
      stepped.clear();
      lexer::step_fork(dfa, from.lexing, static_cast<std::uint8_t>(pending[i]), stepped);
      for (lexer::ForkedLexing& to : stepped) {
        Relexing successor{std::move(to), from.ends};
        if (successor.lexing.labels.size() > from.lexing.labels.size())
          successor.ends.push_back(i + 1);
        next.push_back(std::move(successor));
      }
    }
    std::sort(next.begin(), next.end(), [](const Relexing& a, const Relexing& b) {
      if (a.lexing != b.lexing) return a.lexing < b.lexing;
      return a.ends < b.ends;
    });
    next.erase(std::unique(next.begin(), next.end(),
                           [](const Relexing& a, const Relexing& b) {
                             return a.lexing == b.lexing && a.ends == b.ends;
                           }),
               next.end());
    std::swap(current, next);
  }
  std::vector<FallBack> result;
  for (Relexing& relexing : current) {
    FallBack fall_back;
    if (!dfa.label_is_ignored(configuration.accepted))
      fall_back.labels.emplace_back(configuration.accepted, accepted);
    std::size_t begin = 0;
    for (std::size_t k = 0; k < relexing.lexing.labels.size(); ++k) {
      const std::size_t end = relexing.ends[k];
      fall_back.labels.emplace_back(
          relexing.lexing.labels[k],
          scan_indent({}, std::string_view(pending).substr(begin, end - begin), tab_len));
      begin = end;
    }
    fall_back.fork = std::move(relexing.lexing.fork);
    auto& inhibitors = fall_back.fork.inhibitors;
    const auto at = std::lower_bound(inhibitors.begin(), inhibitors.end(), configuration.state);
    if (at == inhibitors.end() || *at != configuration.state)
      inhibitors.insert(at, configuration.state);
    result.push_back(std::move(fall_back));
  }
  return result;
}

}  // namespace

bool IncrementalRecognizer::feed_indented(std::vector<IndentedStacks>& branches,
                                          lexer::LabelId label, IndentScan text,
                                          Rejection* why) const {
  const lexer::LexerDfa& dfa = grammar_->dfa();
  if (dfa.label_is_ignored(label)) return true;  // the indenter never sees ignored tokens
  std::vector<IndentedStacks> next;
  std::vector<SymbolId> out;
  IndenterError error = IndenterError::kNone;
  IndenterState error_state;
  for (const IndentedStacks& branch : branches) {
    for (const SymbolId terminal : dfa.label_terminals(label)) {
      if (ignored_[terminal]) {
        next.push_back(branch);
        continue;
      }
      IndenterState state = branch.indenter;
      out.clear();
      if (const IndenterError e = indenter_step(*indenter_, state, terminal, text, out);
          e != IndenterError::kNone) {
        if (error == IndenterError::kNone) {
          error = e;
          error_state = branch.indenter;
        }
        continue;
      }
      GssHeads heads = branch.heads;
      bool parses = true;
      for (const SymbolId symbol : out) {
        GssHeads shifted = parser_.shift(heads, symbol);
        if (shifted.empty()) {
          parses = false;
          break;
        }
        heads = std::move(shifted);
      }
      if (parses) {
        next.push_back({std::move(state), std::move(heads)});
      } else if (skippable_[terminal] != 0) {
        next.push_back(branch);  // dropped where no stack takes it: nothing changes
      }
    }
  }
  if (next.empty()) {
    if (why != nullptr && error != IndenterError::kNone) {
      why->kind = Rejection::Kind::kIndentation;
      why->detail = describe_indenter_error(error, error_state, text);
    } else if (why != nullptr) {
      why->kind = Rejection::Kind::kUnexpectedToken;
    }
    return false;
  }
  normalize(next);
  branches = std::move(next);
  return true;
}

bool IncrementalRecognizer::advance_indented(ParsePosition& position, std::string_view bytes,
                                             Rejection* why) const {
  const lexer::LexerDfa& dfa = grammar_->dfa();
  const std::uint32_t tab_len = indenter_->tab_len;
  // The bytes of the current lexeme after its accepted prefix are still in the lexer's
  // configuration; with the chunk they form the window every token text below lies in.
  const std::string carried = position.lexer.pending;
  const std::uint64_t window_begin = position.offset - carried.size();
  const IndentScan accepted = position.accepted_scan;
  const std::uint64_t first_lexeme_begin = position.lexeme_begin;
  std::vector<lexer::EmittedLexeme> tokens;
  const std::optional<lexer::LexFailure> failure = lexer::feed(dfa, position.lexer, bytes, tokens);
  const auto chunk_begin = static_cast<std::int64_t>(position.offset);
  for (const lexer::EmittedLexeme& token : tokens) {
    const auto end = static_cast<std::uint64_t>(chunk_begin + token.end);
    const IndentScan text =
        token_scan(accepted, carried, bytes, window_begin, position.lexeme_begin, end, tab_len);
    if (why != nullptr) why->heads = union_of(position.branches);
    if (!feed_indented(position.branches, token.label, text, why)) {
      if (why != nullptr) {
        why->begin = position.lexeme_begin;
        why->end = end;
        why->label = token.label;
      }
      return false;
    }
    position.lexeme_begin = end;
  }
  position.heads = union_of(position.branches);
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
  const std::uint64_t accepted_end = position.offset - position.lexer.pending.size();
  position.accepted_scan =
      position.lexeme_begin == first_lexeme_begin
          ? token_scan(accepted, carried, bytes, window_begin, first_lexeme_begin, accepted_end,
                       tab_len)
          : scan_window(carried, bytes, window_begin, position.lexeme_begin, accepted_end, tab_len);
  if (!is_viable_indented(position)) {
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

// Viability with the indenter (docs/indenter.md): as without it, some fork of the lexer must
// parse its early labels and then have a takeable next terminal or be able to end; here on some
// branch, with labels run through the indenter, "takeable" judged with the branch's indenter
// state, and "end" including the final _DEDENTs.
bool IncrementalRecognizer::is_viable_indented(const ParsePosition& position) const {
  const lexer::LexerConfiguration& lexer = position.lexer;
  const lexer::ForkFutures& futures = grammar_->fork_futures();
  const lexer::ForkFutures::Id growing_id = futures.uninhibited(lexer.state);
  const lexer::LexerFork growing{lexer.state, {}};
  for (const IndentedStacks& branch : position.branches) {
    if (growing_id != lexer::ForkFutures::kUnknown ? branch_allows(futures, growing_id, branch)
                                                   : branch_allows(growing, branch))
      return true;
  }
  if (lexer.accepted == lexer::LexerDfa::kNoLabel) return false;
  for (const FallBack& fall_back :
       fall_backs(grammar_->dfa(), lexer, position.accepted_scan, indenter_->tab_len)) {
    std::vector<IndentedStacks> branches = position.branches;
    bool parses = true;
    for (const auto& [label, text] : fall_back.labels) {
      if (!feed_indented(branches, label, text, nullptr)) {
        parses = false;
        break;
      }
    }
    if (!parses) continue;
    const std::optional<lexer::ForkFutures::Id> id = futures.find(fall_back.fork);
    for (const IndentedStacks& branch : branches) {
      if (id ? branch_allows(futures, *id, branch) : branch_allows(fall_back.fork, branch))
        return true;
    }
  }
  return false;
}

bool IncrementalRecognizer::branch_allows(const lexer::ForkFutures& futures,
                                          lexer::ForkFutures::Id fork,
                                          const IndentedStacks& branch) const {
  if (futures.lists(fork, indenter_->newline) && newline_takeable(branch)) return true;
  if (shifts_ordinary(branch.heads, branch.indenter, &futures, fork)) return true;
  return futures.can_end(fork) && finishes(branch);
}

bool IncrementalRecognizer::branch_allows(const lexer::LexerFork& fork,
                                          const IndentedStacks& branch) const {
  const lexer::ForkFutures alone(grammar_->dfa(), std::span<const lexer::LexerFork>(&fork, 1));
  return branch_allows(alone, 0, branch);
}

// Some terminal other than the newline and the indenter's own, listed by the fork (every one
// when `futures` is null), is takeable: skippable, or shifted by some stack. A closing bracket
// at depth 0 is an indenter error, so it is not takeable there.
bool IncrementalRecognizer::shifts_ordinary(std::span<const GssNodeRef> heads,
                                            const IndenterState& indenter,
                                            const lexer::ForkFutures* futures,
                                            lexer::ForkFutures::Id fork) const {
  const auto listed = [&](SymbolId terminal) {
    if (terminal == indenter_->newline || indenter_->is_produced(terminal)) return false;
    if (indenter.bracket_depth == 0 && indenter_->is_close(terminal)) return false;
    return futures == nullptr || futures->lists(fork, terminal);
  };
  for (const SymbolId terminal : grammar_->skippable_terminals())
    if (listed(terminal)) return true;
  const LrTable& table = parser_.table();
  for (const GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      const SymbolId terminal = table.cell_terminal(cell);
      if (terminal == parser_.end_of_input() || !listed(terminal)) continue;
      if (can_shift(heads, terminal)) return true;
    }
  }
  return false;
}

// The newline terminal can come next, its text still open: the lexeme can always go on with
// "\n" and any run of spaces, so its final width is free. Inside brackets it is dropped (like
// ignored text); otherwise it is takeable iff for some width — the top again, any wider one, or
// one of the levels below — the newline, the indenter's tokens and then some ordinary terminal
// or the end of input parse.
bool IncrementalRecognizer::newline_takeable(const IndentedStacks& branch) const {
  if (branch.indenter.bracket_depth > 0) return true;
  const GssHeads after_newline = parser_.shift(branch.heads, indenter_->newline);
  if (after_newline.empty()) return false;
  {  // wider: one _INDENT
    IndentedStacks indented{branch.indenter, parser_.shift(after_newline, indenter_->indent)};
    indented.indenter.levels.push_back(branch.indenter.top() + 1);
    if (!indented.heads.empty() && continues_after_newline(indented)) return true;
  }
  IndentedStacks dedented{branch.indenter, after_newline};
  while (true) {  // the top, then each level below it
    if (continues_after_newline(dedented)) return true;
    if (dedented.indenter.levels.empty()) return false;
    dedented.indenter.levels.pop_back();
    dedented.heads = parser_.shift(dedented.heads, indenter_->dedent);
    if (dedented.heads.empty()) return false;
  }
}

bool IncrementalRecognizer::continues_after_newline(const IndentedStacks& branch) const {
  return shifts_ordinary(branch.heads, branch.indenter, nullptr, 0) || finishes(branch);
}

// The input may end here: the indenter's final _DEDENTs, then the end of input.
bool IncrementalRecognizer::finishes(const IndentedStacks& branch) const {
  GssHeads heads = branch.heads;
  for (std::size_t i = 0; i < branch.indenter.levels.size(); ++i) {
    heads = parser_.shift(heads, indenter_->dedent);
    if (heads.empty()) return false;
  }
  return parser_.accepts_end(heads);
}

bool IncrementalRecognizer::is_accepting_indented(const ParsePosition& position) const {
  lexer::LexerConfiguration lexer = position.lexer;
  const std::string& carried = position.lexer.pending;
  const std::uint64_t window_begin = position.offset - carried.size();
  std::vector<lexer::EmittedLexeme> tokens;
  if (lexer::finish(grammar_->dfa(), lexer, tokens)) return false;
  std::vector<IndentedStacks> branches = position.branches;
  std::uint64_t begin = position.lexeme_begin;
  for (const lexer::EmittedLexeme& token : tokens) {
    const auto end =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(position.offset) + token.end);
    const IndentScan text = token_scan(position.accepted_scan, carried, {}, window_begin, begin,
                                       end, indenter_->tab_len);
    if (!feed_indented(branches, token.label, text, nullptr)) return false;
    begin = end;
  }
  return std::any_of(branches.begin(), branches.end(),
                     [&](const IndentedStacks& branch) { return finishes(branch); });
}

}  // namespace glrmask::glr
