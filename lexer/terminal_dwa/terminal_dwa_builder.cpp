#include "lexer/terminal_dwa/terminal_dwa_builder.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <boost/container_hash/hash.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lexer/runtime/fork_next_terminals.h"
#include "lexer/terminal_dwa/fork_assembly.h"
#include "lexer/terminal_dwa/fork_trie_walk.h"
#include "lib/core/error.h"
#include "lib/core/escape.h"
#include "lib/core/flat_u64_map.h"
#include "lib/core/process_memory.h"

namespace glrmask::lexer {

namespace {

struct VectorHash {
  size_t operator()(const std::vector<uint32_t>& values) const {
    return boost::hash_range(values.begin(), values.end());
  }
};

}  // namespace

class TerminalDwaBuilder {
 public:
  TerminalDwaBuilder(const LexerDfa& dfa, const VocabularyTrie& trie, TokenSetPool& pool,
                     const TerminalDwaOptions& options)
      : dfa_(dfa), trie_(trie), pool_(pool), options_(options), dwa_(dfa) {
    if (options.indent_labeling) {
      scan_.emplace(dfa, *options.indent_labeling);
      dwa_.indent_labeling_ = options.indent_labeling;
    }
    if (pool.universe_size() != trie.universe_size()) {
      throw Error(
          fmt::format("Terminal DWA: the token-set pool is for {} token ids, the vocabulary has {}",
                      pool.universe_size(), trie.universe_size()),
          ErrorCode::kInvalidArgument);
    }
  }

  TerminalDwa build() {
    const auto started = std::chrono::steady_clock::now();
    intern_fork(initial_fork(dfa_), TerminalDwa::kInitialFork, 0);
    tbb::enumerable_thread_specific<ForkTrieWalker> walkers(
        [&] { return ForkTrieWalker(dfa_, trie_, scan_ ? &*scan_ : nullptr); });
    tbb::enumerable_thread_specific<ForkAssembler> assemblers;
    const size_t batch_size = std::max<size_t>(1, options_.batch_size);
    for (size_t first = 0; first < dwa_.forks_.size();) {
      const size_t last = std::min(dwa_.forks_.size(), first + batch_size);
      const auto walk_started = std::chrono::steady_clock::now();

      // Which piece each fork needs below each first byte.
      std::vector<std::vector<FirstStep>> first_steps(last - first);
      parallel_over(first, last, [&](size_t f) { first_steps[f - first] = first_byte_steps(f); });
      std::vector<std::vector<PieceUse>> uses(last - first);
      const size_t new_pieces_begin = pieces_.size();
      std::vector<const PieceKey*> new_pieces;
      std::vector<ForkId> requested_by;
      for (size_t f = first; f < last; ++f) {
        for (FirstStep& step : first_steps[f - first]) {
          const auto [at, inserted] =
              piece_ids_.emplace(PieceKey{step.trie_node, std::move(step.fork), step.scan},
                                 static_cast<uint32_t>(pieces_.size() + new_pieces.size()));
          if (inserted) {
            new_pieces.push_back(&at->first);
            requested_by.push_back(static_cast<ForkId>(f));
          }
          uses[f - first].push_back({step.label, at->second});
        }
      }

      // Walk the new pieces, then number their end forks (queueing the new ones).
      std::vector<SubtrieWalk> walks(new_pieces.size());
      parallel_over(0, new_pieces.size(), [&](size_t p) {
        // The root's piece holds only the empty token strings: every other token is in the
        // piece of its first byte.
        const PieceKey& key = *new_pieces[p];
        walks[p] = walkers.local().walk(key.trie_node, key.fork,
                                        key.trie_node != VocabularyTrie::kRoot, key.scan);
      });
      for (size_t p = 0; p < walks.size(); ++p) add_piece(walks[p], requested_by[p]);
      walks.clear();

      // Assemble each fork from its pieces and merge it.
      std::vector<AssembledFork> assembled(last - first);
      parallel_over(first, last, [&](size_t f) {
        assembled[f - first] = assemblers.local().assemble(uses[f - first], pieces_);
      });
      dwa_.stats_.walk_seconds += seconds_since(walk_started);
      for (size_t f = first; f < last; ++f) {
        merge(static_cast<ForkId>(f), assembled[f - first]);
        assembled[f - first] = AssembledFork{};  // release it now
      }
      dwa_.stats_.pieces += pieces_.size() - new_pieces_begin;
      first = last;
    }
    finish();
    dwa_.stats_.build_seconds = seconds_since(started);
    dwa_.stats_.peak_memory_bytes = peak_memory_bytes();
    return std::move(dwa_);
  }

