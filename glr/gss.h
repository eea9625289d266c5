// The graph-structured stack (GSS) of the GLR parser. A node is an LR state; its edges point to the
// nodes that can sit directly below it. A set of parser stacks is then a small set of head nodes,
// and every stack is a path from a head down to the start state.
//
// Ownership is per *block*: all nodes created by one parser step (its reductions and its shifts)
// live in one reference-counted GssBlock. Edges are plain pointers; an edge into an earlier block
// makes the block hold a reference to that block. Why blocks and not one count per node: with
// ε-rules and hidden left recursion a step can create cycles (a node below itself), which per-node
// counts would leak, while blocks only ever point to earlier blocks. Blocks are immutable once the
// step that built them returns, so a set of heads is a cheap value (a few counted pointers),
// sharing everything below, and any number of threads can read the same GSS.
#pragma once

#include <atomic>
#include <boost/container/small_vector.hpp>
#include <boost/intrusive_ptr.hpp>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "glr/ids.h"
#include "lib/core/flat_map.h"

namespace glrmask::glr {

class GssBlock;

class GssNode {
 public:
  StateId state() const { return state_; }
  // The nodes directly below, in insertion order. May include the node itself or nodes above it
  // within the same block (stacks grown by ε-reductions at one input position).
  std::span<const GssNode* const> below() const { return {below_.data(), below_.size()}; }
  const GssBlock& block() const { return *block_; }

 private:
  friend class GssBlock;
  GssNode(StateId state, const GssBlock* block) : state_(state), block_(block) {}

  StateId state_;
  // Whether the block's edge index holds this node's edges (it has more than a few).
  bool edges_indexed_ = false;
  const GssBlock* block_;
  boost::container::small_vector<const GssNode*, 2> below_;
};

class GssBlock {
 public:
  GssBlock() = default;
  GssBlock(const GssBlock&) = delete;
  GssBlock& operator=(const GssBlock&) = delete;

  // Building (only by the step that owns the block, before any head refers to it).
  GssNode* add_node(StateId state);
  // Adds the edge `above` -> `below` unless it exists; returns whether it was added. `above`
  // must belong to this block. Constant time on average, however many edges `above` has: a node
  // can collect an edge per earlier position (all n reductions of a right-recursive list land on
  // one node at the end of the text), and a scan per edge made that level cost n^2.
  bool add_edge(GssNode* above, const GssNode* below);

  bool contains(const GssNode* node) const { return &node->block() == this; }
  std::size_t num_nodes() const { return nodes_.size(); }
  // A number no other block of the process had or will have. Blocks are freed and their memory
  // reused, so a cache keyed by a node's address also keys by its block's serial: the walk's
  // stack summaries (mask/cache/stack_summaries.h) outlive the nodes they describe.
  std::uint64_t serial() const { return serial_; }

 private:
  friend void intrusive_ptr_add_ref(const GssBlock* block) noexcept;
  friend void intrusive_ptr_release(const GssBlock* block) noexcept;

  static std::uint64_t next_serial();

  mutable std::atomic<std::uint32_t> references_{0};
  const std::uint64_t serial_ = next_serial();
  std::vector<std::unique_ptr<GssNode>> nodes_;
  // Earlier blocks this block's edges point into, each once.
  std::vector<boost::intrusive_ptr<const GssBlock>> referenced_;
  // Above a few entries, the edges of the nodes that have many, and the referenced blocks, are
  // also hashed so that add_edge need not scan them. Made on first need: most blocks never do.
  // FlatSets of the project's hash-table family (lib/core/flat_map.h); no null pointer is stored,
  // so null marks a vacant slot.
  struct Edge {
    const GssNode* above;
    const GssNode* below;
    friend bool operator==(const Edge&, const Edge&) = default;
  };
  struct EdgeInfo {
    static constexpr Edge empty() { return {nullptr, nullptr}; }
    static std::uint64_t hash(const Edge& edge);
  };
  struct BlockInfo {
    static constexpr const GssBlock* empty() { return nullptr; }
    static std::uint64_t hash(const GssBlock* block);
  };
  struct Index {
    FlatSet<Edge, EdgeInfo> edges;
    FlatSet<const GssBlock*, BlockInfo> referenced;
  };
  std::unique_ptr<Index> index_;
  // Intrusive list of blocks being destroyed, so releasing a long chain needs no recursion.
  mutable const GssBlock* next_dying_ = nullptr;
};

void intrusive_ptr_add_ref(const GssBlock* block) noexcept;
// Frees the block when the count drops to zero, and then, iteratively, every earlier block that
// only it kept alive.
void intrusive_ptr_release(const GssBlock* block) noexcept;

using GssBlockRef = boost::intrusive_ptr<const GssBlock>;

// A counted pointer to a node: keeps the node's block, and so everything below it, alive.
class GssNodeRef {
 public:
  GssNodeRef() = default;
  explicit GssNodeRef(const GssNode* node) : node_(node) {
    if (node_ != nullptr) intrusive_ptr_add_ref(&node_->block());
  }
  GssNodeRef(const GssNodeRef& other) : GssNodeRef(other.node_) {}
  GssNodeRef(GssNodeRef&& other) noexcept : node_(other.node_) { other.node_ = nullptr; }
  GssNodeRef& operator=(GssNodeRef other) noexcept {
    std::swap(node_, other.node_);
    return *this;
  }
  ~GssNodeRef() {
    if (node_ != nullptr) intrusive_ptr_release(&node_->block());
  }

  const GssNode* get() const { return node_; }
  const GssNode* operator->() const { return node_; }
  const GssNode& operator*() const { return *node_; }
  explicit operator bool() const { return node_ != nullptr; }

 private:
  const GssNode* node_ = nullptr;
};

// The tops of all live parser stacks: distinct LR states, sorted by state.
using GssHeads = std::vector<GssNodeRef>;

// Whether `heads` are as GssHeads promise (for GLRMASK_DCHECK): non-null, states strictly
// ascending.
bool are_canonical_heads(std::span<const GssNodeRef> heads);

}  // namespace glrmask::glr
