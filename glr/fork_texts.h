// The forks a lexer configuration stands for (lexer::fork_configuration), with what Python's
// indenter needs of their texts (glr/indenter.h): the summary of every label a fork emits
// early, and of the text its current lexeme already holds — a newline lexeme that the next bytes
// end has the width of that text plus theirs.
//
// A summary that begins in the lexeme's accepted prefix needs ParsePosition::accepted_scan,
// which the configuration does not hold (the prefix may lie in earlier commits): such a part is
// marked `after_accepted` and resolved against it, so the rest can be cached per configuration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "glr/indenter.h"
#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_fork.h"

namespace glrmask::glr {

struct TextPart {
  IndentScan scan;
  bool after_accepted = false;  // the accepted prefix comes first

  IndentScan resolve(IndentScan accepted) const {
    return after_accepted ? append_scan(accepted, scan) : scan;
  }
};

struct ForkTexts {
  std::vector<lexer::LabelId> labels;  // emitted early, ignored ones left out
  std::vector<TextPart> texts;         // one per label
  lexer::LexerFork fork;
  TextPart carried;  // the fork's current lexeme so far
};

// Every fork of fork_configuration(dfa, configuration), the growing lexeme first when
// `with_growing`. A label's text runs from the previous label's end (forks do not report where
// ignored text ended, so ignored text just before a label counts as part of it; only a newline
// token without '\n' right after ignored text holding one would be summarized wrongly).
std::vector<ForkTexts> fork_texts(const lexer::LexerDfa& dfa,
                                  const lexer::LexerConfiguration& configuration,
                                  std::uint32_t tab_len, bool with_growing);

// fork_texts(..., with_growing = true) for the configurations of one decoding, one after
// another: the pending bytes after an accepted prefix grow with every token inside a long
// lexeme (a docstring after a newline), and lexing them again from the start at every step
// would cost their length each time. When a configuration has the accepted label of the previous
// one and pending bytes that extend its pending bytes, only the new bytes are lexed.
class IncrementalForkTexts {
 public:
  const std::vector<ForkTexts>& forks(const lexer::LexerDfa& dfa,
                                      const lexer::LexerConfiguration& configuration,
                                      std::uint32_t tab_len);

 private:
  struct Relexing {
    lexer::ForkedLexing lexing;
    std::vector<std::size_t> ends;  // end of each label within the pending bytes
  };

  bool valid_ = false;
  lexer::LabelId accepted_ = 0;
  std::string pending_;
  std::vector<Relexing> relexing_;
  std::vector<ForkTexts> result_;
};

}  // namespace glrmask::glr
