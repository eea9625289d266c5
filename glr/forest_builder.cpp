#include "glr/forest_builder.h"

#include <fmt/format.h>

#include "lib/core/error.h"

namespace glrmask::glr {

std::uint32_t ForestBuilder::node_position(const GssNode* node) const {
  auto it = node_position_.find(node);
  if (it == node_position_.end())
    throw Error("internal error: a GSS node without a position in the forest builder",
                ErrorCode::kInternal);
  return it->second;
}

ForestNodeId ForestBuilder::label(const GssNode* above, const GssNode* below) const {
  auto it = labels_.find({above, below});
  if (it == labels_.end()) {
    throw Error(fmt::format("internal error: GSS edge from state {} to state {} has no forest "
                            "label (heads not built by the forest-building parser calls)",
                            above->state(), below->state()),
                ErrorCode::kInternal);
  }
  return it->second;
}

void ForestBuilder::copy_labels(const GssNode* copy, const GssNode* original) {
  for (const GssNode* below : original->below()) set_label(copy, below, label(original, below));
}

}  // namespace glrmask::glr
