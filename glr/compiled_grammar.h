// A grammar made ready for parsing: the GrammarModel, the lexing DFA of its terminals and the
// LALR(1) automaton with its action table under the chosen conflict policy. Immutable once built,
// so any number of sessions (and threads) can share one through a shared_ptr.
//
// Rules that use a terminal the lexer can never emit (always shadowed by another) are left out of
// the LR automaton, with the nonterminals that derive nothing else (unrealizable_rules.h); the
// GrammarModel keeps them, so grammar().rules() and the automaton's rules may differ.
//
// Rules whose reductions could repeat without consuming input (derivation cycles, hidden left
// recursion) are normalized under the GLR policy before the automaton is built
// (cfg_normalization.h): the session and the wfa then share one automaton of an equivalent
// grammar without them. Under the Lark policy the resolved table, not the grammar, defines the
// language, so the rules stay as written; normalization() says what was done.
//
// A compiled grammar's derived tables can be stored and read back instead of compiled again
// (compiled_grammar_image.h).
//
// Ids line up across the three: grammar terminal i is lexer terminal i is parser terminal i; the
// parser's end-of-input terminal is num_terminals() (LrGrammar::end_of_input()).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "glr/cfg_normalization.h"
#include "glr/indenter.h"
#include "glr/lalr_automaton.h"
#include "glr/unrealizable_rules.h"
#include "lexer/regex/lexer_dfa_compiler.h"
#include "lexer/runtime/fork_futures.h"
#include "lexer/runtime/lexer_dfa.h"
#include "lib/grammar/grammar_model.h"

namespace glrmask::glr {

struct ParseOptions {
  // Lark's `start=` option.
  std::string start = "start";
  // kKeepAll (GLR: the language is exactly the grammar's) or kLark (what Lark's LALR and the
  // papers' engines do: shift wins shift/reduce, rule priority decides reduce/reduce).
  ConflictPolicy policy = ConflictPolicy::kKeepAll;
  // Terminals that are dropped when the parser cannot accept them where they occur (SynCode's
  // convention for Go's statement-end EOS). Each name must be a terminal of the grammar.
  std::vector<std::string> skippable;
  // A post-lexer between the lexer and the parser (glr/indenter.h). Its terminals must be
  // %declare'd in the grammar; without one, a grammar that uses a %declare'd terminal is refused.
  PostLexer postlex = PostLexer::kNone;
  // Bounds of the lexer's automaton construction (a budget, not part of the language).
  lexer::LexerDfaLimits lexer_limits = {};
  // Memory the LALR(1) lookahead sets may take (0: no limit; LalrLookaheads).
  std::size_t max_lookahead_bytes = 0;
};

class CompiledGrammar {
 public:
  // Throws glrmask::Error (grammar, regex or option errors, each naming the place).
  static std::shared_ptr<const CompiledGrammar> compile(GrammarModel grammar,
                                                        const ParseOptions& options = {});
  static std::shared_ptr<const CompiledGrammar> load_lark(const std::filesystem::path& path,
                                                          const ParseOptions& options = {});

  const GrammarModel& grammar() const { return grammar_; }
  const lexer::LexerDfa& dfa() const { return dfa_; }
  const LalrAutomaton& lalr() const { return lalr_; }
  // The action table under options().policy.
  const LrTable& table() const { return lalr_.table(options_.policy); }
  const ParseOptions& options() const { return options_; }

  SymbolId end_of_input() const { return lalr_.grammar().end_of_input(); }
  // Sorted terminal ids named by options().skippable.
  const std::vector<SymbolId>& skippable_terminals() const { return skippable_; }
  bool is_skippable(SymbolId terminal) const;

  // What was left out of the automaton because the lexer can never produce it.
  const UnrealizableRules& unrealizable() const { return unrealizable_; }
  // Derivation cycles and hidden left recursion found, and whether they were normalized away.
  const CfgNormalization& normalization() const { return normalization_; }
  // What the lexer can still do from each of its forks (the session's viability test).
  const lexer::ForkFutures& fork_futures() const { return fork_futures_; }
  // Python's indenter, when options().postlex asks for it; nullptr otherwise.
  const IndenterSpec* indenter() const { return indenter_ ? &*indenter_ : nullptr; }

 private:
  // Compiled grammar images (compiled_grammar_image.h) store and read back the arrays.
  friend class CompiledGrammarImage;
  // The terminal ids options.skippable names, sorted; the indenter options.postlex asks for.
  // Both throw glrmask::Error naming what does not fit the grammar.
  static std::vector<SymbolId> resolve_skippable(const GrammarModel& grammar,
                                                 const ParseOptions& options);
  static std::optional<IndenterSpec> resolve_post_lexer(const GrammarModel& grammar,
                                                        const ParseOptions& options);

  CompiledGrammar(GrammarModel grammar, lexer::LexerDfa dfa, LalrAutomaton lalr,
                  ParseOptions options, std::vector<SymbolId> skippable,
                  UnrealizableRules unrealizable, CfgNormalization normalization,
                  lexer::ForkFutures fork_futures);

  GrammarModel grammar_;
  lexer::LexerDfa dfa_;
  LalrAutomaton lalr_;
  ParseOptions options_;
  std::vector<SymbolId> skippable_;
  UnrealizableRules unrealizable_;
  CfgNormalization normalization_;
  lexer::ForkFutures fork_futures_;
  std::optional<IndenterSpec> indenter_;
};

}  // namespace glrmask::glr
