#include "mask/parser_dwa/builder_preparation.h"

#include <fmt/format.h>

#include <algorithm>

#include "lib/core/error.h"

namespace glrmask::mask::construction {

LookaheadId intern_lookahead(ParserDwaShared& shared, std::vector<SymbolId> terminals) {
  std::sort(terminals.begin(), terminals.end());
  terminals.erase(std::unique(terminals.begin(), terminals.end()), terminals.end());
  return shared.lookaheads.intern(terminals, ItemsHash{}(terminals));
}

void compute_predecessors(ParserDwaShared& shared) {
  const glr::LrTable& table = shared.table;
  const std::uint32_t n = table.num_states();
  shared.predecessors.assign(n, {});
  std::vector<char> first(n, 0);
  first[0] = 1;
  for (StateId x = 0; x < n; ++x) {
    for (std::uint32_t cell = table.row_begin(x); cell < table.row_end(x); ++cell) {
      for (const glr::Action action : table.cell_actions(cell)) {
        if (!action.is_shift()) continue;
        shared.predecessors[action.target()].push_back(x);
        first[action.target()] = 1;
      }
    }
    for (const glr::LrTable::GotoEntry& entry : table.gotos(x))
      shared.predecessors[entry.target].push_back(x);
  }
  for (std::vector<StateId>& list : shared.predecessors) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  for (StateId x = 0; x < n; ++x)
    if (first[x] != 0) shared.first_reads.push_back(x);
}

void compute_start_reads(ParserDwaShared& shared) {
  const lexer::TerminalDwa& dwa = shared.dwa;
  const lexer::LexerDfa& dfa = dwa.dfa();
  if (shared.grammar.indenter() != nullptr || !shared.grammar.skippable_terminals().empty()) return;
  const std::uint32_t num_symbols = shared.table.num_terminals();  // with the end of input
  // Per terminal: the first reads whose verdict on it is not "never".
  std::vector<std::vector<StateId>> reads_of(num_symbols);
  for (const StateId x : shared.first_reads)
    for (std::uint32_t cell = shared.table.row_begin(x); cell < shared.table.row_end(x); ++cell)
      if (shared.verdicts->cell_verdict(cell) != ShiftVerdict::kNever)
        reads_of[shared.table.cell_terminal(cell)].push_back(x);
  std::vector<std::uint32_t> terminal_seen(num_symbols, 0);
  std::vector<std::uint32_t> node_seen(dwa.num_nodes(), 0);
  std::vector<std::uint32_t> read_seen(shared.table.num_states(), 0);
  std::vector<SymbolId> terminals;
  std::vector<lexer::DwaNodeId> nodes;
  shared.start_reads.assign(dwa.num_forks(), {});
  for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork) {
    const std::uint32_t stamp = fork + 1;
    terminals.clear();
    auto add = [&](SymbolId t) {
      if (terminal_seen[t] != stamp) {
        terminal_seen[t] = stamp;
        terminals.push_back(t);
      }
    };
    if (dwa.can_finish(fork)) add(shared.end_of_input);
    nodes.assign(1, dwa.root(fork));
    node_seen[dwa.root(fork)] = stamp;
    while (!nodes.empty()) {
      const lexer::DwaNodeId node = nodes.back();
      nodes.pop_back();
      for (const auto& [lookahead, tokens] : shared.checks[node])
        for (const SymbolId t : shared.lookaheads[lookahead]) add(t);
      for (const lexer::DwaEdge& edge : dwa.edges(node)) {
        bool past = dfa.label_is_ignored(edge.label);  // the label may be skipped
        for (const std::uint32_t t : dfa.label_terminals(edge.label)) {
          if (dfa.terminals()[t].ignored) {
            past = true;
          } else {
            add(t);
          }
        }
        if (past && node_seen[edge.child] != stamp) {
          node_seen[edge.child] = stamp;
          nodes.push_back(edge.child);
        }
      }
    }
    std::vector<StateId>& reads = shared.start_reads[fork];
    for (const SymbolId t : terminals)
      for (const StateId x : reads_of[t])
        if (read_seen[x] != stamp) {
          read_seen[x] = stamp;
          reads.push_back(x);
        }
    std::sort(reads.begin(), reads.end());
  }
}