 private:
  struct FirstStep {
    uint32_t trie_node;  // a child of the root
    LabelId label;       // emitted by its byte, or kNoLabel
    LexerFork fork;      // the branch after it
    uint32_t scan = 0;   // its lexeme's LexemeScan (with indent labels)
  };
  struct PieceKey {
    uint32_t trie_node;
    LexerFork fork;
    uint32_t scan = 0;
    bool operator==(const PieceKey&) const = default;
  };
  struct PieceKeyHash {
    size_t operator()(const PieceKey& key) const {
      size_t seed = LexerForkHash{}(key.fork);
      boost::hash_combine(seed, key.trie_node);
      boost::hash_combine(seed, key.scan);
      return seed;
    }
  };

  template <typename Body>
  static void parallel_over(size_t begin, size_t end, const Body& body) {
    tbb::parallel_for(tbb::blocked_range<size_t>(begin, end, 1),
                      [&](const tbb::blocked_range<size_t>& range) {
                        for (size_t i = range.begin(); i < range.end(); ++i) body(i);
                      });
  }

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  std::vector<FirstStep> first_byte_steps(size_t fork) const {
    std::vector<FirstStep> steps;
    std::vector<ForkedLexing> next;
    const ForkedLexing from{{}, dwa_.forks_[fork]};
    const uint32_t initial_scan = scan_ ? scan_->initial(from.fork.state) : 0;
    for (uint32_t child = trie_.first_child(VocabularyTrie::kRoot);
         child < trie_.child_end(VocabularyTrie::kRoot); ++child) {
      next.clear();
      const uint8_t byte = trie_.byte(child);
      step_fork(dfa_, from, byte, next);
      for (ForkedLexing& branch : next) {
        LabelId label = branch.labels.empty() ? LexerDfa::kNoLabel : branch.labels.front();
        uint32_t scan = 0;
        if (scan_) {
          // The lexeme read so far: the root's, extended by the byte. A branch that restarted at
          // the start state emitted it (labels may be empty when it was ignored text).
          const uint32_t lexeme = dfa_.next(from.fork.state, byte);
          const uint32_t after = scan_->advance(initial_scan, byte, lexeme);
          if (branch.fork.state == dfa_.start_state()) {
            if (label != LexerDfa::kNoLabel) label = scan_->annotate(label, after);
          } else {
            scan = after;
          }
        }
        steps.push_back({child, label, std::move(branch.fork), scan});
      }
    }
    if (trie_.has_tokens(VocabularyTrie::kRoot)) {  // empty token strings leave the fork as is
      steps.push_back({VocabularyTrie::kRoot, LexerDfa::kNoLabel, dwa_.forks_[fork]});
    }
    return steps;
  }

  void add_piece(SubtrieWalk& walk, ForkId requested_by) {
    SubtriePiece& piece = pieces_.emplace_back();
    piece.trie.parent = std::move(walk.parent);
    piece.trie.label = std::move(walk.label);
    std::vector<std::optional<TokenId>> example(walk.ends.size());
    for (const SubtrieWalk::Group& group : walk.groups) {
      if (!example[group.end]) example[group.end] = group.tokens.minimum();
    }
    std::vector<ForkId> ends(walk.ends.size());
    for (size_t e = 0; e < walk.ends.size(); ++e) {
      ends[e] = intern_fork(std::move(walk.ends[e]), requested_by, example[e].value_or(0));
    }
    for (SubtrieWalk::Group& group : walk.groups) {
      piece.groups.push_back({group.node, ends[group.end], pool_.intern(std::move(group.tokens))});
    }
    piece.alive = std::move(walk.alive);
    dwa_.stats_.trie_steps += walk.steps;
  }

