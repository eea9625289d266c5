// The Terminal DWA: for every lexer fork the streaming lexer can be in between two LLM tokens,
// which label sequences each vocabulary token emits and which fork it leaves behind — as a
// weighted automaton over labels whose weights are interned TokenSets, not as per-token lists
// (GreatGramma's token spanner table; docs/terminal_dwa.md). Built by build_terminal_dwa()
// (terminal_dwa_builder.h).
//
// Shape. Each fork has a root node. Nodes form a trie over labels (deterministic; equal subtries
// are shared between forks, so the nodes form a DAG). The weight of a node maps end forks to
// the set of tokens that, read from the root's fork, emit exactly the labels on the path to the
// node and leave the lexer in that end fork. A token may appear under several (node, end fork)
// pairs: each is one alternative (a match that may still extend was emitted early on one
// branch and not on the other, see lexer_fork.h); the alternatives are told apart later by the
// bytes that follow, through the end fork's inhibitors. A token in no weight of a fork is dead
// from it: the lexer fails on its bytes.
//
// Labels are LexerDfa labels: a label with several terminals is a lexical tie and each terminal
// is one alternative for the parser; a tie that includes an ignored terminal offers "skip" as
// an alternative. Purely ignored labels are not in the sequences. For a grammar whose post-lexer
// is an indenter, a label with the newline terminal is an indent label instead (indent_label.h:
// the lexer label plus the width of the newline's text), so that tokens whose newlines differ in
// width stay apart; label_terminals() and base_label() give the lexer's view.
//
// How the next stage uses it (the Parser DWA): for the session's LexerConfiguration, enter()
// gives the forks with the labels each emitted early. A token of weight (node, end fork) under
// such a fork is allowed iff the early labels followed by the node's labels parse, and then
// either some terminal of next_terminals(end fork) can be shifted, or the end of input is
// accepted and the end fork can finish — can_finish(end fork), or the fork reaches a token
// boundary through ignored text only (a token that opens a trailing comment after a complete
// sentence; lexer::ForkFutures::can_end answers it, and lexer/terminal_dwa/fork_ignored_ending.h
// for a Terminal DWA).
//
// EOS is not in the trie: it emits end-of-input. EOS is allowed iff the lexer can finish: some
// entry of enter(configuration) has can_finish(fork) (there is at most one, and its labels are
// exactly what finish() emits), and those labels followed by the end-of-input terminal parse to
// acceptance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lexer/runtime/lexer_configuration.h"
#include "lexer/runtime/lexer_dfa.h"
#include "lexer/runtime/lexer_fork.h"
#include "lexer/terminal_dwa/indent_label.h"
#include "lib/core/token_id.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask {
class BinaryWriter;
class BinaryReader;
}  // namespace glrmask

namespace glrmask::lexer {

using ForkId = uint32_t;
using DwaNodeId = uint32_t;

struct DwaEdge {
  LabelId label;
  DwaNodeId child;
};

struct DwaWeight {
  ForkId end;
  TokenSetId tokens;
};

// Where a fork's current lexeme stands (for statistics and messages).
enum class ForkPosition {
  kBoundary,         // between two lexemes
  kInsideTerminal,   // inside a lexeme that has not matched yet
  kExtendableMatch,  // the lexeme matches and may grow (its label went out on a sibling fork)
  kInsideIgnored,    // inside a lexeme that can only become ignored text (a comment, spaces)
};

// One way into the DWA from a deterministic configuration.
struct DwaEntry {
  std::vector<LabelId> labels;  // emitted early on this branch; feed them to the parser first
  ForkId fork;
};

struct TerminalDwaStats {
  size_t vocabulary_tokens = 0;  // tokens in the vocabulary trie
  size_t vocabulary_trie_nodes = 0;
  size_t forks = 0;  // lexer configurations between tokens
  size_t forks_at_boundary = 0;
  size_t forks_inside_terminal = 0;
  size_t forks_at_extendable_match = 0;
  size_t forks_inside_ignored = 0;
  size_t forks_inhibited = 0;  // carrying at least one inhibitor
  size_t trie_nodes = 0;       // label-trie nodes summed over forks, before sharing
  size_t nodes = 0;            // DWA nodes after sharing equal subtries
  size_t edges = 0;
  size_t weights = 0;               // (node, end fork, token set) entries
  size_t distinct_weights = 0;      // distinct token sets among them
  size_t token_alternatives = 0;    // (fork, token, alternative) triples, i.e. the table's entries
  size_t dead_pairs = 0;            // (fork, token) pairs where the token cannot be lexed
  size_t label_sequences = 0;       // distinct emitted label sequences over all forks
  size_t realizable_sequences = 0;  // distinct (label sequence, next terminal): GreatGramma's Re
  size_t longest_sequence = 0;      // labels
  TokenId longest_sequence_token = 0;
  ForkId longest_sequence_fork = 0;
  size_t product_states = 0;  // explored by the next-terminal analysis
  size_t pieces = 0;          // subtrie walks (fork_assembly.h)
  size_t trie_steps = 0;      // lexer branch steps taken by them
  double build_seconds = 0;
  double walk_seconds = 0;       // of which: the parallel trie walks
  size_t peak_memory_bytes = 0;  // VmHWM after the build (whole process)
};

class TerminalDwa {
 public:
  static constexpr ForkId kInitialFork = 0;

