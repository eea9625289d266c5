// Strongly connected components of a Relation (Boost's Tarjan). Used to find the loops of the
// derivation relations that make LR reductions repeat without consuming input
// (unbounded_reductions.h) and the unit-rule cycles the normalization merges.
#pragma once

#include <cstdint>
#include <vector>

#include "glr/relation_closure.h"

namespace glrmask::glr {

// Component id per node, dense from 0.
std::vector<std::uint32_t> strong_components(const Relation& relation);

}  // namespace glrmask::glr
