// Sets of LLM token ids, interned: each distinct set is stored once in a TokenSetPool and named by
// a 4-byte TokenSetId, so equal sets have equal ids and set equality is an integer comparison.
// The weights of the compiled automata are such ids; compiling a grammar builds 1e4–1e6 distinct
// sets and asks for ∪ and ∩ of them millions of times, which is why the operations are memoized
// on the id pair.
//
// Storage is CRoaring (compressed: sparse sets as sorted arrays, dense ones as bitmaps, ranges as
// runs). At decoding time a set leaves as a dense mask (lib/token_set/dense_mask.h layout); for
// sets exported often, the pool keeps their dense words so the runtime only ORs words, without
// converting or allocating.
//
// Thread safety: a pool is single-threaded for mutation. The non-const members (intern*, unite,
// intersect, subtract, dense_words, clear_memo) need exclusive access. All const members may run
// concurrently with each other — in particular many decoding threads may call to_dense,
// or_into_dense and cached_dense_words on one pool once its construction is over.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "lib/core/token_id.h"
#include "lib/token_set/dense_mask.h"
#include "lib/token_set/frozen.h"
#include "lib/token_set/list_memo.h"
#include "lib/token_set/memo.h"
#include "lib/token_set/roaring.h"
#include "lib/token_set/token_set_id.h"

namespace glrmask {

class TokenSetPool {
 public:
  // Hashes a set's contents for interning; equal sets must hash equally.
  using ContentHasher = std::uint64_t (*)(const RoaringBitmap&);

  // Token ids of this pool must be < universe_size (the vocabulary size), which must be >= 1.
  // `hasher` is replaceable so tests can force hash collisions; keep the default otherwise.
  explicit TokenSetPool(std::uint32_t universe_size, ContentHasher hasher = &content_hash);

  // Where a pool's frozen sets come from: set kFirstView + i is frozen image i of a compiled
  // artifact (mask_artifact.h), read in place. The source keeps the images alive.
  class FrozenSetSource {
   public:
    virtual ~FrozenSetSource() = default;
    virtual std::size_t size() const = 0;
    // The layout of image i (FrozenBitmap::view_layout), made on the set's first use, so a load
    // touches none of the images. Throws glrmask::Error naming the set when CRoaring refuses it.
    virtual FrozenBitmap layout(std::size_t index) const = 0;
    // Checks image i's contents (made by layout(i)) before they are first read; throws
    // glrmask::Error naming what is wrong.
    virtual void check(std::size_t index, const FrozenBitmap& view) const = 0;
  };

  // A pool whose sets 2, 3, ... are `source`'s images in that order (after empty() and full()).
  // Nothing is hashed, copied or even looked at here — the images are trusted to be distinct and
  // neither empty nor full, as the sets of the pool that wrote them were. Each set's layout is
  // made, and its contents checked, on its first use (the first call that reads its contents,
  // or verify(); layout() makes the layout only), once, under a lock; a set whose layout or
  // check threw throws again on every later use, so a damaged set is never read. After the first
  // use the cost is one atomic load. The first interning into such a pool hashes every set
  // (once), so it then behaves like any other.
  static TokenSetPool from_frozen(std::uint32_t universe_size,
                                  std::shared_ptr<const FrozenSetSource> source);

  TokenSetPool(const TokenSetPool&) = delete;  // ids are only meaningful in the pool that made them
  TokenSetPool& operator=(const TokenSetPool&) = delete;
  TokenSetPool(TokenSetPool&&) = default;
  TokenSetPool& operator=(TokenSetPool&&) = default;

  static constexpr TokenSetId empty() { return TokenSetId{0}; }
  static constexpr TokenSetId full() { return TokenSetId{1}; }

  // Interning. Each throws glrmask::Error naming the first token id >= universe_size().
  TokenSetId intern(RoaringBitmap set);
  TokenSetId intern(std::span<const TokenId> ids);  // any order, duplicates allowed
  TokenSetId singleton(TokenId id);
  TokenSetId range(TokenId first, TokenId last);  // [first, last); empty when first >= last

  // Memoized. unite and intersect are commutative: (a, b) and (b, a) share a memo entry. The
  // identities with empty(), full() and a == b are answered without touching the memo.
  TokenSetId unite(TokenSetId a, TokenSetId b);
  // The union of `sets` (any order, duplicates allowed; sorted in place). Three or more are
  // united in one pass and only the result is interned, where a chain of unite() would intern
  // every partial union; up to two go through unite() and its memo.
  TokenSetId unite_all(std::span<TokenSetId> sets);
  // unite_all in two phases, for callers that share the pool between threads behind a lock of
  // their own and want the union itself computed outside it: known_union() (empty() when the
  // union is not memoized), else the inputs' get(), RoaringBitmap::fastunion and content_hash_of()
  // unlocked, then remember_union(), which interns the result and memoizes it. `sets` must be
  // sorted and unique, without empty() or full(), and hold at least three sets.
  TokenSetId known_union(std::span<const TokenSetId> sets) const;
  TokenSetId remember_union(std::span<const TokenSetId> sets, RoaringBitmap result,
                            std::uint64_t hash);
  std::uint64_t content_hash_of(const RoaringBitmap& set) const { return hasher_(set); }
  TokenSetId intersect(TokenSetId a, TokenSetId b);
  TokenSetId subtract(TokenSetId a, TokenSetId b);  // a \ b
  TokenSetId complement(TokenSetId a) { return subtract(full(), a); }

