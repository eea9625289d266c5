// How tokens reach the parser stacks through Python's indenter (glr/indenter.h,
// docs/indenter.md): the position holds, per indenter state, the stacks that reached it; a token
// runs through the indenter on each, and "takeable" is judged with the branch's indenter state.
// The recognizer's bookkeeping around it is incremental_recognizer.cpp's.
#include <algorithm>
#include <utility>
#include <vector>

#include "glr/post_lexing.h"

namespace glrmask::glr {

namespace {

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

}  // namespace

GssHeads IncrementalRecognizer::IndenterPostLexing::heads_of(const Stacks& branches) {
  if (branches.size() == 1) return branches.front().heads;
  GssHeads merged;
  for (const IndentedStacks& branch : branches)
    merged = merged.empty() ? branch.heads : GlrParser::merge(merged, branch.heads);
  return merged;
}

bool IncrementalRecognizer::IndenterPostLexing::feed(Stacks& branches, lexer::LabelId label,
                                                     IndentScan text, Rejection* why) const {
  const lexer::LexerDfa& dfa = r_.grammar_->dfa();
  if (dfa.label_is_ignored(label)) return true;  // the indenter never sees ignored tokens
  std::vector<IndentedStacks> next;
  std::vector<SymbolId> out;
  IndenterError error = IndenterError::kNone;
  IndenterState error_state;
  for (const IndentedStacks& branch : branches) {
    for (const SymbolId terminal : dfa.label_terminals(label)) {
      if (r_.ignored_[terminal]) {
        next.push_back(branch);
        continue;
      }
      IndenterState state = branch.indenter;
      out.clear();
      if (const IndenterError e = indenter_step(spec_, state, terminal, text, out);
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
        GssHeads shifted = r_.parser_.shift(heads, symbol);
        if (shifted.empty()) {
          parses = false;
          break;
        }
        heads = std::move(shifted);
      }
      if (parses) {
        next.push_back({std::move(state), std::move(heads)});
      } else if (r_.skippable_[terminal] != 0) {
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

bool IncrementalRecognizer::IndenterPostLexing::allows(const lexer::ForkFutures& futures,
                                                       lexer::ForkFutures::Id fork,
                                                       const Stacks& branches) const {
  return std::any_of(branches.begin(), branches.end(), [&](const IndentedStacks& branch) {
    return branch_allows(futures, fork, branch);
  });
}

bool IncrementalRecognizer::IndenterPostLexing::finishes(const Stacks& branches) const {
  return std::any_of(branches.begin(), branches.end(),
                     [&](const IndentedStacks& branch) { return branch_finishes(branch); });
}

bool IncrementalRecognizer::IndenterPostLexing::branch_allows(const lexer::ForkFutures& futures,
                                                              lexer::ForkFutures::Id fork,
                                                              const IndentedStacks& branch) const {
  if (futures.lists(fork, spec_.newline) && newline_takeable(branch)) return true;
  if (shifts_ordinary(branch.heads, branch.indenter, &futures, fork)) return true;
  return futures.can_end(fork) && branch_finishes(branch);
}

// Some terminal other than the newline and the indenter's own, listed by the fork (every one
// when `futures` is null), is takeable: skippable, or shifted by some stack. A closing bracket
// at depth 0 is an indenter error, so it is not takeable there.
bool IncrementalRecognizer::IndenterPostLexing::shifts_ordinary(std::span<const GssNodeRef> heads,
                                                                const IndenterState& indenter,
                                                                const lexer::ForkFutures* futures,
                                                                lexer::ForkFutures::Id fork) const {
  const auto listed = [&](SymbolId terminal) {
    if (terminal == spec_.newline || spec_.is_produced(terminal)) return false;
    if (indenter.bracket_depth == 0 && spec_.is_close(terminal)) return false;
    return futures == nullptr || futures->lists(fork, terminal);
  };
  for (const SymbolId terminal : r_.grammar_->skippable_terminals())
    if (listed(terminal)) return true;
  const LrTable& table = r_.parser_.table();
  for (const GssNodeRef& head : heads) {
    for (std::uint32_t cell = table.row_begin(head->state()); cell < table.row_end(head->state());
         ++cell) {
      const SymbolId terminal = table.cell_terminal(cell);
      if (terminal == r_.parser_.end_of_input() || !listed(terminal)) continue;
      if (r_.can_shift(heads, terminal)) return true;
    }
  }
  return false;
}

// The newline terminal can come next, its text still open: the lexeme can always go on with
// "\n" and any run of spaces, so its final width is free. Inside brackets it is dropped (like
// ignored text); otherwise it is takeable iff for some width — the top again, any wider one, or
// one of the levels below — the newline, the indenter's tokens and then some ordinary terminal
// or the end of input parse.
bool IncrementalRecognizer::IndenterPostLexing::newline_takeable(
    const IndentedStacks& branch) const {
  if (branch.indenter.bracket_depth > 0) return true;
  const GssHeads after_newline = r_.parser_.shift(branch.heads, spec_.newline);
  if (after_newline.empty()) return false;
  {  // wider: one _INDENT
    IndentedStacks indented{branch.indenter, r_.parser_.shift(after_newline, spec_.indent)};
    indented.indenter.levels.push_back(branch.indenter.top() + 1);
    if (!indented.heads.empty() && continues_after_newline(indented)) return true;
  }
  IndentedStacks dedented{branch.indenter, after_newline};
  while (true) {  // the top, then each level below it
    if (continues_after_newline(dedented)) return true;
    if (dedented.indenter.levels.empty()) return false;
    dedented.indenter.levels.pop_back();
    dedented.heads = r_.parser_.shift(dedented.heads, spec_.dedent);
    if (dedented.heads.empty()) return false;
  }
}

bool IncrementalRecognizer::IndenterPostLexing::continues_after_newline(
    const IndentedStacks& branch) const {
  return shifts_ordinary(branch.heads, branch.indenter, nullptr, 0) || branch_finishes(branch);
}

// The input may end here: the indenter's final _DEDENTs, then the end of input.
bool IncrementalRecognizer::IndenterPostLexing::branch_finishes(
    const IndentedStacks& branch) const {
  GssHeads heads = branch.heads;
  for (std::size_t i = 0; i < branch.indenter.levels.size(); ++i) {
    heads = r_.parser_.shift(heads, spec_.dedent);
    if (heads.empty()) return false;
  }
  return r_.parser_.accepts_end(heads);
}

}  // namespace glrmask::glr
