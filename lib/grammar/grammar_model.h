// The grammar model every front-end (Lark, later GBNF, JSON Schema, regex) produces and every later
// stage (lexer, LR automaton, mask engine) consumes: a context-free grammar in plain BNF whose
// terminals carry regular-expression patterns.
//
// Symbols have dense ids. Terminals come first, [0, num_terminals()), so parser tables can index
// their terminal columns directly; nonterminals follow, [num_terminals(), num_symbols()). Names are
// kept for messages and for printing the grammar back.
//
// A GrammarModel is immutable and self-consistent: every rule's symbols exist, every nonterminal
// has at least one rule, derives some terminal string and is reachable from the start symbol, and
// every terminal is used by a rule or ignored. GrammarBuilder (grammar_builder.h) establishes this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/core/check.h"
#include "lib/grammar/grammar_error.h"
#include "lib/grammar/symbol_id.h"

namespace glrmask {

struct Terminal {
  std::string name;
  // A regular expression in Python `re` syntax (the syntax Lark grammars are written in), UTF-8.
  // For a literal this is the literal with the regex metacharacters escaped.
  std::string pattern;
  // Flags that apply to the whole pattern, a sorted subset of "imsux" (Python's meanings). Parts
  // of composed terminals carry their own flags as scoped groups such as "(?i:...)" instead.
  std::string flags;
  // True for a terminal that is one plain string (possibly with the `i` flag); then `literal` holds
  // that string unescaped. Lexers prefer literals over patterns on equal matches.
  bool is_literal = false;
  std::string literal;
  // Larger wins among matches of equal length. Lark's default is 0; negative values are allowed.
  int priority = 0;
  // Matched by the lexer and dropped before the parser (Lark's %ignore).
  bool ignored = false;
  // Written in the grammar as a literal or regex inside a rule or %ignore, not defined by name.
  // Such terminals are printed back inline.
  bool anonymous = false;
  // %declare'd: the terminal has no pattern and the lexer never matches it; a post-lexer inserts
  // it into the token stream (Lark's Indenter for _INDENT/_DEDENT, glr/indenter.h).
  bool declared = false;
  // Matched as a language: every text the pattern matches in full (Python's re.fullmatch), not
  // Python's re.match at each position, and the empty text too when the pattern allows it (the
  // grammar then says where it may be empty). The regex constraint's one terminal, whose
  // sentences are its pattern's matches; `a|ab` then takes "ab", which re.match would cut to "a".
  bool whole_language = false;
  // A token terminal (lib/core/token_terminal.h): matched by one token id, never by text;
  // `pattern` is empty. `token` is the spelling: `<[151657]>` names the id, `<tool_call>` a token
  // of the tokenizer the constraint is compiled for, which resolves it to the id form. Negated
  // (GBNF's `!<...>`), it matches every token but that one: the grammar's fronts use it only
  // where text may stand beside it (`(!<[11]>)*`), since a byte-level mask cannot count tokens.
  std::string token;
  bool token_negated = false;
  // A byte terminal: exactly one byte in one of `byte_ranges` (inclusive pairs); `pattern` is
  // empty. Structural tags read their segments byte by byte (lexer/regex/byte_level_grammar.h),
  // so that no segment's lexeme can run into its neighbours'.
  std::vector<std::pair<std::uint8_t, std::uint8_t>> byte_ranges;
  SourceLocation origin;
};

// How a nonterminal's subtree appears in a parse tree (Lark's rule modifiers). It does not change
// the language; it is kept so that trees, and the printed grammar, match the source.
struct TreeShape {
  bool inline_always = false;     // `_rule`, and rules generated from EBNF: children are spliced
  bool inline_if_single = false;  // `?rule`: replaced by its child when it has exactly one
  bool keep_all_tokens = false;   // `!rule`: punctuation tokens stay in the tree
  bool operator==(const TreeShape&) const = default;
};

struct Nonterminal {
  std::string name;
  TreeShape shape;
  // Introduced by the front-end (EBNF expansion), not written by the grammar's author.
  bool generated = false;
  SourceLocation origin;
};

struct Rule {
  SymbolId lhs;
  std::vector<SymbolId> rhs;  // empty for an ε-rule
  // Lark's rule priority (`rule.N`): decides reduce/reduce conflicts. 0 when not given.
  int priority = 0;
  std::string alias;  // `-> name`, empty when absent
  TreeShape shape;    // the shape of the lhs, repeated for convenience
  SourceLocation origin;
};

struct GrammarStats {
  std::size_t terminals = 0;
  std::size_t ignored_terminals = 0;
  std::size_t nonterminals = 0;
  std::size_t rules = 0;
  std::size_t rhs_symbols = 0;  // total length of all right-hand sides
  bool operator==(const GrammarStats&) const = default;
};

class GrammarModel {
 public:
  std::size_t num_terminals() const { return terminals_.size(); }
  std::size_t num_nonterminals() const { return nonterminals_.size(); }
  std::size_t num_symbols() const { return terminals_.size() + nonterminals_.size(); }
  bool is_terminal(SymbolId id) const { return id.value() < terminals_.size(); }

  std::string_view name(SymbolId id) const;
  std::optional<SymbolId> find_symbol(std::string_view name) const;

  const Terminal& terminal(SymbolId id) const;        // id < num_terminals()
  const Nonterminal& nonterminal(SymbolId id) const;  // num_terminals() <= id < num_symbols()
  std::span<const Terminal> terminals() const { return terminals_; }
  std::span<const Nonterminal> nonterminals() const { return nonterminals_; }
  SymbolId terminal_id(std::size_t index) const {
    GLRMASK_DCHECK(index < terminals_.size(), "terminal {} of {}", index, terminals_.size());
    return SymbolId{static_cast<std::uint32_t>(index)};
  }
  SymbolId nonterminal_id(std::size_t index) const {
    GLRMASK_DCHECK(index < nonterminals_.size(), "nonterminal {} of {}", index,
                   nonterminals_.size());
    return SymbolId{static_cast<std::uint32_t>(terminals_.size() + index)};
  }

  // All rules, grouped by lhs in nonterminal order; alternatives keep their source order.
  std::span<const Rule> rules() const { return rules_; }
  std::span<const Rule> rules_of(SymbolId nonterminal) const;
  // The index in rules() of the first rule of `nonterminal`.
  std::size_t first_rule_of(SymbolId nonterminal) const;

  SymbolId start() const { return start_; }
  std::vector<SymbolId> ignored_terminals() const;

  GrammarStats stats() const;
  // What the front-end and the builder noticed but did not refuse (symbols removed as unreachable
  // or unproductive, unused terminals). Not printed by the library.
  const std::vector<Diagnostic>& warnings() const { return warnings_; }

  // True when some terminal is a token terminal (Terminal::token).
  bool has_token_terminals() const;
  // This grammar with the token terminals respelled: terminal i's `token` becomes `spellings[i]`
  // (one per terminal; ignored for the others). Binding a grammar to a tokenizer writes the id
  // form for every token named by text.
  GrammarModel with_token_spellings(std::span<const std::string> spellings) const;

 private:
  friend class GrammarBuilder;
  GrammarModel() = default;

  std::vector<Terminal> terminals_;
  std::vector<Nonterminal> nonterminals_;
  std::vector<Rule> rules_;
  std::vector<std::size_t> rule_offsets_;  // rules of nonterminal i: [offsets[i], offsets[i+1])
  std::unordered_map<std::string, SymbolId> ids_by_name_;
  SymbolId start_;
  std::vector<Diagnostic> warnings_;
};

}  // namespace glrmask
