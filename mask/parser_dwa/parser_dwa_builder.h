// Builds the Parser DWA (parser_dwa.h) from a grammar's LR table and its Terminal DWA.
//
// The construction is described in docs/wfa.md, "Construction". A configuration
// is a point of the Terminal DWA's label trie (or a pending "can the next terminal be shifted?"
// check of a weight) together with a virtual stack; feeding a label runs the LR actions on the
// virtual stack, forking on every conflict. A reduction that pops below what has been read
// suspends the configuration as an item (continuation, terminal being fed, pops still owed, goto
// symbol): items need no virtual stack at all, which is what keeps the automaton small. A Parser
// DWA state is an interned set of items plus the LR state read last; its transition on the next
// LR state x resumes every item on x and collects the tokens whose configurations reach
// acceptance. Every step (item, x), label feed (terminal, continuation, stack) and trie expansion
// (node, stack) is memoized, so compile time follows what the vocabulary realizes.
//
// The transitions are computed by several threads, each owning the LR states read whose memo
// tables it keeps; item sets, lookaheads and states are interned in shared tables (docs/wfa.md,
// "A parallel build").
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "glr/compiled_grammar.h"
#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/core/error.h"
#include "lib/core/token_id.h"
#include "lib/token_set/token_set.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

struct ParserDwaOptions {
  // A virtual stack deeper than this means a chain of ε-reductions that never ends (hidden left
  // recursion); the build stops with an error naming the rule instead of running out of stack
  // (the construction recurses once per push). The SynCode grammars stay below 64.
  std::size_t max_virtual_depth = 512;
  // Start states that shift an early label before the fork's trie (ParserDwa::early_start_state),
  // so get_mask need not feed it to the GLR parser. They cut the cold teacher-forced get_mask mean
  // by about a third on Go and Java with Llama-3, and add 18% (Go) to 65% (Java) to the Parser
  // DWA's states and up to 45% to its build time (docs/wfa.md, "Early labels").
  bool early_label_starts = true;
  // Threads of the construction (0: TBB's concurrency, which a tbb::global_control limits). Each
  // thread owns the LR states read by index modulo the count; the automaton is the same for any
  // count (states are numbered canonically at the end).
  std::size_t threads = 0;
  // Budgets (0: no limit). Exceeding one stops the build with ErrorCode::kLimit naming it: a
  // grammar or schema whose automaton is too large fails in bounded time and memory instead of
  // reaching the OOM killer (docs/limits.md).
  std::size_t max_states = std::size_t{1} << 22;
  std::size_t max_transitions = std::size_t{1} << 24;  // live transitions found
  // The process's resident memory while the build runs, looked at every few thousand
  // transitions. It counts everything the process holds, not only this build.
  std::size_t max_memory_bytes = std::size_t{6} << 30;
  // The Terminal DWA's fork budget (lexer::TerminalDwaOptions::max_forks), for the Terminal DWA
  // CompiledMask::compile builds before this automaton.
  std::size_t max_terminal_dwa_forks = std::size_t{1} << 16;
};

// The construction's refusal of reductions that return to the same stack without consuming
// input (a derivation cycle the grammar's normalization did not rewrite): kUnsupported, so that
// Engine::kAuto moves on to an engine that follows the session instead. A type of its own so that
// callers add the normalization's reason without reading the message.
class EndlessReductionsError : public Error {
 public:
  explicit EndlessReductionsError(const std::string& message)
      : Error(message, ErrorCode::kUnsupported) {}
};

// `pool` must be the pool of `dwa`'s weights; EOS, when given, gets the weight of the end of
// input. Skippable terminals are shifted or dropped per stack (where the top state does not
// decide, the dropped branch is guarded work), which equals the session's rule (dropped when no
// stack can shift it) whenever the GSS has one head. Throws EndlessReductionsError on a reduction
// cycle, glrmask::Error (kUnsupported) for a grammar with skippable terminals where the session can
// hold two stacks (an LR cell that forks, a lexical tie), and kLimit past a budget.
ParserDwa build_parser_dwa(const glr::CompiledGrammar& grammar, const lexer::TerminalDwa& dwa,
                           TokenSetPool& pool, std::optional<TokenId> eos,
                           const ParserDwaOptions& options = {});

}  // namespace glrmask::mask
