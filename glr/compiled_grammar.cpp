#include "glr/compiled_grammar.h"

#include <fmt/format.h>

#include <algorithm>

#include "glr/cfg_from_grammar.h"
#include "lexer/regex/grammar_terminals.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lib/core/error.h"
#include "lib/grammar/grammar_error.h"
#include "lib/lark/lark_loader.h"

namespace glrmask::glr {

CompiledGrammar::CompiledGrammar(GrammarModel grammar, lexer::LexerDfa dfa, LalrAutomaton lalr,
                                 ParseOptions options, std::vector<SymbolId> skippable,
                                 UnrealizableRules unrealizable, CfgNormalization normalization,
                                 lexer::ForkFutures fork_futures)
    : grammar_(std::move(grammar)),
      dfa_(std::move(dfa)),
      lalr_(std::move(lalr)),
      options_(std::move(options)),
      skippable_(std::move(skippable)),
      unrealizable_(std::move(unrealizable)),
      normalization_(std::move(normalization)),
      fork_futures_(std::move(fork_futures)) {}

std::vector<SymbolId> CompiledGrammar::resolve_skippable(const GrammarModel& grammar,
                                                         const ParseOptions& options) {
  std::vector<SymbolId> skippable;
  for (const std::string& name : options.skippable) {
    auto id = grammar.find_symbol(name);
    if (!id || !grammar.is_terminal(*id))
      throw Error(fmt::format("skippable terminal '{}' is not a terminal of the grammar", name),
                  ErrorCode::kInvalidArgument);
    skippable.push_back(lr_terminal(*id));
  }
  std::sort(skippable.begin(), skippable.end());
  skippable.erase(std::unique(skippable.begin(), skippable.end()), skippable.end());
  return skippable;
}

std::optional<IndenterSpec> CompiledGrammar::resolve_post_lexer(const GrammarModel& grammar,
                                                                const ParseOptions& options) {
  if (options.postlex == PostLexer::kPythonIndenter) return python_indenter_spec(grammar);
  for (const Terminal& terminal : grammar.terminals()) {
    if (!terminal.declared) continue;
    throw Error(
        fmt::format(
            "{}: terminal {} is %declare'd: only a post-lexer can produce it; glrmask has Python's "
            "indenter, enabled with the post-lexer option (GrammarOptions::postlex python)",
            terminal.origin.str(), terminal.name),
        ErrorCode::kGrammar,
        ErrorLocation::in_file(terminal.origin.file, terminal.origin.line, terminal.origin.column));
  }
  return std::nullopt;
}

std::shared_ptr<const CompiledGrammar> CompiledGrammar::compile(GrammarModel grammar,
                                                                const ParseOptions& options) {
  std::vector<SymbolId> skippable = resolve_skippable(grammar, options);
  std::optional<IndenterSpec> indenter = resolve_post_lexer(grammar, options);

  auto specs = lexer::terminal_specs(grammar);
  // Lark accepts `start:` alone (its language is the empty text only); the lexer, the Terminal
  // DWA and the artifact are built over at least one terminal, so such a grammar is refused here,
  // at its start rule, rather than deep in the lexer compiler without a place.
  if (specs.empty())
    throw GrammarError(grammar.nonterminal(grammar.start()).origin,
                       fmt::format("the grammar has no terminals: its only sentence is the empty "
                                   "text, which glrmask does not compile (rule '{}')",
                                   grammar.name(grammar.start())));
  lexer::LexerDfa dfa = lexer::compile_lexer_dfa(specs, options.lexer_limits);
  UnrealizableRules unrealizable = find_unrealizable_rules(grammar, dfa);
  Cfg cfg = cfg_from_grammar(grammar);
  // Cfg rule i is GrammarModel rule i; drop from the back so the indices stay valid.
  for (auto r = unrealizable.rules.rbegin(); r != unrealizable.rules.rend(); ++r)
    cfg.rules.erase(cfg.rules.begin() + static_cast<std::ptrdiff_t>(*r));
  CfgNormalization normalization;
  if (options.policy == ConflictPolicy::kKeepAll) {
    normalization = normalize_unbounded_reductions(cfg);
  } else {
    normalization.found = find_unbounded_reductions(cfg);
    normalization.rules_before = normalization.rules_after = cfg.rules.size();
    if (!normalization.found.empty()) {
      normalization.found_text = normalization.found.describe(cfg);
      normalization.refusal =
          "under the Lark policy the resolved table defines the language, and rewriting the "
          "rules would change it";
    }
  }
  LalrAutomaton lalr(cfg, options.max_lookahead_bytes);
  lexer::ForkFutures fork_futures(dfa);
  auto* compiled = new CompiledGrammar(std::move(grammar), std::move(dfa), std::move(lalr), options,
                                       std::move(skippable), std::move(unrealizable),
                                       std::move(normalization), std::move(fork_futures));
  compiled->indenter_ = std::move(indenter);
  return std::shared_ptr<const CompiledGrammar>(compiled);
}

std::shared_ptr<const CompiledGrammar> CompiledGrammar::load_lark(const std::filesystem::path& path,
                                                                  const ParseOptions& options) {
  LarkOptions lark;
  lark.start = options.start;
  lark.declared_terminals = options.postlex != PostLexer::kNone;
  return compile(load_lark_file(path, lark), options);
}

bool CompiledGrammar::is_skippable(SymbolId terminal) const {
  return std::binary_search(skippable_.begin(), skippable_.end(), terminal);
}

}  // namespace glrmask::glr
