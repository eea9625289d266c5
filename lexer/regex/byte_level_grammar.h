// Grammars read byte by byte, so that several can sit side by side in one model.
//
// glrmask's lexer is one DFA with maximal munch over every terminal of a grammar. That is right
// for one grammar, and wrong for a composition of grammars that were each written for their own
// lexer (a structural tag: free text, then a JSON Schema's arguments, then free text again): a
// JSON string lexeme would swallow free text that holds a quote, whatever the parser expects
// there. Read byte by byte, no lexeme is longer than one byte, so none can run into another
// grammar's: each terminal of a part becomes the left-linear rules of its own lexer DFA
// (`X_t -> X_s c` for every transition s --c--> t, `T -> X_s` for every accepting s), over byte
// terminals that partition the bytes used (a byte class is a nonterminal over them).
//
// Each part keeps its language (every text its rules derive, each terminal read as the strings
// its DFA accepts); what a part loses is its lexer's context: maximal munch and priorities no
// longer refuse a reading that splits a lexeme in two. For a JSON Schema, a regex and GBNF (whose
// lexemes the munch check already made unambiguous) that is the same language.
#pragma once

#include <bitset>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lexer/regex/lexer_dfa_compiler.h"
#include "lib/grammar/grammar_builder.h"

namespace glrmask::lexer {

using ByteSet = std::bitset<256>;

class ByteLevelWriter {
 public:
  // Generated symbols are named after `prefix` (upper case for terminals, lower for rules).
  ByteLevelWriter(GrammarBuilder& builder, std::string prefix, LexerDfaLimits limits = {});

  // The symbol of one byte of `set` (not empty).
  std::string byte_class(const ByteSet& set, const SourceLocation& origin);
  // The symbols spelling `bytes`, one per byte.
  std::vector<std::string> literal(std::string_view bytes, const SourceLocation& origin);

  // Appends `model` with every symbol renamed `prefix` + name and every terminal but a token
  // terminal replaced by its DFA's rules; returns the new name of the model's start symbol.
  // Throws GrammarError naming the terminal for an ignored or %declare'd terminal (it would have
  // to be skipped or produced between the bytes) and for a (?!qq) guard.
  std::string append(const GrammarModel& model, const std::string& prefix);

  // Adds the byte terminals and the classes' rules: once, after the last use.
  void finish();

 private:
  std::string fresh(const std::string& base);

  GrammarBuilder& builder_;
  std::string prefix_;
  LexerDfaLimits limits_;
  std::map<std::string, std::string> classes_;  // ByteSet::to_string() -> class symbol
  std::vector<std::pair<ByteSet, std::string>> class_order_;
  std::map<std::string, int> used_names_;
  bool finished_ = false;
};

}  // namespace glrmask::lexer
