// The syntax tree of one .lark file, as written: EBNF not yet expanded, literals still raw (quotes,
// escapes and flags included), names not yet resolved. lark_parser.h produces it; lark_loader.h
// turns it into a GrammarModel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glrmask::lark {

// A place in the file being parsed; the file name is known from context.
struct TextPos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Alternative;

struct Expr {
  enum class Kind : std::uint8_t {
    kRule,         // text: a rule name
    kTerminal,     // text: a terminal name
    kString,       // text: the raw lexeme, e.g. "if"i
    kRegexp,       // text: the raw lexeme, e.g. /[a-z]+/i
    kRange,        // text, text2: the raw string lexemes around ".."
    kToken,        // text: a token terminal as written, <[151657]> or <tool_call>
    kGroup,        // ( alternatives )
    kMaybe,        // [ alternatives ]
    kRepeat,       // child op, op one of ? * +
    kRepeatCount,  // child ~ min or child ~ min..max
    kBuiltin,      // a ready regex supplied by glrmask's `common` library (text: the regex)
  };

  Kind kind = Kind::kRule;
  TextPos pos;
  std::string text;
  std::string text2;
  char op = 0;
  std::uint32_t min = 0;
  std::uint32_t max = 0;
  std::vector<Expr> children;             // kRepeat, kRepeatCount: exactly one
  std::vector<Alternative> alternatives;  // kGroup, kMaybe
};

// One `|`-separated alternative: a sequence of items with an optional `-> alias`.
struct Alternative {
  std::vector<Expr> items;
  std::string alias;
  TextPos pos;        // where the alternative starts
  TextPos alias_pos;  // where the alias name is, when there is one
};

struct Definition {
  bool is_terminal = false;
  std::string name;
  TextPos pos;                    // of the name (after any modifiers)
  bool keep_all_tokens = false;   // `!rule`
  bool inline_if_single = false;  // `?rule`
  std::optional<int> priority;    // `name.N`
  std::vector<Alternative> body;
};

struct Import {
  bool relative = false;            // `%import .module...`
  std::vector<std::string> module;  // dotted path of the grammar imported from
  struct Name {
    std::string imported;  // name in that grammar
    std::string local;     // name here (differs with `-> alias`)
    TextPos pos;
  };
  std::vector<Name> names;
};

struct Statement {
  enum class Kind : std::uint8_t { kDefine, kOverride, kExtend, kIgnore, kImport, kDeclare };
  Kind kind = Kind::kDefine;
  TextPos pos;
  Definition definition;             // kDefine, kOverride, kExtend
  std::vector<Alternative> ignored;  // kIgnore
  Import import;                     // kImport
  struct Declared {
    std::string name;
    bool is_terminal = false;
    TextPos pos;
  };
  std::vector<Declared> declared;  // kDeclare
};

struct GrammarSyntax {
  std::string file;
  std::vector<Statement> statements;
};

}  // namespace glrmask::lark
