#include "mask/compiled/token_classes.h"

#include <fmt/format.h>
#include <roaring/roaring.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "lexer/terminal_dwa/terminal_dwa.h"
#include "lib/core/error.h"
#include "lib/core/hash_mix.h"
#include "mask/compiled/compiled_mask.h"
#include "mask/parser_dwa/parser_dwa.h"

namespace glrmask::mask {

std::uint64_t random_set_signature(std::uint32_t set_index) {
  // SplitMix64: distinct inputs give well-spread, independent-looking 64-bit outputs.
  return splitmix64_mix(set_index + 0x9e3779b97f4a7c15ull);
}

namespace {

constexpr std::uint32_t kNoClass = 0xffffffffu;

// One set as the builder reads it: its ids, or the ids of its complement when those are fewer.
// Either side cuts the classes the same way (see the header).
// The complement is made when the set is read (into a reused scratch bitmap), not kept: kept
// complements of thousands of near-full sets would cost more memory than the sets themselves.
struct SetSide {
  const RoaringBitmap* set = nullptr;  // nullptr: the set is empty and cuts nothing
  bool complemented = false;

  bool empty() const { return set == nullptr; }
  const RoaringBitmap& ids(std::uint32_t universe, RoaringBitmap& scratch) const {
    if (!complemented) return *set;
    scratch = *set;
    scratch.flip(0, universe);
    return scratch;
  }
};

// Calls visit(id) for every id of the bitmap, ascending, reading it in blocks.
template <typename Visit>
void for_each_id(const RoaringBitmap& bitmap, Visit&& visit) {
  roaring_uint32_iterator_t it;
  roaring_init_iterator(&bitmap.roaring, &it);
  std::uint32_t block[256];
  for (;;) {
    const std::uint32_t n = roaring_read_uint32_iterator(&it, block, 256);
    if (n == 0) break;
    for (std::uint32_t i = 0; i < n; ++i) visit(block[i]);
  }
}

}  // namespace

class TokenPartitionBuilder {
 public:
  TokenPartitionBuilder(std::uint32_t universe, std::span<const RoaringBitmap* const> sets)
      : universe_(universe), sides_(sets.size()) {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const RoaringBitmap& set = *sets[i];
      if (set.isEmpty()) continue;
      if (set.maximum() >= universe) {
        throw Error(fmt::format("token classes: set {} holds token id {}, outside the {} ids", i,
                                set.maximum(), universe),
                    ErrorCode::kInvalidArgument);
      }
      const std::uint64_t size = set.cardinality();
      sides_[i].set = &set;
      sides_[i].complemented = size * 2 > universe;
    }
  }

  TokenPartition build(SetSignature signature) {
    group_by_signature(signature);
    split_cut_groups();
    return canonical();
  }