  // Queries. A TokenSetId not made by this pool, or a token id >= universe_size(), throws.
  bool contains(TokenSetId s, TokenId token) const;
  std::uint64_t cardinality(TokenSetId s) const;
  bool is_subset(TokenSetId a, TokenSetId b) const;  // a ⊆ b
  bool intersects(TokenSetId a, TokenSetId b) const;
  // The stored set; the reference stays valid (and unchanged) for the pool's lifetime.
  const RoaringBitmap& get(TokenSetId s) const;
  // Runs the first-use check of set `s` (from_frozen) if it has not passed yet: the contents of
  // a set reached without get() — through layout()'s export descriptors — are safe to read once
  // this returned. Throws what the check throws. Free for sets that need no check.
  void verify(TokenSetId s) const {
    const std::uint32_t view = s.value() - kFirstView;
    if (view < num_views_ && view_state_[view].load(std::memory_order_acquire) != kViewChecked)
      check_view(view);
  }
  // The stored set without its first-use check: only where its containers lie (keys, kinds,
  // sizes, data addresses) may be read from it, for export descriptors (dense_sources.h) whose
  // data is read after verify(s). Everything else reads sets through get().
  const RoaringBitmap& layout(TokenSetId s) const;
  std::vector<TokenId> to_vector(TokenSetId s) const;

  // Dense export, bit i of word i/32 = token i. `words.size()` must be >= dense_word_count() or
  // glrmask::Error is thrown. to_dense overwrites all of `words` (words past the universe become
  // zero); or_into_dense only sets bits. Both use the cached dense words when there are some, and
  // never allocate.
  std::size_t dense_word_count() const { return glrmask::dense_word_count(universe_size_); }
  void to_dense(TokenSetId s, std::span<std::uint32_t> words) const;
  void or_into_dense(TokenSetId s, std::span<std::uint32_t> words) const;
  DenseMask to_dense_mask(TokenSetId s) const;

  // Dense cache: the set's dense words (dense_word_count() of them, 64-byte aligned), made on the
  // first call and kept, at the same address, for the pool's lifetime. A mask costs
  // universe/8 bytes (16 KiB for 128k tokens), so cache the sets the runtime exports, not all.
  const std::uint32_t* dense_words(TokenSetId s);
  // The cached words, or nullptr when dense_words(s) was never called. Safe concurrently.
  const std::uint32_t* cached_dense_words(TokenSetId s) const;

  std::uint32_t universe_size() const { return universe_size_; }
  std::size_t distinct_sets() const { return sets_.size() + num_views_; }
  std::size_t memo_entries() const;
  std::size_t memo_bytes() const;
  std::size_t dense_cache_bytes() const;
  // Forgets every memoized result (ids and sets stay). For long compilations short of memory.
  void clear_memo();

 private:
  enum class Operation { kUnite, kIntersect, kSubtract };
  TokenSetId apply(Operation op, TokenSetId a, TokenSetId b);
  TokenSetId insert_new(RoaringBitmap&& set, std::uint64_t hash);
  TokenSetId find(const RoaringBitmap& set, std::uint64_t hash) const;
  void check(TokenSetId s) const;
  void check_token(TokenId token, const char* what) const;
  void check_dense_span(std::span<std::uint32_t> words) const;
  void grow_index();
  void index_frozen_views();

  // Set `id`: ids below kFirstView and from kFirstView + num_views_ on live in sets_, the ids
  // between in views_.
  static constexpr std::uint32_t kFirstView = 2;
  const RoaringBitmap& set_of(std::uint32_t id) const {
    verify(TokenSetId{id});
    return layout_of(id);
  }
  const RoaringBitmap& layout_of(std::uint32_t id) const {
    if (const std::uint32_t view = id - kFirstView; view < num_views_) {
      if (view_state_[view].load(std::memory_order_acquire) == kViewUnmade) make_layout(view);
      return views_[view].bitmap();
    }
    return sets_[id < kFirstView ? id : id - num_views_];
  }
  void make_layout(std::uint32_t view) const;  // layout_of()'s first use of a view
  void check_view(std::uint32_t view) const;   // verify()'s first use of a view

  std::uint32_t universe_size_;
  ContentHasher hasher_;
  // A deque, so references from get() survive later insertions.
  std::deque<RoaringBitmap> sets_;
  // The frozen sets (from_frozen): their source, and per set its view (a placeholder until the
  // first use) and how far its first use got. The mutex serializes first uses; later ones only
  // load the state, and a view is written only before its state says it is made.
  static constexpr std::uint8_t kViewUnmade = 0, kViewMade = 1, kViewChecked = 2;
  std::shared_ptr<const FrozenSetSource> frozen_source_;
  std::size_t num_views_ = 0;
  std::unique_ptr<FrozenBitmap[]> views_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> view_state_;
  std::unique_ptr<std::mutex> view_mutex_;
  // hasher_ of set id, for the ids below hashes_.size(): all of them, except frozen views
  // before the first interning.
  std::vector<std::uint64_t> hashes_;
  // Open-addressing hash index over the hashed set ids (0 = vacant: the empty set is never
  // looked up).
  std::vector<std::uint32_t> index_;
  TokenSetMemo unite_memo_;
  TokenSetMemo intersect_memo_;
  TokenSetMemo subtract_memo_;
  TokenSetListMemo unite_all_memo_;
  // dense_slot_[id] = 1 + position in dense_masks_, or 0 when not cached.
  std::vector<std::uint32_t> dense_slot_;
  std::deque<DenseMask> dense_masks_;
};

}  // namespace glrmask
