#include "glr/gss.h"

#include <algorithm>

namespace glrmask::glr {

GssNode* GssBlock::add_node(StateId state) {
  nodes_.push_back(std::unique_ptr<GssNode>(new GssNode(state, this)));
  return nodes_.back().get();
}

bool GssBlock::add_edge(GssNode* above, const GssNode* below) {
  if (std::find(above->below_.begin(), above->below_.end(), below) != above->below_.end())
    return false;
  above->below_.push_back(below);
  const GssBlock* target = &below->block();
  if (target != this &&
      std::none_of(referenced_.begin(), referenced_.end(),
                   [&](const GssBlockRef& block) { return block.get() == target; })) {
    referenced_.emplace_back(target);
  }
  return true;
}

void intrusive_ptr_add_ref(const GssBlock* block) noexcept {
  block->references_.fetch_add(1, std::memory_order_relaxed);
}

void intrusive_ptr_release(const GssBlock* block) noexcept {
  if (block->references_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // The block is dead. Its references to earlier blocks are dropped by hand, so that a chain of
  // blocks as long as the output is freed in a loop instead of by recursion.
  const GssBlock* dying = block;
  while (dying != nullptr) {
    const GssBlock* current = dying;
    dying = current->next_dying_;
    for (const GssBlockRef& referenced : current->referenced_) {
      const GssBlock* earlier = referenced.get();
      if (earlier->references_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
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

}  // namespace glrmask::glr
