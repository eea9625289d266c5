#include "lexer/runtime/fork_next_terminals.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "lexer/runtime/inhibitor_sets.h"
#include "lexer/runtime/lexer_fork.h"
#include "lib/core/flat_u64_map.h"

namespace glrmask::lexer {

namespace {

// The product graph: node = (DFA state, inhibitor set); edges = reading one byte without the
// fork's first visible emission (extending, or emitting ignored text); `emits` = the labels
// that can be emitted as the first visible one right at that step.
class ProductGraph {
 public:
  explicit ProductGraph(const LexerDfa& dfa) : dfa_(dfa), sets_(dfa), bytes_(dfa.byte_classes()) {}

  uint32_t node(uint32_t state, uint32_t set) {
    const auto [id, inserted] =
        index_.find_or_insert((uint64_t{set} << 32) | state, static_cast<uint32_t>(states_.size()));
    if (inserted) states_.push_back({state, set});
    return id;
  }
  uint32_t node(const LexerFork& fork) { return node(fork.state, sets_.intern(fork.inhibitors)); }

  // Explores every node reachable from the ones made so far.
  void explore() {
    edge_begin_ = {0};
    emit_begin_ = {0};
    for (uint32_t n = 0; n < states_.size(); ++n) {
      const auto [state, set] = states_[n];
      for (const uint8_t byte : bytes_) {
        const uint32_t next_set = sets_.step(set, byte);
        if (next_set == InhibitorSets::kFired) continue;
        const uint32_t next = dfa_.next(state, byte);
        if (next == LexerDfa::kDeadState) continue;
        const LabelId label =
            dfa_.label(next) != LexerDfa::kNoLabel ? dfa_.label(next) : dfa_.tentative_label(next);
        if (label == LexerDfa::kNoLabel || !dfa_.is_final(next)) {
          edges_.push_back(node(next, next_set));
        }
        if (label == LexerDfa::kNoLabel) continue;
        emits_.push_back(label);
        if (has_ignored_terminal(label)) {  // skip it and go on from a lexeme boundary
          edges_.push_back(
              node(dfa_.start_state(), dfa_.is_final(next)
                                           ? next_set
                                           : sets_.add(next_set, emission_inhibitor(dfa_, next))));
        }
      }
      std::sort(edges_.begin() + edge_begin_.back(), edges_.end());
      edges_.erase(std::unique(edges_.begin() + edge_begin_.back(), edges_.end()), edges_.end());
      std::sort(emits_.begin() + emit_begin_.back(), emits_.end());
      emits_.erase(std::unique(emits_.begin() + emit_begin_.back(), emits_.end()), emits_.end());
      edge_begin_.push_back(static_cast<uint32_t>(edges_.size()));
      emit_begin_.push_back(static_cast<uint32_t>(emits_.size()));
    }
  }

  uint32_t size() const { return static_cast<uint32_t>(states_.size()); }
  std::span<const uint32_t> successors(uint32_t n) const {
    return {edges_.data() + edge_begin_[n], edges_.data() + edge_begin_[n + 1]};
  }
  std::span<const LabelId> emits(uint32_t n) const {
    return {emits_.data() + emit_begin_[n], emits_.data() + emit_begin_[n + 1]};
  }

 private:
  bool has_ignored_terminal(LabelId label) const {
    for (const uint32_t t : dfa_.label_terminals(label)) {
      if (dfa_.terminals()[t].ignored) return true;
    }
    return false;
  }

  const LexerDfa& dfa_;
  InhibitorSets sets_;
  std::vector<uint8_t> bytes_;
  FlatU64Map index_;
  std::vector<std::pair<uint32_t, uint32_t>> states_;
  std::vector<uint32_t> edge_begin_, edges_;
  std::vector<uint32_t> emit_begin_;
  std::vector<LabelId> emits_;
};

// Tarjan's algorithm, iterative. Components come out sinks first, so when one is finished every
// component it reaches already has its terminal set.
std::vector<uint32_t> strongly_connected_components(const ProductGraph& graph,
                                                    uint32_t& component_count) {
  constexpr uint32_t kUnvisited = UINT32_MAX;
  const uint32_t n = graph.size();
  std::vector<uint32_t> index(n, kUnvisited), low(n), component(n, kUnvisited);
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t node, next_edge;
  };
  std::vector<Frame> frames;
  uint32_t counter = 0;
  component_count = 0;
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    frames.push_back({root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    while (!frames.empty()) {
      Frame& frame = frames.back();
      const auto successors = graph.successors(frame.node);
      if (frame.next_edge < successors.size()) {
        const uint32_t next = successors[frame.next_edge++];
        if (index[next] == kUnvisited) {
          index[next] = low[next] = counter++;
          stack.push_back(next);
          frames.push_back({next, 0});
        } else if (component[next] == kUnvisited) {
          low[frame.node] = std::min(low[frame.node], index[next]);
        }
        continue;
      }
      const uint32_t node = frame.node;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[node]);
      if (low[node] == index[node]) {
        uint32_t member;
        do {
          member = stack.back();
          stack.pop_back();
          component[member] = component_count;
        } while (member != node);
        ++component_count;
      }
    }
  }
  return component;
}

}  // namespace

NextTerminalsResult fork_next_terminals(const LexerDfa& dfa, std::span<const LexerFork> forks) {
  ProductGraph graph(dfa);
  std::vector<uint32_t> fork_nodes;
  fork_nodes.reserve(forks.size());
  for (const LexerFork& fork : forks) fork_nodes.push_back(graph.node(fork));
  graph.explore();

  uint32_t component_count = 0;
  const std::vector<uint32_t> component = strongly_connected_components(graph, component_count);
  std::vector<std::vector<uint32_t>> members(component_count);
  for (uint32_t node = 0; node < graph.size(); ++node) members[component[node]].push_back(node);

  // Terminal bit sets per component, filled in Tarjan's (sinks first) order.
  const size_t words = (dfa.terminals().size() + 63) / 64;
  std::vector<uint64_t> bits(size_t{component_count} * words, 0);
  for (uint32_t c = 0; c < component_count; ++c) {
    uint64_t* mine = &bits[c * words];
    for (const uint32_t node : members[c]) {
      for (const LabelId label : graph.emits(node)) {
        for (const uint32_t t : dfa.label_terminals(label)) {
          if (!dfa.terminals()[t].ignored) mine[t / 64] |= uint64_t{1} << (t % 64);
        }
      }
      for (const uint32_t next : graph.successors(node)) {
        if (component[next] == c) continue;
        const uint64_t* theirs = &bits[component[next] * words];
        for (size_t w = 0; w < words; ++w) mine[w] |= theirs[w];
      }
    }
  }

  NextTerminalsResult result;
  result.product_states = graph.size();
  for (const uint32_t node : fork_nodes) {
    std::vector<uint32_t>& terminals = result.terminals.emplace_back();
    const uint64_t* set = &bits[component[node] * words];
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t word = set[w]; word != 0; word &= word - 1) {
        terminals.push_back(static_cast<uint32_t>(w * 64 + std::countr_zero(word)));
      }
    }
  }
  return result;
}

}  // namespace glrmask::lexer
