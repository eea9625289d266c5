#include "glr/indenter.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask::glr {

std::string_view post_lexer_name(PostLexer post_lexer) {
  switch (post_lexer) {
    case PostLexer::kNone:
      return "none";
    case PostLexer::kPythonIndenter:
      return "python";
  }
  return "none";
}

bool parse_post_lexer(std::string_view name, PostLexer& out) {
  if (name == "none") {
    out = PostLexer::kNone;
    return true;
  }
  if (name == "python") {
    out = PostLexer::kPythonIndenter;
    return true;
  }
  return false;
}

IndentScan scan_indent(IndentScan before, std::string_view bytes, std::uint32_t tab_len) {
  // Only what follows the last '\n' counts, so scan backwards to it.
  std::size_t begin = 0;
  if (const std::size_t newline = bytes.rfind('\n'); newline != std::string_view::npos) {
    before = IndentScan{true, 0};
    begin = newline + 1;
  }
  std::uint32_t width = before.width;
  for (std::size_t i = begin; i < bytes.size(); ++i) {
    if (bytes[i] == ' ') {
      width += 1;
    } else if (bytes[i] == '\t') {
      width += tab_len;
    }
  }
  return IndentScan{before.has_newline, width};
}

IndentScan append_scan(IndentScan first, IndentScan second) {
  if (second.has_newline) return second;
  return IndentScan{first.has_newline, first.width + second.width};
}

bool IndenterSpec::is_open(SymbolId terminal) const {
  return std::binary_search(open_brackets.begin(), open_brackets.end(), terminal);
}

bool IndenterSpec::is_close(SymbolId terminal) const {
  return std::binary_search(close_brackets.begin(), close_brackets.end(), terminal);
}

IndenterSpec python_indenter_spec(const GrammarModel& grammar) {
  const auto where = [&](std::string_view name) {
    const auto id = grammar.find_symbol(name);
    if (id && grammar.is_terminal(*id)) return grammar.terminal(*id).origin.str();
    return std::string("the grammar");
  };
  const auto find = [&](std::string_view name, bool declared) -> SymbolId {
    const auto id = grammar.find_symbol(name);
    if (!id || !grammar.is_terminal(*id)) {
      throw Error(fmt::format("Python's indenter (GrammarOptions::postlex python): the grammar has "
                              "no terminal {} (the indenter needs _NL, _INDENT and _DEDENT, the "
                              "last two %declare'd)",
                              name),
                  ErrorCode::kGrammar);
    }
    if (grammar.terminal(*id).declared != declared) {
      throw Error(
          fmt::format("{}: Python's indenter (GrammarOptions::postlex python): terminal {} {}",
                      where(name), name,
                      declared ? "must be %declare'd: the indenter produces it"
                               : "is %declare'd, but the indenter reads it from the lexer"),
          ErrorCode::kGrammar,
          ErrorLocation::in_file(grammar.terminal(*id).origin.file,
                                 grammar.terminal(*id).origin.line,
                                 grammar.terminal(*id).origin.column));
    }
    return lr_terminal(*id);
  };
  IndenterSpec spec;
  spec.newline = find("_NL", false);
  spec.indent = find("_INDENT", true);
  spec.dedent = find("_DEDENT", true);
  for (SymbolId t = 0; t < grammar.num_terminals(); ++t) {
    const Terminal& terminal = grammar.terminal(grammar_terminal(t));
    if (terminal.declared && t != spec.indent && t != spec.dedent) {
      throw Error(fmt::format("{}: terminal {} is %declare'd, but Python's indenter produces only "
                              "_INDENT and _DEDENT",
                              terminal.origin.str(), terminal.name),
                  ErrorCode::kGrammar,
                  ErrorLocation::in_file(terminal.origin.file, terminal.origin.line,
                                         terminal.origin.column));
    }
  }
  for (const char* name : {"LPAR", "LSQB", "LBRACE"})
    if (const auto id = grammar.find_symbol(name); id && grammar.is_terminal(*id))
      spec.open_brackets.push_back(lr_terminal(*id));
  for (const char* name : {"RPAR", "RSQB", "RBRACE"})
    if (const auto id = grammar.find_symbol(name); id && grammar.is_terminal(*id))
      spec.close_brackets.push_back(lr_terminal(*id));
  std::sort(spec.open_brackets.begin(), spec.open_brackets.end());
  std::sort(spec.close_brackets.begin(), spec.close_brackets.end());
  spec.tab_len = 4;
  return spec;
}

IndenterError indenter_step(const IndenterSpec& spec, IndenterState& state, SymbolId terminal,
                            IndentScan text, std::vector<SymbolId>& out) {
  if (terminal == spec.newline) {
    if (state.bracket_depth > 0) return IndenterError::kNone;  // dropped, and no bracket either
    out.push_back(terminal);
    if (!text.has_newline) return IndenterError::kNoNewline;
    if (text.width > state.top()) {
      state.levels.push_back(text.width);
      out.push_back(spec.indent);
    } else {
      while (text.width < state.top()) {
        state.levels.pop_back();
        out.push_back(spec.dedent);
      }
      if (text.width != state.top()) return IndenterError::kUnknownDedent;
    }
    return IndenterError::kNone;
  }
  out.push_back(terminal);
  if (spec.is_open(terminal)) {
    ++state.bracket_depth;
  } else if (spec.is_close(terminal)) {
    if (state.bracket_depth == 0) return IndenterError::kUnbalancedClose;
    --state.bracket_depth;
  }
  return IndenterError::kNone;
}

std::string describe_indenter_error(IndenterError error, const IndenterState& before,
                                    IndentScan text) {
  switch (error) {
    case IndenterError::kNone:
      return "no error";
    case IndenterError::kUnknownDedent: {
      std::string levels = "0";
      for (const std::uint32_t level : before.levels) levels += fmt::format(", {}", level);
      return fmt::format(
          "the newline dedents to width {}, which is not on the indentation stack {{{}}}",
          text.width, levels);
    }
    case IndenterError::kNoNewline:
      return "the newline terminal's text holds no '\\n' (Lark's indenter fails on it)";
    case IndenterError::kUnbalancedClose:
      return "a closing bracket with no bracket open";
  }
  return "indenter error";
}

}  // namespace glrmask::glr
