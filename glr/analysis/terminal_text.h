// Text for terminal strings, so that a counterexample or an ambiguous sentence can be shown as
// something a user could type: for each lexer label (a set of terminals that end on the same
// lexeme), a shortest string the DFA accepts with exactly that label, found by breadth-first
// search over the DFA from its start state (printable ASCII tried first); and a shortest string
// of %ignore'd text to separate tokens.
//
// A realization is only offered when it lexes back to tokens that carry the intended terminals,
// in order (maximal munch could otherwise merge neighbours: "a" "b" might lex as one NAME "ab").
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "glr/ids.h"
#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::glr {

class TerminalText {
 public:
  // `dfa` must outlive the object.
  explicit TerminalText(const lexer::LexerDfa& dfa);

  // A shortest string whose lexeme has exactly this label, or nullopt if none.
  const std::optional<std::string>& label_example(lexer::LabelId label) const {
    return label_example_[label];
  }
  // A shortest string that lexes as a label containing `terminal` (preferring labels with fewer
  // terminals), or nullopt.
  std::optional<std::string> terminal_example(SymbolId terminal) const;
  // Text for the terminals: their examples separated by a shortest ignored text (when the
  // grammar ignores one), else joined; nullopt unless it lexes back to labels holding the
  // terminals in order.
  std::optional<std::string> realize(std::span<const SymbolId> terminals) const;

 private:
  const lexer::LexerDfa& dfa_;
  std::vector<std::optional<std::string>> label_example_;  // per label
  std::optional<std::string> separator_;                   // ignored text, e.g. " "
};

// A tie the lexer keeps: strings that several terminals match with the same length after the
// priority and literal rules, so the parser sees all of them (docs/lexer.md).
struct LexicalTie {
  lexer::LabelId label = 0;
  std::vector<SymbolId> terminals;  // ascending
  std::optional<std::string> example;
  bool with_ignored = false;  // one alternative is %ignore'd: the token may also be skipped
};

// Every label of the DFA with two or more terminals.
std::vector<LexicalTie> lexical_ties(const lexer::LexerDfa& dfa, const TerminalText& text);

}  // namespace glrmask::glr
