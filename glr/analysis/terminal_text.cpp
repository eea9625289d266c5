#include "glr/analysis/terminal_text.h"

#include <algorithm>
#include <cctype>
#include <deque>

#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"

namespace glrmask::glr {

namespace {

// Bytes in the order the search tries them: letters and digits, other printable ASCII, the
// space, then everything else.
std::vector<std::uint8_t> byte_order() {
  std::vector<std::uint8_t> order;
  auto add_range = [&](int from, int to) {
    for (int b = from; b <= to; ++b) order.push_back(static_cast<std::uint8_t>(b));
  };
  add_range('a', 'z');
  add_range('A', 'Z');
  add_range('0', '9');
  for (int b = 0x21; b < 0x7f; ++b)
    if (!std::isalnum(b)) order.push_back(static_cast<std::uint8_t>(b));
  order.push_back(' ');
  add_range(0x00, 0x1f);
  add_range(0x7f, 0xff);
  return order;
}

}  // namespace

TerminalText::TerminalText(const lexer::LexerDfa& dfa) : dfa_(dfa) {
  label_example_.assign(dfa.num_labels(), std::nullopt);
  // Breadth-first from the start state: the first string to reach a state is a shortest one.
  std::vector<std::optional<std::string>> reached(dfa.num_states());
  std::deque<std::uint32_t> queue;
  reached[dfa.start_state()] = std::string();
  queue.push_back(dfa.start_state());
  const std::vector<std::uint8_t> order = byte_order();
  while (!queue.empty()) {
    const std::uint32_t state = queue.front();
    queue.pop_front();
    const std::string& text = *reached[state];
    const lexer::LabelId label = dfa.label(state);
    if (label != lexer::LexerDfa::kNoLabel && !label_example_[label]) label_example_[label] = text;
    for (const std::uint8_t byte : order) {
      const std::uint32_t next = dfa.next(state, byte);
      if (next == lexer::LexerDfa::kDeadState || reached[next]) continue;
      reached[next] = text + static_cast<char>(byte);
      queue.push_back(next);
    }
  }
  for (lexer::LabelId label = 1; label < dfa.num_labels(); ++label) {
    if (!dfa.label_is_ignored(label) || !label_example_[label]) continue;
    if (!separator_ || label_example_[label]->size() < separator_->size())
      separator_ = label_example_[label];
  }
}

std::optional<std::string> TerminalText::terminal_example(SymbolId terminal) const {
  std::optional<std::string> best;
  std::size_t best_width = 0;
  for (lexer::LabelId label = 1; label < dfa_.num_labels(); ++label) {
    const auto terminals = dfa_.label_terminals(label);
    if (!label_example_[label] ||
        std::find(terminals.begin(), terminals.end(), terminal) == terminals.end())
      continue;
    const bool better =
        !best || label_example_[label]->size() < best->size() ||
        (label_example_[label]->size() == best->size() && terminals.size() < best_width);
    if (better) {
      best = label_example_[label];
      best_width = terminals.size();
    }
  }
  return best;
}

std::optional<std::string> TerminalText::realize(std::span<const SymbolId> terminals) const {
  auto lexes_back = [&](const std::string& text) {
    try {
      const std::vector<lexer::Lexeme> tokens = lexer::lex_text(dfa_, text);
      if (tokens.size() != terminals.size()) return false;
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto label = dfa_.label_terminals(tokens[i].label);
        if (std::find(label.begin(), label.end(), terminals[i]) == label.end()) return false;
      }
      return true;
    } catch (const Error&) {
      return false;
    }
  };
  std::vector<std::string> pieces;
  for (const SymbolId terminal : terminals) {
    const std::optional<std::string> example = terminal_example(terminal);
    if (!example) return std::nullopt;
    pieces.push_back(*example);
  }
  // With the separator between every two pieces (easier to read), else joined directly.
  if (separator_) {
    std::string separated;
    for (std::size_t i = 0; i < pieces.size(); ++i) separated += (i ? *separator_ : "") + pieces[i];
    if (lexes_back(separated)) return separated;
  }
  std::string joined;
  for (const std::string& piece : pieces) joined += piece;
  if (lexes_back(joined)) return joined;
  return std::nullopt;
}

std::vector<LexicalTie> lexical_ties(const lexer::LexerDfa& dfa, const TerminalText& text) {
  std::vector<LexicalTie> ties;
  for (lexer::LabelId label = 1; label < dfa.num_labels(); ++label) {
    const auto terminals = dfa.label_terminals(label);
    if (terminals.size() < 2) continue;
    LexicalTie tie;
    tie.label = label;
    tie.terminals.assign(terminals.begin(), terminals.end());
    tie.example = text.label_example(label);
    for (const std::uint32_t t : terminals)
      tie.with_ignored = tie.with_ignored || dfa.terminals()[t].ignored;
    ties.push_back(std::move(tie));
  }
  return ties;
}

}  // namespace glrmask::glr