  ForkId intern_fork(LexerFork fork, ForkId origin, TokenId token) {
    const auto [at, inserted] =
        dwa_.fork_ids_.emplace(std::move(fork), static_cast<ForkId>(dwa_.forks_.size()));
    if (!inserted) return at->second;
    if (dwa_.forks_.size() >= options_.max_forks) fail_fork_limit(at->first, origin, token);
    dwa_.forks_.push_back(at->first);
    dwa_.origin_fork_.push_back(origin);
    dwa_.origin_token_.push_back(token);
    dwa_.roots_.push_back(0);
    dwa_.alive_.push_back(TokenSetPool::empty());
    return at->second;
  }

  [[noreturn]] void fail_fork_limit(const LexerFork& fork, ForkId origin, TokenId token) const {
    std::vector<TokenId> path = dwa_.example_path(origin);
    path.push_back(token);
    std::string tokens;
    for (const TokenId t : path) {
      tokens +=
          fmt::format("{}{} {}", tokens.empty() ? "" : ", ", t, escape_bytes(trie_.bytes_of(t)));
    }
    std::string viable;
    for (const uint32_t t : dfa_.viable_terminals(fork.state)) {
      viable += (viable.empty() ? "" : "|") + dfa_.terminals()[t].name;
    }
    throw Error(
        fmt::format(
            "Terminal DWA: the lexer's configurations between tokens do not close within {} forks "
            "(limit Limits::max_terminal_dwa_forks); e.g. the "
            "fork {} (a lexeme that could still become {}) is reached from the start by the "
            "tokens {}",
            options_.max_forks, describe_fork(fork), viable.empty() ? "nothing" : viable, tokens),
        ErrorCode::kLimit);
  }

  uint32_t sequence_child(uint32_t sequence, LabelId label) {
    const auto [child, inserted] =
        sequence_children_.find_or_insert((uint64_t{sequence} << 32) | label, sequence_count_);
    if (inserted) {
      ++sequence_count_;
      sequence_emitted_.push_back(0);
    }
    return child;
  }

