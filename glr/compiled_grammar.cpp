#include "glr/compiled_grammar.h"

#include <fmt/format.h>

#include <algorithm>

#include "glr/cfg_from_grammar.h"
#include "lexer/grammar_terminals.h"
#include "lexer/lexer_dfa_compiler.h"
#include "lib/error.h"
#include "lib/lark_loader.h"

namespace glrmask::glr {

CompiledGrammar::CompiledGrammar(Grammar grammar, lexer::LexerDfa dfa, LalrAutomaton lalr,
                                 ParseOptions options, std::vector<SymbolId> skippable)
    : grammar_(std::move(grammar)),
      dfa_(std::move(dfa)),
      lalr_(std::move(lalr)),
      options_(std::move(options)),
      skippable_(std::move(skippable)) {}

std::shared_ptr<const CompiledGrammar> CompiledGrammar::compile(Grammar grammar,
                                                                const ParseOptions& options) {
  std::vector<SymbolId> skippable;
  for (const std::string& name : options.skippable) {
    auto id = grammar.find_symbol(name);
    if (!id || !grammar.is_terminal(*id))
      throw Error(fmt::format("skippable terminal '{}' is not a terminal of the grammar", name));
    skippable.push_back(*id);
  }
  std::sort(skippable.begin(), skippable.end());
  skippable.erase(std::unique(skippable.begin(), skippable.end()), skippable.end());

  auto specs = lexer::terminal_specs(grammar);
  lexer::LexerDfa dfa = lexer::compile_lexer_dfa(specs);
  LalrAutomaton lalr(cfg_from_grammar(grammar));
  return std::shared_ptr<const CompiledGrammar>(new CompiledGrammar(
      std::move(grammar), std::move(dfa), std::move(lalr), options, std::move(skippable)));
}

std::shared_ptr<const CompiledGrammar> CompiledGrammar::load_lark(const std::filesystem::path& path,
                                                                  const ParseOptions& options) {
  LarkOptions lark;
  lark.start = options.start;
  return compile(load_lark_file(path, lark), options);
}

bool CompiledGrammar::is_skippable(SymbolId terminal) const {
  return std::binary_search(skippable_.begin(), skippable_.end(), terminal);
}

}  // namespace glrmask::glr
