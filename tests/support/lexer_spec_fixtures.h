// Terminal lists written by hand for the lexer tests. They mirror the terminals Lark 1.1.5
// compiles from SynCode's Go, SQL and JSON grammars (names, regexes, flags, priorities as Lark
// reports them), so the lexer is exercised on realistic terminal sets without the grammar
// front-end.
#pragma once

#include <string>
#include <vector>

#include "lexer/runtime/terminal_spec.h"

namespace glrmask::testing {

inline lexer::TerminalSpec pattern(std::string name, std::string regex, std::string flags = "",
                                   int priority = 0, bool ignored = false) {
  lexer::TerminalSpec spec;
  spec.origin = "fixture:" + name;
  spec.name = std::move(name);
  spec.regex = std::move(regex);
  spec.flags = std::move(flags);
  spec.priority = priority;
  spec.ignored = ignored;
  return spec;
}

// A string literal: `regex` is the literal already escaped as a regex.
inline lexer::TerminalSpec literal(std::string name, std::string regex, std::string flags = "") {
  lexer::TerminalSpec spec = pattern(std::move(name), std::move(regex), std::move(flags));
  spec.is_literal = true;
  return spec;
}

// SynCode's go_grammar.lark as compiled by Lark (both %ignore entries included).
inline std::vector<lexer::TerminalSpec> go_terminals() {
  std::vector<lexer::TerminalSpec> specs = {
      pattern("DECIMAL_LIT", R"(0|[1-9]\d*)", "i"),
      pattern("HEX_LIT", R"(0x[\da-f]*)", "i", 2),
      pattern("OCTAL_LIT", R"(0o[0-7]*)", "i", 2),
      pattern("BINARY_LIT", R"(0b[0-1]*)", "i", 2),
      pattern("FLOAT_LIT", R"(((\d+\.\d*|\.\d+)(e[-+]?\d+)?|\d+(e[-+]?\d+)))", "i", 2),
      pattern("CHAR_LIT", R"('.')", "i"),
      pattern("RAW_STRING_LIT", R"(`.*?`)"),
      pattern("INTERPRETED_STRING_LIT", R"(".*?")", "i"),
      pattern("NAME", R"([a-zA-Z_]\w*)"),
      pattern("EOS", R"((?:(?:(?:\/\/[^\n]*|(\r?\n[\t ]*)+))+|/\*'\ \.\*\?\ '\*/|;))"),
      pattern("__IGNORE_0", R"([\t ])", "", 0, true),
      pattern("__IGNORE_1", R"(\\[\t \x0c]*\r?\n)", "", 0, true),
  };
  const std::vector<std::pair<std::string, std::string>> literals = {
      {"EOC", "eoc"},
      {"PACKAGE", "package"},
      {"LPAR", R"(\()"},
      {"RPAR", R"(\))"},
      {"IMPORT", "import"},
      {"DOT", R"(\.)"},
      {"CONST", "const"},
      {"EQUAL", "="},
      {"COMMA", ","},
      {"TYPE", "type"},
      {"LSQB", R"(\[)"},
      {"RSQB", R"(\])"},
      {"VBAR", R"(\|)"},
      {"TILDE", "~"},
      {"EOF", "eof"},
      {"LBRACE", R"(\{)"},
      {"RBRACE", R"(\})"},
      {"FUNC", "func"},
      {"VAR", "var"},
      {"SEMICOLON", ";"},
      {"__ANON_0", "<\\-"},
      {"__ANON_1", R"(\+\+)"},
      {"__ANON_2", R"(\-\-)"},
      {"__ANON_3", R"(\+=)"},
      {"__ANON_4", R"(\-=)"},
      {"__ANON_5", R"(\|=)"},
      {"__ANON_6", R"(\^=)"},
      {"__ANON_7", R"(\*=)"},
      {"__ANON_8", "/="},
      {"__ANON_9", "%="},
      {"__ANON_10", "<<="},
      {"__ANON_11", ">>="},
      {"__ANON_12", "&="},
      {"__ANON_13", R"(\&\^=)"},
      {"__ANON_14", ":="},
      {"COLON", ":"},
      {"RETURN", "return"},
      {"BREAK", "break"},
      {"CONTINUE", "continue"},
      {"GOTO", "goto"},
      {"FALLTHROUGH", "fallthrough"},
      {"DEFER", "defer"},
      {"ELSE", "else"},
      {"IF", "if"},
      {"SWITCH", "switch"},
      {"CASE", "case"},
      {"DEFAULT", "default"},
      {"NIL", "nil"},
      {"SELECT", "select"},
      {"FOR", "for"},
      {"RANGE", "range"},
      {"GO", "go"},
      {"STAR", R"(\*)"},
      {"INTERFACE", "interface"},
      {"MAP", "map"},
      {"__ANON_16", R"(\.\.\.)"},
      {"PLUS", R"(\+)"},
      {"MINUS", R"(\-)"},
      {"BANG", "!"},
      {"CIRCUMFLEX", R"(\^)"},
      {"AMPERSAND", "&"},
      {"SLASH", "/"},
      {"PERCENT", "%"},
      {"__ANON_17", "<<"},
      {"__ANON_18", ">>"},
      {"__ANON_19", R"(\&\^)"},
      {"__ANON_20", "=="},
      {"__ANON_21", "!="},
      {"LESSTHAN", "<"},
      {"__ANON_22", "<="},
      {"MORETHAN", ">"},
      {"__ANON_23", ">="},
      {"__ANON_24", "&&"},
      {"__ANON_25", R"(\|\|)"},
      {"STRUCT", "struct"},
  };
  for (const auto& [name, regex] : literals) specs.push_back(literal(name, regex));
  return specs;
}

// SynCode's json_grammar.lark as compiled by Lark.
inline std::vector<lexer::TerminalSpec> json_terminals() {
  return {
      pattern("NONEMPTY_STRING", R"("[^"]+")"),
      pattern("EMPTY_STRING", R"("")"),
      pattern(
          "SIGNED_NUMBER",
          R"((?:(?:\+|\-))?(?:(?:(?:[0-9])+(?:e|E)(?:(?:\+|\-))?(?:[0-9])+|(?:(?:[0-9])+\.(?:(?:[0-9])+)?|\.(?:[0-9])+)(?:(?:e|E)(?:(?:\+|\-))?(?:[0-9])+)?)|(?:[0-9])+))"),
      pattern("WS", R"((?:[ \t\x0c\r\n])+)", "", 0, true),
      literal("TRUE", "true"),
      literal("FALSE", "false"),
      literal("NULL", "null"),
      literal("COMMA", ","),
      literal("LSQB", R"(\[)"),
      literal("RSQB", R"(\])"),
      literal("LBRACE", R"(\{)"),
      literal("RBRACE", R"(\})"),
      literal("COLON", ":"),
  };
}

// A part of SynCode's sql_grammar.lark as compiled by Lark: the terminals with priorities,
// case-insensitive keywords, strings and comments.
inline std::vector<lexer::TerminalSpec> sql_terminals() {
  std::vector<lexer::TerminalSpec> specs = {
      pattern(
          "FLOAT",
          R"((?:(?:[0-9])+(?:e|E)(?:(?:\+|\-))?(?:[0-9])+|(?:(?:[0-9])+\.(?:(?:[0-9])+)?|\.(?:[0-9])+)(?:(?:e|E)(?:(?:\+|\-))?(?:[0-9])+)?))"),
      pattern("CNAME", R"((?:(?:[A-Z]|[a-z])|_)(?:(?:(?:[A-Z]|[a-z])|[0-9]|_))*)"),
      pattern("WS", R"((?:[ \t\x0c\r\n])+)", "", 0, true),
      pattern("SQL_COMMENT", R"(--[^\n]*)", "", 0, true),
      pattern(
          "JOIN_EXPR",
          R"((?:(?:(?:(?i:RIGHT)|(?i:FULL)|(?i:LEFT))(?:(?:[ \t\x0c\r\n])+(?i:OUTER))?|(?i:INNER)|(?:(?i:RIGHT)|(?i:FULL)|(?i:LEFT))|(?i:(?:(?i:OUTER))?))(?:[ \t\x0c\r\n])+)?(?i:JOIN))",
          "", 5),
      pattern("SELECT_CONSTRAINT", R"((?:(?i:DISTINCT)|(?i:ALL)))", "", 9),
      pattern(
          "AGGREGATION",
          R"((?:(?i:COUNT\()(?i:DISTINCT)|(?i:COUNT\()|(?i:SUM\()|(?i:AVG\()|(?i:MIN\()|(?i:MAX\()))",
          "", 8),
      pattern("INT_NUMBER", R"([1-9][0-9]*)"),
      pattern("ESCAPED_STRING", R"("(?:[^"\\]|\\.)*?")"),
      pattern("__ANON_4", R"('([^'])+'|'')"),
      literal("STAR", R"(\*)"),
      literal("SEMICOLON", ";"),
      literal("COMMA", ","),
      literal("LPAR", R"(\()"),
      literal("RPAR", R"(\))"),
      literal("PLUS", R"(\+)"),
      literal("MINUS", R"(\-)"),
      literal("SLASH", "/"),
      literal("DOT", R"(\.)"),
      literal("EQUAL", "="),
      literal("__ANON_0", "<>"),
      literal("__ANON_1", "!="),
      literal("MORETHAN", ">"),
      literal("LESSTHAN", "<"),
      literal("__ANON_2", ">="),
      literal("__ANON_3", "<="),
  };
  for (const char* keyword :
       {"SELECT", "FROM",  "WHERE", "GROUP", "BY",   "ORDER", "HAVING", "AS",
        "AND",    "OR",    "NOT",   "IN",    "LIKE", "IS",    "NULL",   "DISTINCT",
        "ALL",    "UNION", "LIMIT", "JOIN",  "ON",   "ASC",   "DESC",   "BETWEEN"}) {
    specs.push_back(literal(keyword, keyword, "i"));
  }
  return specs;
}

}  // namespace glrmask::testing