  void merge(ForkId fork, AssembledFork& assembled) {
    TerminalDwaStats& stats = dwa_.stats_;
    const LabelTrie& trie = assembled.trie;
    // Weights per local node, ascending end fork.
    const size_t nodes = trie.parent.size();
    std::vector<uint32_t> weight_begin(nodes + 1, 0);
    for (const AssembledFork::Group& group : assembled.groups) ++weight_begin[group.node + 1];
    for (size_t n = 0; n < nodes; ++n) weight_begin[n + 1] += weight_begin[n];
    std::vector<DwaWeight> weights(assembled.groups.size());
    {
      std::vector<uint32_t> cursor(weight_begin.begin(), weight_begin.end() - 1);
      for (const AssembledFork::Group& group : assembled.groups) {
        TokenSetId tokens = assembled.inputs[group.inputs_begin];
        for (uint32_t i = group.inputs_begin + 1; i < group.inputs_end; ++i) {
          tokens = pool_.unite(tokens, assembled.inputs[i]);
        }
        stats.token_alternatives += pool_.cardinality(tokens);
        weights[cursor[group.node]++] = {group.end, tokens};
      }
    }
    // Children per local node, ascending label.
    std::vector<uint32_t> edge_begin(nodes + 1, 0);
    for (size_t n = 1; n < nodes; ++n) ++edge_begin[trie.parent[n] + 1];
    for (size_t n = 0; n < nodes; ++n) edge_begin[n + 1] += edge_begin[n];
    std::vector<uint32_t> children(nodes > 0 ? nodes - 1 : 0);
    {
      std::vector<uint32_t> cursor(edge_begin.begin(), edge_begin.end() - 1);
      for (size_t n = 1; n < nodes; ++n)
        children[cursor[trie.parent[n]]++] = static_cast<uint32_t>(n);
    }

    // Hash-cons bottom up: a child always has a larger local id than its parent.
    std::vector<DwaNodeId> global(nodes);
    std::vector<uint32_t> signature;
    for (size_t n = nodes; n-- > 0;) {
      auto mine =
          std::span(weights).subspan(weight_begin[n], weight_begin[n + 1] - weight_begin[n]);
      std::sort(mine.begin(), mine.end(), [](const DwaWeight& a, const DwaWeight& b) {
        return a.end != b.end ? a.end < b.end : a.tokens < b.tokens;
      });
      std::vector<DwaEdge> edges;
      for (uint32_t i = edge_begin[n]; i < edge_begin[n + 1]; ++i) {
        edges.push_back({trie.label[children[i]], global[children[i]]});
      }
      std::sort(edges.begin(), edges.end(),
                [](const DwaEdge& a, const DwaEdge& b) { return a.label < b.label; });
      signature.clear();
      signature.push_back(static_cast<uint32_t>(mine.size()));
      for (const DwaWeight& w : mine) signature.insert(signature.end(), {w.end, w.tokens.value()});
      for (const DwaEdge& e : edges) signature.insert(signature.end(), {e.label, e.child});
      global[n] = intern_node(signature, mine, edges);
    }
    dwa_.roots_[fork] = global[0];

    // Statistics over label sequences, shared between forks through one global sequence trie.
    std::vector<uint32_t> sequence(nodes, 0), depth(nodes, 0);
    for (size_t n = 1; n < nodes; ++n) {
      sequence[n] = sequence_child(sequence[trie.parent[n]], trie.label[n]);
      depth[n] = depth[trie.parent[n]] + 1;
    }
    for (size_t n = 0; n < nodes; ++n) {
      for (uint32_t i = weight_begin[n]; i < weight_begin[n + 1]; ++i) {
        sequence_emitted_[sequence[n]] = 1;
        sequence_ends_.insert((uint64_t{sequence[n]} << 32) | weights[i].end);
        if (depth[n] > stats.longest_sequence) {
          stats.longest_sequence = depth[n];
          stats.longest_sequence_token = pool_.get(weights[i].tokens).minimum();
          stats.longest_sequence_fork = fork;
        }
      }
    }
    stats.trie_nodes += nodes;
    stats.dead_pairs += trie_.tokens().size() - assembled.alive.cardinality();
    dwa_.alive_[fork] = pool_.intern(std::move(assembled.alive));
  }

  DwaNodeId intern_node(const std::vector<uint32_t>& signature, std::span<const DwaWeight> weights,
                        std::span<const DwaEdge> edges) {
    const auto [at, inserted] =
        node_ids_.emplace(signature, static_cast<DwaNodeId>(dwa_.edge_begin_.size() - 1));
    if (inserted) {
      dwa_.edges_.insert(dwa_.edges_.end(), edges.begin(), edges.end());
      dwa_.edge_begin_.push_back(static_cast<uint32_t>(dwa_.edges_.size()));
      dwa_.weights_.insert(dwa_.weights_.end(), weights.begin(), weights.end());
      dwa_.weight_begin_.push_back(static_cast<uint32_t>(dwa_.weights_.size()));
    }
    return at->second;
  }

