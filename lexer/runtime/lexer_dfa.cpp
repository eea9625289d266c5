#include "lexer/runtime/lexer_dfa.h"

namespace glrmask::lexer {

std::string LexerDfa::describe_label(LabelId label) const {
  if (label == kNoLabel) return "(none)";
  std::string text;
  for (uint32_t terminal : label_terminals(label)) {
    if (!text.empty()) text += '|';
    text += terminals_[terminal].name;
  }
  return text;
}

}  // namespace glrmask::lexer
