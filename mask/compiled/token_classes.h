// Token equivalence classes (CFGzip, paper 002): the tokens that no weight of a compiled automaton
// ever tells apart. Two tokens share a class iff every given set contains both or neither.
//
// Over the Parser DWA's transition weights (mask_classes()) this is what makes a class safe to
// collapse: the wfa engine's get_mask is a union of transition weights (wfa_engine.h), so tokens
// of one class get the same bit in every mask. It may be finer than "same bit in every mask":
// a weight that separates two tokens may never be taken without another weight that holds the
// other one, and a weight may sit on a path no real stack takes. It is not a congruence: two
// tokens of one class get the same bit now but may lead to different futures (an identifier
// letter and a keyword's first letter), so a class representative cannot be committed in place
// of the sampled token.
//
// Over the Terminal DWA's weights (lexer_classes()) tokens of one class emit the same labels and
// end in the same lexer fork from every fork, so they are interchangeable for commit as well:
// a computable refinement of syntactic congruence, like CFGzip's displacement classes.
//
// Computation, linear in the summed set sizes: every token gets a 64-bit signature, the XOR of
// a per-set random value over the sets containing it; tokens are grouped by signature; then an
// exact pass re-reads every set and splits any group a set cuts (a signature collision), so the
// result is exact whatever the hash does. A set larger than half the universe is read as its
// complement: XOR-ing the set's value into the non-members instead shifts every signature by the
// same constant, and cutting a group by a set or by its complement is the same cut. Both passes
// run on TBB threads: XOR does not care in which order the sets are folded, and refining the
// classes never makes a set that cuts none of them cut one, so only the sets found cutting (none,
// unless signatures collided) are split, in order. The result does not depend on the threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/token_set/token_set.h"

namespace glrmask::lexer {
class TerminalDwa;
}

namespace glrmask::mask {

class CompiledMask;
class ParserDwa;

// A partition of the token ids [0, universe) into classes. Classes are numbered in the order of
// their smallest token id; members of a class are ascending.
class TokenPartition {
 public:
  std::size_t universe() const { return class_of_.size(); }
  std::size_t num_classes() const { return class_begin_.size() - 1; }
  std::uint32_t class_of(TokenId token) const { return class_of_[token]; }
  std::span<const TokenId> members(std::uint32_t cls) const {
    return {members_.data() + class_begin_[cls], members_.data() + class_begin_[cls + 1]};
  }
  std::size_t class_size(std::uint32_t cls) const {
    return class_begin_[cls + 1] - class_begin_[cls];
  }

  // Groups of equal signature that the exact pass had to split (0 unless the hash collided).
  std::size_t signature_collisions() const { return signature_collisions_; }

 private:
  friend class TokenPartitionBuilder;
  std::vector<std::uint32_t> class_of_;        // per token id
  std::vector<std::uint32_t> class_begin_{0};  // per class, into members_
  std::vector<TokenId> members_;               // grouped by class
  std::size_t signature_collisions_ = 0;
};

// The per-set value folded into the signatures. Replaceable so tests can force collisions.
using SetSignature = std::uint64_t (*)(std::uint32_t set_index);
std::uint64_t random_set_signature(std::uint32_t set_index);

// The classes of [0, universe) that no set separates. Every id in the sets must be < universe
// (glrmask::Error naming the set and the id otherwise).
TokenPartition partition_tokens(std::uint32_t universe, std::span<const RoaringBitmap* const> sets,
                                SetSignature signature = &random_set_signature);
// The same for interned sets of `pool` (universe = pool.universe_size()).
TokenPartition partition_tokens(const TokenSetPool& pool, std::span<const TokenSetId> sets,
                                SetSignature signature = &random_set_signature);

// The distinct non-empty transition weights of the Parser DWA, ascending: the sets every wfa
// mask is a union of.
std::vector<TokenSetId> mask_weights(const ParserDwa& dwa);
// The weights of branches a walk unites into masks (with an indenter; deferred ones left out).
std::vector<TokenSetId> branch_mask_weights(const ParserDwa& dwa);
// The distinct non-empty weights of the Terminal DWA's nodes, ascending (the lexer's view: which
// label sequences a token emits from each fork and where it ends). EOS is in none of them; it
// emits end-of-input, which no byte token does.
std::vector<TokenSetId> lexer_weights(const lexer::TerminalDwa& dwa);

// The classes no mask of the wfa engine can tell apart: over mask_weights().
TokenPartition mask_classes(const CompiledMask& compiled);
// The lexer's classes: over lexer_weights(), with `eos` (when given) in a class of its own.
TokenPartition lexer_classes(const CompiledMask& compiled, std::optional<TokenId> eos);

// Whether every class of `finer` lies inside one class of `coarser` (same universe).
bool refines(const TokenPartition& finer, const TokenPartition& coarser);

}  // namespace glrmask::mask