  ForkPosition position_of(const LexerFork& fork) const {
    if (fork.state == dfa_.start_state()) return ForkPosition::kBoundary;
    const auto viable = dfa_.viable_terminals(fork.state);
    if (std::all_of(viable.begin(), viable.end(),
                    [&](uint32_t t) { return dfa_.terminals()[t].ignored; })) {
      return ForkPosition::kInsideIgnored;
    }
    return dfa_.label(fork.state) != LexerDfa::kNoLabel || dfa_.is_tentative(fork.state)
               ? ForkPosition::kExtendableMatch
               : ForkPosition::kInsideTerminal;
  }

  void finish() {
    TerminalDwaStats& stats = dwa_.stats_;
    NextTerminalsResult next = fork_next_terminals(dfa_, dwa_.forks_);
    for (const std::vector<uint32_t>& terminals : next.terminals) {
      dwa_.next_terminals_.insert(dwa_.next_terminals_.end(), terminals.begin(), terminals.end());
      dwa_.next_begin_.push_back(static_cast<uint32_t>(dwa_.next_terminals_.size()));
    }
    stats.product_states = next.product_states;

    for (const LexerFork& fork : dwa_.forks_) {
      const ForkPosition position = position_of(fork);
      dwa_.positions_.push_back(position);
      stats.forks_at_boundary += position == ForkPosition::kBoundary;
      stats.forks_inside_terminal += position == ForkPosition::kInsideTerminal;
      stats.forks_at_extendable_match += position == ForkPosition::kExtendableMatch;
      stats.forks_inside_ignored += position == ForkPosition::kInsideIgnored;
      stats.forks_inhibited += !fork.inhibitors.empty();
    }

    // GreatGramma's realizable sequences T1..Tk T: an emitted sequence followed by a terminal
    // its end fork can still produce.
    const size_t words = (dfa_.terminals().size() + 63) / 64;
    std::vector<uint64_t> followers(size_t{sequence_count_} * words, 0);
    for (const uint64_t pair : sequence_ends_) {
      uint64_t* bits = &followers[(pair >> 32) * words];
      for (const uint32_t t : dwa_.next_terminals(static_cast<ForkId>(pair & 0xffffffffu))) {
        bits[t / 64] |= uint64_t{1} << (t % 64);
      }
    }
    for (const uint64_t word : followers) stats.realizable_sequences += std::popcount(word);
    stats.label_sequences =
        static_cast<size_t>(std::count(sequence_emitted_.begin(), sequence_emitted_.end(), 1));

    std::vector<TokenSetId> sets;
    for (const DwaWeight& weight : dwa_.weights_) sets.push_back(weight.tokens);
    std::sort(sets.begin(), sets.end());
    stats.distinct_weights =
        static_cast<size_t>(std::unique(sets.begin(), sets.end()) - sets.begin());
    stats.vocabulary_tokens = trie_.tokens().size();
    stats.vocabulary_trie_nodes = trie_.num_nodes();
    stats.forks = dwa_.forks_.size();
    stats.nodes = dwa_.num_nodes();
    stats.edges = dwa_.edges_.size();
    stats.weights = dwa_.weights_.size();
  }

  const LexerDfa& dfa_;
  const VocabularyTrie& trie_;
  TokenSetPool& pool_;
  TerminalDwaOptions options_;
  TerminalDwa dwa_;
  std::unordered_map<std::vector<uint32_t>, DwaNodeId, VectorHash> node_ids_;
  FlatU64Map sequence_children_;
  uint32_t sequence_count_ = 1;  // sequence 0: the empty one
  std::vector<uint8_t> sequence_emitted_ = {0};
  std::unordered_set<uint64_t> sequence_ends_;
  std::optional<LexemeScan> scan_;  // with indent labels
  std::unordered_map<PieceKey, uint32_t, PieceKeyHash> piece_ids_;
  std::vector<SubtriePiece> pieces_;
};

TerminalDwa build_terminal_dwa(const LexerDfa& dfa, const VocabularyTrie& vocabulary,
                               TokenSetPool& pool, const TerminalDwaOptions& options) {
  return TerminalDwaBuilder(dfa, vocabulary, pool, options).build();
}

}  // namespace glrmask::lexer