void require_single_stack_for_skippables(const ParserDwaShared& shared) {
  const glr::CompiledGrammar& grammar = shared.grammar;
  const glr::LrTable& table = shared.table;
  if (grammar.skippable_terminals().empty()) return;
  const std::string skippable =
      grammar.grammar().terminals()[grammar.skippable_terminals().front()].name;
  const auto terminal_name = [&](SymbolId terminal) {
    return terminal < grammar.grammar().terminals().size()
               ? grammar.grammar().terminals()[terminal].name
               : std::string("$END");
  };
  const auto refuse = [&](const std::string& fork) {
    throw Error(
        fmt::format(
            "wfa: the skippable terminal '{}' is dropped only when no stack can shift it, a "
            "condition "
            "over all stacks together, but the Parser DWA decides it per stack; the two agree only "
            "when the session never holds two stacks, and {} (use the Lark conflict policy, "
            "GrammarOptions::policy lark, or the spanner "
            "engine)",
            skippable, fork),
        ErrorCode::kUnsupported);
  };
  for (StateId state = 0; state < table.num_states(); ++state)
    for (std::uint32_t cell = table.row_begin(state); cell < table.row_end(state); ++cell)
      if (table.cell_actions(cell).size() > 1)
        refuse(fmt::format("LR state {} forks on terminal '{}'", state,
                           terminal_name(table.cell_terminal(cell))));
  const lexer::LexerDfa& dfa = shared.dwa.dfa();
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    const std::span<const std::uint32_t> tie = dfa.label_terminals(label);
    if (tie.size() > 1)
      refuse(fmt::format("the lexer emits a tie between '{}' and '{}'",
                         dfa.terminals()[tie[0]].name, dfa.terminals()[tie[1]].name));
  }
}

void precompute_node_tables(ParserDwaShared& shared, TokenSetPool& pool) {
  const lexer::TerminalDwa& dwa = shared.dwa;
  shared.subtrie_tokens.assign(dwa.num_nodes(), TokenSetPool::empty());
  for_each_node_children_first(dwa, [&](lexer::DwaNodeId node) {
    TokenSetId tokens = TokenSetPool::empty();
    for (const lexer::DwaWeight& weight : dwa.weights(node))
      tokens = pool.unite(tokens, weight.tokens);
    for (const lexer::DwaEdge& edge : dwa.edges(node))
      tokens = pool.unite(tokens, shared.subtrie_tokens[edge.child]);
    shared.subtrie_tokens[node] = tokens;
  });
  shared.start_pending.resize(dwa.num_forks());
  for (lexer::ForkId fork = 0; fork < dwa.num_forks(); ++fork)
    shared.start_pending[fork] = pool.unite(shared.subtrie_tokens[dwa.root(fork)], shared.eos);

  shared.checks.resize(dwa.num_nodes());
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    std::vector<std::pair<LookaheadId, TokenSetId>>& list = shared.checks[node];
    for (const lexer::DwaWeight& weight : dwa.weights(node)) {
      const std::span<const std::uint32_t> next = dwa.next_terminals(weight.end);
      std::vector<SymbolId> terminals(next.begin(), next.end());
      if (dwa.can_finish(weight.end) || shared.ends_through_ignored[weight.end] != 0)
        terminals.push_back(shared.end_of_input);
      if (terminals.empty()) continue;
      const LookaheadId lookahead = intern_lookahead(shared, std::move(terminals));
      const auto same = std::find_if(list.begin(), list.end(),
                                     [&](const auto& entry) { return entry.first == lookahead; });
      if (same != list.end()) {
        same->second = pool.unite(same->second, weight.tokens);
      } else {
        list.emplace_back(lookahead, weight.tokens);
      }
    }
  }

  // A label's lookahead when its feed is a plain shift; kNoLookahead for ignored or skippable
  // terminals, whose handling depends on the stacks (IncrementalRecognizer::feed_token).
  const lexer::LexerDfa& dfa = dwa.dfa();
  shared.plain_lookaheads.assign(dfa.num_labels(), kNoLookahead);
  for (lexer::LabelId label = 0; label < dfa.num_labels(); ++label) {
    if (dfa.label_is_ignored(label)) continue;
    std::vector<SymbolId> terminals;
    bool plain = true;
    for (const std::uint32_t terminal : dfa.label_terminals(label)) {
      if (dfa.terminals()[terminal].ignored || shared.grammar.is_skippable(terminal)) {
        plain = false;
        break;
      }
      terminals.push_back(terminal);
    }
    if (plain && !terminals.empty())
      shared.plain_lookaheads[label] = intern_lookahead(shared, std::move(terminals));
  }
}

// A session's configuration with an accepted lexeme enters the Terminal DWA twice: the lexeme
// going on, and its label committed with the bytes after it lexed again, in a fork inhibited by
// the configuration's state (lexer_fork.h). At a token boundary right after the lexeme (nothing
// pending: the most common case by far, e.g. after an identifier) that fork is the start state
// with inhibitors, and the DWA records the same (label, fork) wherever one token ends just after
// such a lexeme: an edge on the label into a node with a weight ending in that fork. Those pairs
// get start states. Forks with bytes pending after the lexeme would add states for rare steps;
// such entries, like any the DWA never recorded, are fed to the parser at get_mask time.
std::vector<std::pair<lexer::LabelId, lexer::ForkId>> early_label_pairs(
    const lexer::TerminalDwa& dwa) {
  std::vector<std::pair<lexer::LabelId, lexer::ForkId>> pairs;
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node) {
    for (const lexer::DwaEdge& edge : dwa.edges(node)) {
      for (const lexer::DwaWeight& weight : dwa.weights(edge.child))
        if (!dwa.fork(weight.end).inhibitors.empty() && dwa.can_finish(weight.end))
          pairs.emplace_back(lexer::base_label(edge.label), weight.end);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace glrmask::mask::construction
