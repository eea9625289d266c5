// `glrmask lex`: the terminal stream the grammar's lexer makes of a file, one lexeme per line. It
// is how the lexer is checked against Lark's (tests/apps/lex_reference_test.cpp) and how a grammar
// author sees what the parser will be given.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "apps/args.h"
#include "apps/commands.h"
#include "apps/grammar_options.h"
#include "apps/input_file.h"
#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/streaming_lexer.h"
#include "lib/core/error.h"
#include "lib/core/escape.h"
#include "lib/core/unicode_utf8.h"
#include "lib/lark/lark_loader.h"

namespace glrmask::app {
namespace {

constexpr std::string_view kLexUsage =
    "glrmask lex GRAMMAR FILE [--start S] [--postlex python] [--chunk N] [--keep-ignored]";

// One output field per lexeme, so tabs and newlines must not appear raw: `\n`, `\t` and `\\` are
// escaped, other control characters (C0, DEL, C1) become `\xNN` per byte. Other non-ASCII
// characters stay as UTF-8 so string literals remain readable.
void append_escaped(std::string_view lexeme, fmt::memory_buffer& out) {
  const std::string escaped = escape_bytes(lexeme, {.quoted = false});
  out.append(escaped.data(), escaped.data() + escaped.size());
}

void print_lexemes(const lexer::LexerDfa& dfa, std::string_view text,
                   const std::vector<lexer::Lexeme>& lexemes) {
  fmt::memory_buffer out;
  for (const lexer::Lexeme& lexeme : lexemes) {
    fmt::format_to(std::back_inserter(out), "{}\t{}\t{}\t", dfa.describe_label(lexeme.label),
                   lexeme.begin, lexeme.end);
    append_escaped(text.substr(lexeme.begin, lexeme.end - lexeme.begin), out);
    out.push_back('\n');
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

int run_lex(const CommandArgs& argv) {
  CommandArgs rest = argv;
  // With --postlex the grammar's %declare'd terminals are accepted; the lexemes printed are the
  // lexer's, before the post-lexer.
  const glr::ParseOptions options = take_grammar_options(rest, kStartOption | kPostlexOption);
  Args args(rest, {"chunk"}, {"keep-ignored"});
  args.expect_positional(2, 2, kLexUsage);
  const std::string& grammar_path = args.positional()[0];
  const std::string& file = args.positional()[1];
  const std::size_t chunk = args.count("chunk", 1).value_or(0);  // 0: the whole text at once

  LarkOptions lark;
  lark.start = options.start;
  lark.declared_terminals = options.postlex != glr::PostLexer::kNone;
  const GrammarModel grammar = load_lark_file(grammar_path, lark);
  const lexer::LexerDfa dfa = lexer::compile_lexer_dfa(lexer::terminal_specs(grammar));
  const std::string text = read_input_file(file);

  // Lexemes are printed as they become final, so the ones before a lexing error are still shown.
  lexer::StreamingLexer lexer(dfa, args.flag("keep-ignored"));
  std::vector<lexer::Lexeme> lexemes;
  try {
    const std::size_t step = chunk == 0 ? std::max<std::size_t>(text.size(), 1) : chunk;
    for (std::size_t offset = 0; offset < text.size(); offset += step) {
      lexer.feed(std::string_view(text).substr(offset, step), lexemes);
      print_lexemes(dfa, text, lexemes);
      lexemes.clear();
    }
    lexer.finish(lexemes);
    print_lexemes(dfa, text, lexemes);
  } catch (const Error& e) {
    print_lexemes(dfa, text, lexemes);
    std::fflush(stdout);
    throw Error(fmt::format("{}: {}", file, e.what()), e.code(), e.where());
  }
  return 0;
}

}  // namespace glrmask::app
