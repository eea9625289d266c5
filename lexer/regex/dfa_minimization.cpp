#include "lexer/regex/dfa_minimization.h"

#include <algorithm>
#include <utility>

namespace glrmask::lexer {
namespace {

// States of a block occupy elements_[begin, end); the first `marked` of them are marked as
// predecessors of the current splitter.
struct Block {
  uint32_t begin;
  uint32_t end;
  uint32_t marked;
  uint32_t size() const { return end - begin; }
};

class Refinement {
 public:
  Refinement(const std::vector<uint32_t>& next, uint32_t num_states, uint32_t num_classes,
             const std::vector<uint32_t>& initial_block)
      : num_states_(num_states), num_classes_(num_classes) {
    build_inverse(next);
    build_initial_partition(initial_block);
  }

  std::vector<uint32_t> run(uint32_t& num_blocks) {
    std::vector<uint32_t> splitter;
    std::vector<uint32_t> touched;
    while (!worklist_.empty()) {
      const auto [block, c] = worklist_.back();
      worklist_.pop_back();
      in_worklist_[size_t{block} * num_classes_ + c] = 0;
      splitter.assign(elements_.begin() + blocks_[block].begin,
                      elements_.begin() + blocks_[block].end);
      touched.clear();
      for (uint32_t target : splitter) {
        const size_t slot = size_t{c} * (num_states_ + 1) + target;
        for (uint32_t i = inverse_begin_[slot]; i < inverse_begin_[slot + 1]; ++i) {
          mark(inverse_[i], touched);
        }
      }
      for (uint32_t y : touched) split(y);
    }
    num_blocks = static_cast<uint32_t>(blocks_.size());
    return block_of_;
  }

 private:
  void build_inverse(const std::vector<uint32_t>& next) {
    // Predecessors grouped by (class, target): CSR with num_states + 1 slots per class.
    inverse_begin_.assign(size_t{num_classes_} * (num_states_ + 1) + 1, 0);
    for (uint32_t s = 0; s < num_states_; ++s) {
      for (uint32_t c = 0; c < num_classes_; ++c) {
        ++inverse_begin_[size_t{c} * (num_states_ + 1) + next[size_t{s} * num_classes_ + c] + 1];
      }
    }
    for (size_t i = 1; i < inverse_begin_.size(); ++i) inverse_begin_[i] += inverse_begin_[i - 1];
    inverse_.resize(size_t{num_states_} * num_classes_);
    std::vector<uint32_t> fill(inverse_begin_.begin(), inverse_begin_.end() - 1);
    for (uint32_t s = 0; s < num_states_; ++s) {
      for (uint32_t c = 0; c < num_classes_; ++c) {
        inverse_[fill[size_t{c} * (num_states_ + 1) + next[size_t{s} * num_classes_ + c]]++] = s;
      }
    }
  }

  void build_initial_partition(const std::vector<uint32_t>& initial_block) {
    std::vector<uint32_t> order(num_states_);
    for (uint32_t s = 0; s < num_states_; ++s) order[s] = s;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return initial_block[a] < initial_block[b]; });
    elements_ = order;
    location_.resize(num_states_);
    block_of_.resize(num_states_);
    for (uint32_t i = 0; i < num_states_; ++i) {
      const uint32_t s = elements_[i];
      location_[s] = i;
      if (i == 0 || initial_block[s] != initial_block[elements_[i - 1]]) {
        blocks_.push_back({i, i, 0});
      }
      blocks_.back().end = i + 1;
      block_of_[s] = static_cast<uint32_t>(blocks_.size() - 1);
    }
    // A block can have at most one state per block ever created, so num_states bounds them all.
    in_worklist_.assign(size_t{num_states_} * num_classes_, 0);
    // Every block but the largest is a splitter: a partition stable under all the other blocks
    // is stable under the last one too (a state moves into it exactly when it moves into none of
    // the others), as in Hopcroft's two-block start. The largest is the one to leave out, since
    // splitting by a block marks all its predecessors; here it is the block of the states inside
    // lexemes, which holds nearly every state of a schema's lexer.
    uint32_t largest = 0;
    for (uint32_t b = 1; b < blocks_.size(); ++b)
      if (blocks_[b].size() > blocks_[largest].size()) largest = b;
    for (uint32_t b = 0; b < blocks_.size(); ++b) {
      if (b == largest) continue;
      for (uint32_t c = 0; c < num_classes_; ++c) push(b, c);
    }
  }

  // A splitter no state moves into on `c` marks nothing, and neither does any part of it later,
  // so it is left out: in a lexer most states are entered on a few classes only, and the
  // (block, class) pairs, not the marks, were most of the refinement's work.
  void push(uint32_t block, uint32_t c) {
    if (!entered_on(block, c)) return;
    in_worklist_[size_t{block} * num_classes_ + c] = 1;
    worklist_.emplace_back(block, c);
  }

  bool entered_on(uint32_t block, uint32_t c) const {
    const size_t base = size_t{c} * (num_states_ + 1);
    for (uint32_t i = blocks_[block].begin; i < blocks_[block].end; ++i) {
      const size_t slot = base + elements_[i];
      if (inverse_begin_[slot] != inverse_begin_[slot + 1]) return true;
    }
    return false;
  }

  void mark(uint32_t state, std::vector<uint32_t>& touched) {
    const uint32_t y = block_of_[state];
    Block& block = blocks_[y];
    const uint32_t boundary = block.begin + block.marked;
    if (location_[state] < boundary) return;  // already marked
    const uint32_t other = elements_[boundary];
    std::swap(elements_[boundary], elements_[location_[state]]);
    location_[other] = location_[state];
    location_[state] = boundary;
    if (block.marked++ == 0) touched.push_back(y);
  }

  void split(uint32_t y) {
    const uint32_t marked = blocks_[y].marked;
    blocks_[y].marked = 0;
    if (marked == blocks_[y].size()) return;
    const uint32_t z = static_cast<uint32_t>(blocks_.size());
    blocks_.push_back({blocks_[y].begin, blocks_[y].begin + marked, 0});
    blocks_[y].begin += marked;
    for (uint32_t i = blocks_[z].begin; i < blocks_[z].end; ++i) block_of_[elements_[i]] = z;
    const uint32_t smaller = blocks_[z].size() <= blocks_[y].size() ? z : y;
    for (uint32_t c = 0; c < num_classes_; ++c) {
      push(in_worklist_[size_t{y} * num_classes_ + c] ? z : smaller, c);
    }
  }

  uint32_t num_states_;
  uint32_t num_classes_;
  std::vector<uint32_t> inverse_begin_;
  std::vector<uint32_t> inverse_;
  std::vector<uint32_t> elements_;
  std::vector<uint32_t> location_;
  std::vector<uint32_t> block_of_;
  std::vector<Block> blocks_;
  std::vector<uint8_t> in_worklist_;  // bytes, not bits: it is read and written per pair
  std::vector<std::pair<uint32_t, uint32_t>> worklist_;
};

}  // namespace

std::vector<uint32_t> minimize_dfa(const std::vector<uint32_t>& next, uint32_t num_states,
                                   uint32_t num_classes, const std::vector<uint32_t>& initial_block,
                                   uint32_t& num_blocks) {
  if (num_states == 0) {
    num_blocks = 0;
    return {};
  }
  return Refinement(next, num_states, num_classes, initial_block).run(num_blocks);
}

}  // namespace glrmask::lexer
