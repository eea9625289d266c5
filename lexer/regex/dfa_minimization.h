// Hopcroft's partition refinement for a complete DFA over a small alphabet (byte classes).
#pragma once

#include <cstdint>
#include <vector>

namespace glrmask::lexer {

// `next[s * num_classes + c]` is the successor of state s on class c; `initial_block[s]` is the
// partition to refine (states in different initial blocks are never merged — the lexer puts its
// accept labels there). Returns the block of every state in the coarsest stable refinement;
// `num_blocks` receives the number of blocks.
std::vector<uint32_t> minimize_dfa(const std::vector<uint32_t>& next, uint32_t num_states,
                                   uint32_t num_classes, const std::vector<uint32_t>& initial_block,
                                   uint32_t& num_blocks);

}  // namespace glrmask::lexer