  const LexerDfa& dfa() const { return *dfa_; }

  size_t num_forks() const { return forks_.size(); }
  const LexerFork& fork(ForkId fork) const { return forks_[fork]; }
  std::optional<ForkId> find_fork(const LexerFork& fork) const;
  ForkPosition position(ForkId fork) const { return positions_[fork]; }
  bool can_finish(ForkId fork) const { return lexer::can_finish(*dfa_, forks_[fork]); }
  // Terminals that can be the next one the parser sees after this fork (fork_next_terminals.h):
  // non-ignored, ascending. Empty when only the end of input can follow.
  std::span<const uint32_t> next_terminals(ForkId fork) const {
    return {next_terminals_.data() + next_begin_[fork],
            next_terminals_.data() + next_begin_[fork + 1]};
  }
  DwaNodeId root(ForkId fork) const { return roots_[fork]; }

  // Built with indent labels (indent_label.h) for this newline terminal, or nullopt.
  const std::optional<IndentLabeling>& indent_labeling() const { return indent_labeling_; }
  // The lexer's view of a trie label (an indent label is its lexer label plus a text).
  std::span<const uint32_t> label_terminals(LabelId label) const {
    return dfa_->label_terminals(base_label(label));
  }
  bool label_is_ignored(LabelId label) const { return dfa_->label_is_ignored(base_label(label)); }
  // "_NL" or "_NL(+2)" / "_NL(4)" / "_NL(no newline)" for an indent label, for messages.
  std::string describe_label(LabelId label) const;
  // Tokens that can be lexed from the fork (in some weight of its trie).
  TokenSetId alive(ForkId fork) const { return alive_[fork]; }

  size_t num_nodes() const { return edge_begin_.size() - 1; }
  std::span<const DwaEdge> edges(DwaNodeId node) const {
    return {edges_.data() + edge_begin_[node], edges_.data() + edge_begin_[node + 1]};
  }
  std::optional<DwaNodeId> child(DwaNodeId node, LabelId label) const;
  std::span<const DwaWeight> weights(DwaNodeId node) const {
    return {weights_.data() + weight_begin_[node], weights_.data() + weight_begin_[node + 1]};
  }

  // The forks equivalent to `configuration` (fork_configuration()), as DWA entries. Throws
  // glrmask::Error when one of them is not in the DWA — possible only for configurations no
  // sequence of vocabulary tokens reaches.
  std::vector<DwaEntry> enter(const LexerConfiguration& configuration) const;

  // Calls visit(labels, end fork, tokens) for every weight of the fork's trie, depth first.
  template <typename Visitor>
  void for_each_weight(ForkId fork, Visitor&& visit) const {
    std::vector<LabelId> labels;
    walk(roots_[fork], labels, visit);
  }

  // A token sequence that leads from the initial fork to `fork` (for messages and tests).
  std::vector<TokenId> example_path(ForkId fork) const;

  const TerminalDwaStats& stats() const { return stats_; }

  // Serialization for compiled artifacts (mask/artifact/mask_artifact.h). Token sets go through
  // `stored_id` (pool id -> the artifact's numbering) and come back through `pool_id`. read()
  // throws glrmask::Error naming the byte offset when the data is inconsistent.
  void write(BinaryWriter& out, const std::function<uint32_t(TokenSetId)>& stored_id) const;
  static TerminalDwa read(BinaryReader& in, const LexerDfa& dfa,
                          const std::function<TokenSetId(uint32_t)>& pool_id);

 private:
  friend class TerminalDwaBuilder;
  explicit TerminalDwa(const LexerDfa& dfa) : dfa_(&dfa) {}

  template <typename Visitor>
  void walk(DwaNodeId node, std::vector<LabelId>& labels, Visitor& visit) const {
    for (const DwaWeight& weight : weights(node))
      visit(std::as_const(labels), weight.end, weight.tokens);
    for (const DwaEdge& edge : edges(node)) {
      labels.push_back(edge.label);
      walk(edge.child, labels, visit);
      labels.pop_back();
    }
  }

  const LexerDfa* dfa_;  // the caller keeps it alive (CompiledGrammar owns it)
  std::optional<IndentLabeling> indent_labeling_;
  std::vector<LexerFork> forks_;
  std::unordered_map<LexerFork, ForkId, LexerForkHash> fork_ids_;
  std::vector<ForkPosition> positions_;
  std::vector<DwaNodeId> roots_;
  std::vector<TokenSetId> alive_;
  std::vector<uint32_t> next_begin_ = {0};
  std::vector<uint32_t> next_terminals_;
  // How each fork was first reached: from which fork, by which token.
  std::vector<ForkId> origin_fork_;
  std::vector<TokenId> origin_token_;

  std::vector<uint32_t> edge_begin_ = {0};
  std::vector<DwaEdge> edges_;  // per node, ascending label
  std::vector<uint32_t> weight_begin_ = {0};
  std::vector<DwaWeight> weights_;  // per node, ascending end fork
  TerminalDwaStats stats_;
};

}  // namespace glrmask::lexer