 private:
  // The signatures are XORs, so the sets can be folded in any order: each thread folds a share
  // of them into its own array and the arrays are XOR-ed together after.
  void group_by_signature(SetSignature signature) {
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> partial(
        [&] { return std::vector<std::uint64_t>(universe_, 0); });
    tbb::enumerable_thread_specific<RoaringBitmap> scratch;
    tbb::parallel_for(
        tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(sides_.size())),
        [&](const tbb::blocked_range<std::uint32_t>& range) {
          std::vector<std::uint64_t>& folded = partial.local();
          RoaringBitmap& complement = scratch.local();
          for (std::uint32_t i = range.begin(); i < range.end(); ++i) {
            if (sides_[i].empty()) continue;
            const std::uint64_t value = signature(i);
            for_each_id(sides_[i].ids(universe_, complement),
                        [&](std::uint32_t id) { folded[id] ^= value; });
          }
        });
    std::vector<std::uint64_t> folded(universe_, 0);
    for (const std::vector<std::uint64_t>& part : partial)
      for (std::uint32_t id = 0; id < universe_; ++id) folded[id] ^= part[id];
    std::vector<TokenId> order(universe_);
    std::iota(order.begin(), order.end(), TokenId{0});
    std::sort(order.begin(), order.end(), [&](TokenId a, TokenId b) {
      return folded[a] != folded[b] ? folded[a] < folded[b] : a < b;
    });
    class_of_.assign(universe_, 0);
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (k == 0 || folded[order[k]] != folded[order[k - 1]]) size_.push_back(0);
      class_of_[order[k]] = static_cast<std::uint32_t>(size_.size() - 1);
      ++size_.back();
    }
  }

  // Counts, per class, the members a set holds, to list the classes it cuts (holds some but not
  // all members of). One per thread; its arrays follow the number of classes.
  struct CutFinder {
    std::vector<std::uint32_t> stamp, hits, touched;
    RoaringBitmap complement;

    void fit(std::size_t classes) {
      stamp.resize(classes, 0);
      hits.resize(classes, 0);
    }
    void find(const TokenPartitionBuilder& builder, std::uint32_t i,
              std::vector<std::uint32_t>& cut) {
      touched.clear();
      for_each_id(builder.sides_[i].ids(builder.universe_, complement), [&](std::uint32_t id) {
        const std::uint32_t c = builder.class_of_[id];
        if (stamp[c] != i + 1) {
          stamp[c] = i + 1;
          hits[c] = 0;
          touched.push_back(c);
        }
        ++hits[c];
      });
      cut.clear();
      for (const std::uint32_t c : touched)
        if (hits[c] != builder.size_[c]) cut.push_back(c);
    }
  };

  // The exact pass: a set cuts a class when it holds some but not all of its members. Every set
  // is checked, in parallel, against the signature classes; only the sets that cut one (none
  // unless two signatures collided) are then read again, in order, to move their members of the
  // cut classes into new ones. Splitting only refines the classes, and a set that is a union of
  // classes stays one under any refinement, so the sets that passed need no second look.
  void split_cut_groups() {
    struct Checker {
      CutFinder finder;
      std::vector<std::uint32_t> cut, cutting;
    };
    const std::size_t classes = size_.size();
    tbb::enumerable_thread_specific<Checker> checkers([&] {
      Checker checker;
      checker.finder.fit(classes);
      return checker;
    });
    tbb::parallel_for(
        tbb::blocked_range<std::uint32_t>(0, static_cast<std::uint32_t>(sides_.size())),
        [&](const tbb::blocked_range<std::uint32_t>& range) {
          Checker& checker = checkers.local();
          for (std::uint32_t i = range.begin(); i < range.end(); ++i) {
            if (sides_[i].empty()) continue;
            checker.finder.find(*this, i, checker.cut);
            if (!checker.cut.empty()) checker.cutting.push_back(i);
          }
        });
    std::vector<std::uint32_t> cutting;
    for (const Checker& checker : checkers)
      cutting.insert(cutting.end(), checker.cutting.begin(), checker.cutting.end());
    std::sort(cutting.begin(), cutting.end());

    CutFinder finder;
    finder.fit(size_.size());
    std::vector<std::uint32_t> split_into(size_.size(), kNoClass);
    std::vector<std::uint32_t> cut;
    for (const std::uint32_t i : cutting) {
      finder.find(*this, i, cut);
      if (cut.empty()) continue;
      signature_collisions_ += cut.size();
      for (const std::uint32_t c : cut) {
        split_into[c] = static_cast<std::uint32_t>(size_.size());
        size_.push_back(0);
        split_into.push_back(kNoClass);
      }
      finder.fit(size_.size());
      for_each_id(sides_[i].ids(universe_, finder.complement), [&](std::uint32_t id) {
        const std::uint32_t c = class_of_[id];
        if (split_into[c] == kNoClass) return;
        class_of_[id] = split_into[c];
        --size_[c];
        ++size_[split_into[c]];
      });
      for (const std::uint32_t c : cut) split_into[c] = kNoClass;
    }
  }

  // Renumbers the classes by smallest member and lists the members class by class.
  TokenPartition canonical() {
    TokenPartition partition;
    std::vector<std::uint32_t> renumbered(size_.size(), kNoClass);
    std::uint32_t next = 0;
    partition.class_of_.resize(universe_);
    for (TokenId id = 0; id < universe_; ++id) {
      std::uint32_t& c = renumbered[class_of_[id]];
      if (c == kNoClass) c = next++;
      partition.class_of_[id] = c;
    }
    partition.class_begin_.assign(next + 1, 0);
    for (TokenId id = 0; id < universe_; ++id)
      ++partition.class_begin_[partition.class_of_[id] + 1];
    std::partial_sum(partition.class_begin_.begin(), partition.class_begin_.end(),
                     partition.class_begin_.begin());
    std::vector<std::uint32_t> fill(partition.class_begin_.begin(),
                                    partition.class_begin_.end() - 1);
    partition.members_.resize(universe_);
    for (TokenId id = 0; id < universe_; ++id)
      partition.members_[fill[partition.class_of_[id]]++] = id;
    partition.signature_collisions_ = signature_collisions_;
    return partition;
  }

  std::uint32_t universe_;
  std::vector<SetSide> sides_;
  std::vector<std::uint32_t> class_of_;  // per token, a working class id
  std::vector<std::uint32_t> size_;      // per working class
  std::size_t signature_collisions_ = 0;
};

