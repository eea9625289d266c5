#include "glr/gss.h"

#include <algorithm>

#include "lib/core/check.h"
#include "lib/core/hash_mix.h"

namespace glrmask::glr {

std::uint64_t GssBlock::next_serial() {
  // Each thread takes serials in chunks from one 64-bit counter, so threads seldom touch it and
  // it never wraps, however many threads come and go.
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 16;
  static std::atomic<std::uint64_t> chunks{0};
  thread_local std::uint64_t next = 0;
  thread_local std::uint64_t end = 0;
  if (next == end) {
    next = chunks.fetch_add(kChunk, std::memory_order_relaxed);
    end = next + kChunk;
  }
  return next++;
}

GssNode* GssBlock::add_node(StateId state) {
  nodes_.push_back(std::unique_ptr<GssNode>(new GssNode(state, this)));
  return nodes_.back().get();
}

std::uint64_t GssBlock::EdgeInfo::hash(const Edge& edge) {
  return fmix64(reinterpret_cast<std::uintptr_t>(edge.above) * 0x9E3779B97F4A7C15ull ^
                reinterpret_cast<std::uintptr_t>(edge.below));
}

std::uint64_t GssBlock::BlockInfo::hash(const GssBlock* block) {
  return fmix64(reinterpret_cast<std::uintptr_t>(block));
}

namespace {
// Up to this many entries a linear scan is cheaper than a hash look-up.
constexpr std::size_t kScanLimit = 16;
}  // namespace

bool GssBlock::add_edge(GssNode* above, const GssNode* below) {
  GLRMASK_DCHECK(contains(above), "an edge is added by the block of its upper node only");
  GLRMASK_DCHECK(below != nullptr);
  if (!above->edges_indexed_ && above->below_.size() < kScanLimit) {
    if (std::find(above->below_.begin(), above->below_.end(), below) != above->below_.end())
      return false;
  } else {
    if (index_ == nullptr) index_ = std::make_unique<Index>();
    if (!above->edges_indexed_) {
      for (const GssNode* existing : above->below_) index_->edges.insert({above, existing});
      above->edges_indexed_ = true;
    }
    if (!index_->edges.insert({above, below})) return false;
  }
  above->below_.push_back(below);
  const GssBlock* target = &below->block();
  if (target == this) return true;
  if (referenced_.size() < kScanLimit) {
    if (std::none_of(referenced_.begin(), referenced_.end(),
                     [&](const GssBlockRef& block) { return block.get() == target; })) {
      referenced_.emplace_back(target);
    }
    return true;
  }
  if (index_ == nullptr) index_ = std::make_unique<Index>();
  if (index_->referenced.empty()) {
    for (const GssBlockRef& block : referenced_) index_->referenced.insert(block.get());
  }
  if (index_->referenced.insert(target)) referenced_.emplace_back(target);
  return true;
}

void intrusive_ptr_add_ref(const GssBlock* block) noexcept {
  block->references_.fetch_add(1, std::memory_order_relaxed);
}

void intrusive_ptr_release(const GssBlock* block) noexcept {
  const std::uint32_t before = block->references_.fetch_sub(1, std::memory_order_acq_rel);
  GLRMASK_DCHECK(before > 0, "a GSS block released more often than it was referenced");
  if (before != 1) return;
  // The block is dead. Its references to earlier blocks are dropped by hand, so that a chain of
  // blocks as long as the output is freed in a loop instead of by recursion.
  const GssBlock* dying = block;
  while (dying != nullptr) {
    const GssBlock* current = dying;
    dying = current->next_dying_;
    for (const GssBlockRef& referenced : current->referenced_) {
      const GssBlock* earlier = referenced.get();
      const std::uint32_t left = earlier->references_.fetch_sub(1, std::memory_order_acq_rel);
      GLRMASK_DCHECK(left > 0, "a GSS block released more often than it was referenced");
      if (left == 1) {
        earlier->next_dying_ = dying;
        dying = earlier;
      }
    }
    // The counts were already dropped above: detach so the destructor does not drop them again.
    auto& referenced = const_cast<GssBlock*>(current)->referenced_;
    for (GssBlockRef& reference : referenced) reference.detach();
    delete current;
  }
}

bool are_canonical_heads(std::span<const GssNodeRef> heads) {
  for (std::size_t i = 0; i < heads.size(); ++i) {
    if (!heads[i]) return false;
    if (i > 0 && heads[i - 1]->state() >= heads[i]->state()) return false;
  }
  return true;
}

}  // namespace glrmask::glr