TokenPartition partition_tokens(std::uint32_t universe, std::span<const RoaringBitmap* const> sets,
                                SetSignature signature) {
  return TokenPartitionBuilder(universe, sets).build(signature);
}

TokenPartition partition_tokens(const TokenSetPool& pool, std::span<const TokenSetId> sets,
                                SetSignature signature) {
  std::vector<const RoaringBitmap*> bitmaps;
  bitmaps.reserve(sets.size());
  for (const TokenSetId set : sets) bitmaps.push_back(&pool.get(set));
  return partition_tokens(pool.universe_size(), bitmaps, signature);
}

std::vector<TokenSetId> branch_mask_weights(const ParserDwa& dwa) {
  std::vector<TokenSetId> weights;
  if (!dwa.has_branches()) return weights;
  {
    for (const ParserDwaTransition& t : dwa.all_transitions()) {
      if (!ParserDwa::is_branch(t.target)) continue;
      for (const ParserDwaBranch& branch : dwa.branch_group(t.target)) {
        bool deferred = false;
        for (const std::uint32_t id : dwa.condition_set(branch.conditions))
          deferred = deferred || dwa.condition(id).kind == ConditionKind::kDeferred;
        if (!deferred && !branch.weight.is_empty()) weights.push_back(branch.weight);
      }
    }
  }
  return weights;
}

std::vector<TokenSetId> mask_weights(const ParserDwa& dwa) {
  std::vector<TokenSetId> weights;
  for (const ParserDwaTransition& t : dwa.all_transitions())
    if (!t.weight.is_empty()) weights.push_back(t.weight);
  for (const TokenSetId weight : branch_mask_weights(dwa)) weights.push_back(weight);
  std::sort(weights.begin(), weights.end());
  weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
  return weights;
}

std::vector<TokenSetId> lexer_weights(const lexer::TerminalDwa& dwa) {
  std::vector<TokenSetId> weights;
  for (lexer::DwaNodeId node = 0; node < dwa.num_nodes(); ++node)
    for (const lexer::DwaWeight& weight : dwa.weights(node))
      if (!weight.tokens.is_empty()) weights.push_back(weight.tokens);
  std::sort(weights.begin(), weights.end());
  weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
  return weights;
}

TokenPartition mask_classes(const CompiledMask& compiled) {
  return partition_tokens(compiled.pool(), mask_weights(compiled.parser_dwa()));
}

TokenPartition lexer_classes(const CompiledMask& compiled, std::optional<TokenId> eos) {
  const TokenSetPool& pool = compiled.pool();
  std::vector<const RoaringBitmap*> sets;
  for (const TokenSetId weight : lexer_weights(compiled.terminal_dwa()))
    sets.push_back(&pool.get(weight));
  RoaringBitmap eos_alone;
  if (eos) {
    eos_alone.add(*eos);
    sets.push_back(&eos_alone);
  }
  return partition_tokens(pool.universe_size(), sets);
}

bool refines(const TokenPartition& finer, const TokenPartition& coarser) {
  if (finer.universe() != coarser.universe()) {
    throw Error(fmt::format("token classes: partitions of {} and {} ids cannot be compared",
                            finer.universe(), coarser.universe()),
                ErrorCode::kInvalidArgument);
  }
  for (std::uint32_t c = 0; c < finer.num_classes(); ++c) {
    const std::span<const TokenId> members = finer.members(c);
    for (const TokenId id : members)
      if (coarser.class_of(id) != coarser.class_of(members.front())) return false;
  }
  return true;
}

}  // namespace glrmask::mask
