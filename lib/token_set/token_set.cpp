#include "lib/token_set/token_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "lib/core/check.h"
#include "lib/core/error.h"

namespace glrmask {

TokenSetPool::TokenSetPool(std::uint32_t universe_size, ContentHasher hasher)
    : universe_size_(universe_size), hasher_(hasher) {
  if (universe_size == 0)
    throw Error("TokenSetPool: the universe (vocabulary) size must be >= 1",
                ErrorCode::kInvalidArgument);
  sets_.emplace_back();  // id 0: the empty set, never in the index
  hashes_.push_back(hasher_(sets_.back()));
  RoaringBitmap everything;
  everything.addRange(0, universe_size);
  const std::uint64_t hash = hasher_(everything);
  [[maybe_unused]] const TokenSetId full_id = insert_new(std::move(everything), hash);
  // full() is a compile-time constant, so the full set must be the first one interned.
  static_assert(full().value() == 1);
}

TokenSetPool TokenSetPool::from_frozen(std::uint32_t universe_size,
                                       std::shared_ptr<const FrozenSetSource> source) {
  TokenSetPool pool(universe_size);
  const std::size_t views = source->size();
  if (views >= std::uint64_t{UINT32_MAX} - kFirstView)
    throw Error("TokenSetPool: more than 2^32 sets", ErrorCode::kLimit);
  pool.frozen_source_ = std::move(source);
  pool.num_views_ = views;
  pool.views_ = std::make_unique<FrozenBitmap[]>(views);
  pool.view_state_ = std::make_unique<std::atomic<std::uint8_t>[]>(views);  // all kViewUnmade
  pool.view_mutex_ = std::make_unique<std::mutex>();
  return pool;
}

void TokenSetPool::make_layout(std::uint32_t view) const {
  const std::lock_guard<std::mutex> lock(*view_mutex_);
  if (view_state_[view].load(std::memory_order_relaxed) != kViewUnmade) return;  // another thread's
  // A throw leaves the view unmade: every use throws again.
  views_[view] = frozen_source_->layout(view);
  view_state_[view].store(kViewMade, std::memory_order_release);
}

void TokenSetPool::check_view(std::uint32_t view) const {
  const std::lock_guard<std::mutex> lock(*view_mutex_);
  const std::uint8_t state = view_state_[view].load(std::memory_order_relaxed);
  if (state == kViewChecked) return;  // another thread's first use
  // A throw leaves the view unchecked: every use throws again.
  if (state == kViewUnmade) {
    views_[view] = frozen_source_->layout(view);
    view_state_[view].store(kViewMade, std::memory_order_release);
  }
  frozen_source_->check(view, views_[view]);
  view_state_[view].store(kViewChecked, std::memory_order_release);
}

const RoaringBitmap& TokenSetPool::layout(TokenSetId s) const {
  check(s);
  return layout_of(s.value());
}

// --- interning -----------------------------------------------------------------------------------

void TokenSetPool::index_frozen_views() {
  hashes_.reserve(distinct_sets());
  while (hashes_.size() < distinct_sets())
    hashes_.push_back(hasher_(set_of(static_cast<std::uint32_t>(hashes_.size()))));
  grow_index();  // re-inserts every hashed id, the views now included
  while (2 * distinct_sets() >= index_.size()) grow_index();
}

TokenSetId TokenSetPool::intern(RoaringBitmap set) {
  if (hashes_.size() < distinct_sets()) index_frozen_views();
  if (set.isEmpty()) return empty();
  if (set.maximum() >= universe_size_) check_token(set.maximum(), "TokenSetPool::intern");
  const std::uint64_t hash = hasher_(set);
  if (const TokenSetId existing = find(set, hash); !existing.is_empty()) return existing;
  return insert_new(std::move(set), hash);
}

TokenSetId TokenSetPool::intern(std::span<const TokenId> ids) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= universe_size_) {
      throw Error(
          fmt::format(
              "TokenSetPool::intern: token id {} (position {} of the list) is out of range for a "
              "vocabulary of {} tokens",
              ids[i], i, universe_size_),
          ErrorCode::kInvalidArgument, ErrorLocation::of_token(static_cast<std::int64_t>(ids[i])));
    }
  }
  return intern(RoaringBitmap(ids.size(), ids.data()));
}

TokenSetId TokenSetPool::singleton(TokenId id) {
  check_token(id, "TokenSetPool::singleton");
  RoaringBitmap set;
  set.add(id);
  return intern(std::move(set));
}

TokenSetId TokenSetPool::range(TokenId first, TokenId last) {
  if (first >= last) return empty();
  check_token(last - 1, "TokenSetPool::range");
  RoaringBitmap set;
  set.addRange(first, last);
  return intern(std::move(set));
}

TokenSetId TokenSetPool::find(const RoaringBitmap& set, std::uint64_t hash) const {
  const std::size_t mask = index_.size() - 1;
  for (std::size_t slot = static_cast<std::size_t>(hash) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t id = index_[slot];
    if (id == 0) return empty();
    // Hashes first: a full comparison only on a (rare) equal hash.
    if (hashes_[id] == hash && set_of(id) == set) return TokenSetId{id};
  }
}

TokenSetId TokenSetPool::insert_new(RoaringBitmap&& set, std::uint64_t hash) {
  if (distinct_sets() >= std::uint64_t{UINT32_MAX})
    throw Error("TokenSetPool: more than 2^32 sets", ErrorCode::kLimit);
  if (2 * distinct_sets() >= index_.size()) grow_index();
  // Sets live for the whole compilation: pay once for the most compact encoding. runOptimize also
  // gives the set its own copy of any container it shared with a copy-on-write bitmap, and with
  // copy-on-write off, copies taken of get() never share (CRoaring counts sharing without atomics,
  // which would break concurrent const use).
  set.runOptimize();
  set.setCopyOnWrite(false);
  set.shrinkToFit();
  const auto id = static_cast<std::uint32_t>(distinct_sets());
  sets_.push_back(std::move(set));
  hashes_.push_back(hash);
  const std::size_t mask = index_.size() - 1;
  std::size_t slot = static_cast<std::size_t>(hash) & mask;
  while (index_[slot] != 0) slot = (slot + 1) & mask;
  index_[slot] = id;
  return TokenSetId{id};
}

void TokenSetPool::grow_index() {
  index_.assign(index_.empty() ? 1024 : 2 * index_.size(), 0);
  const std::size_t mask = index_.size() - 1;
  for (std::uint32_t id = 1; id < hashes_.size(); ++id) {
    std::size_t slot = static_cast<std::size_t>(hashes_[id]) & mask;
    while (index_[slot] != 0) slot = (slot + 1) & mask;
    index_[slot] = id;
  }
}

// --- algebra -------------------------------------------------------------------------------------

TokenSetId TokenSetPool::unite(TokenSetId a, TokenSetId b) {
  check(a);
  check(b);
  if (a == b || b.is_empty() || a == full()) return a;
  if (a.is_empty() || b == full()) return b;
  return apply(Operation::kUnite, std::min(a, b), std::max(a, b));
}

TokenSetId TokenSetPool::unite_all(std::span<TokenSetId> sets) {
  for (const TokenSetId s : sets) check(s);
  std::sort(sets.begin(), sets.end());
  sets = sets.first(static_cast<std::size_t>(std::unique(sets.begin(), sets.end()) - sets.begin()));
  if (!sets.empty() && sets.front().is_empty()) sets = sets.subspan(1);
  if (sets.empty()) return empty();
  if (sets.size() == 1) return sets.front();
  if (sets.front() == full()) return full();
  if (sets.size() == 2) return unite(sets[0], sets[1]);
  const std::uint64_t hash = TokenSetListMemo::hash(sets);
  if (const std::uint32_t* known = unite_all_memo_.find(sets, hash)) return TokenSetId{*known};
  std::vector<const RoaringBitmap*> inputs;
  inputs.reserve(sets.size());
  for (const TokenSetId s : sets) inputs.push_back(&set_of(s.value()));
  const TokenSetId id = intern(RoaringBitmap::fastunion(inputs.size(), inputs.data()));
  unite_all_memo_.insert(sets, hash, id.value());
  return id;
}

namespace {

// What known_union and remember_union require of their list: the memo is keyed by it as given.
bool is_canonical_union_list(std::span<const TokenSetId> sets) {
  // Ascending ids put empty() (0) and full() (1) first when present.
  return sets.size() >= 3 &&
         std::adjacent_find(sets.begin(), sets.end(), std::greater_equal<>()) == sets.end() &&
         sets.front() > TokenSetPool::full();
}

}  // namespace

TokenSetId TokenSetPool::known_union(std::span<const TokenSetId> sets) const {
  GLRMASK_DCHECK(is_canonical_union_list(sets));
  const std::uint32_t* known = unite_all_memo_.find(sets, TokenSetListMemo::hash(sets));
  return known == nullptr ? empty() : TokenSetId{*known};
}

TokenSetId TokenSetPool::remember_union(std::span<const TokenSetId> sets, RoaringBitmap result,
                                        std::uint64_t hash) {
  GLRMASK_DCHECK(is_canonical_union_list(sets));
  GLRMASK_DCHECK(hash == hasher_(result), "the content hash of the union is not its hasher's");
  const std::uint64_t list_hash = TokenSetListMemo::hash(sets);
  if (const std::uint32_t* known = unite_all_memo_.find(sets, list_hash))
    return TokenSetId{*known};  // another thread remembered it first
  if (hashes_.size() < distinct_sets()) index_frozen_views();
  if (result.maximum() >= universe_size_)
    check_token(result.maximum(), "TokenSetPool::remember_union");
  TokenSetId id = find(result, hash);
  if (id.is_empty()) id = insert_new(std::move(result), hash);
  unite_all_memo_.insert(sets, list_hash, id.value());
  return id;
}

TokenSetId TokenSetPool::intersect(TokenSetId a, TokenSetId b) {
  check(a);
  check(b);
  if (a == b || b == full() || a.is_empty()) return a;
  if (a == full() || b.is_empty()) return b;
  return apply(Operation::kIntersect, std::min(a, b), std::max(a, b));
}

TokenSetId TokenSetPool::subtract(TokenSetId a, TokenSetId b) {
  check(a);
  check(b);
  if (a == b || a.is_empty() || b == full()) return empty();
  if (b.is_empty()) return a;
  return apply(Operation::kSubtract, a, b);
}

TokenSetId TokenSetPool::apply(Operation op, TokenSetId a, TokenSetId b) {
  TokenSetMemo& memo = op == Operation::kUnite       ? unite_memo_
                       : op == Operation::kIntersect ? intersect_memo_
                                                     : subtract_memo_;
  if (const std::uint32_t* known = memo.find(a.value(), b.value())) return TokenSetId{*known};
  const RoaringBitmap& left = set_of(a.value());
  const RoaringBitmap& right = set_of(b.value());
  RoaringBitmap result = op == Operation::kUnite       ? left | right
                         : op == Operation::kIntersect ? left & right
                                                       : left - right;
  const TokenSetId id = intern(std::move(result));
  memo.insert(a.value(), b.value(), id.value());
  return id;
}

// --- queries -------------------------------------------------------------------------------------

bool TokenSetPool::contains(TokenSetId s, TokenId token) const {
  check(s);
  check_token(token, "TokenSetPool::contains");
  return set_of(s.value()).contains(token);
}

std::uint64_t TokenSetPool::cardinality(TokenSetId s) const {
  check(s);
  return set_of(s.value()).cardinality();
}

bool TokenSetPool::is_subset(TokenSetId a, TokenSetId b) const {
  check(a);
  check(b);
  if (a == b || a.is_empty() || b == full()) return true;
  return set_of(a.value()).isSubset(set_of(b.value()));
}

bool TokenSetPool::intersects(TokenSetId a, TokenSetId b) const {
  check(a);
  check(b);
  if (a.is_empty() || b.is_empty()) return false;
  return a == b || set_of(a.value()).intersect(set_of(b.value()));
}

const RoaringBitmap& TokenSetPool::get(TokenSetId s) const {
  check(s);
  return set_of(s.value());
}

std::vector<TokenId> TokenSetPool::to_vector(TokenSetId s) const {
  const RoaringBitmap& set = get(s);
  std::vector<TokenId> ids(set.cardinality());
  set.toUint32Array(ids.data());
  return ids;
}

// --- dense export --------------------------------------------------------------------------------

void TokenSetPool::to_dense(TokenSetId s, std::span<std::uint32_t> words) const {
  check(s);
  check_dense_span(words);
  if (const std::uint32_t* cached = cached_dense_words(s)) {
    std::copy_n(cached, dense_word_count(), words.begin());
    std::fill(words.begin() + static_cast<std::ptrdiff_t>(dense_word_count()), words.end(), 0u);
    return;
  }
  write_dense(set_of(s.value()), words);
}

void TokenSetPool::or_into_dense(TokenSetId s, std::span<std::uint32_t> words) const {
  check(s);
  check_dense_span(words);
  if (s.is_empty()) return;
  if (const std::uint32_t* cached = cached_dense_words(s)) {
    or_dense_words(words, {cached, dense_word_count()});
    return;
  }
  or_dense(set_of(s.value()), words);
}

DenseMask TokenSetPool::to_dense_mask(TokenSetId s) const {
  DenseMask mask(universe_size_);
  to_dense(s, mask.words());
  return mask;
}

const std::uint32_t* TokenSetPool::dense_words(TokenSetId s) {
  if (const std::uint32_t* cached = cached_dense_words(s)) return cached;  // checks s
  DenseMask& mask = dense_masks_.emplace_back(universe_size_);
  write_dense(set_of(s.value()), mask.words());
  if (dense_slot_.size() <= s.value()) dense_slot_.resize(s.value() + std::size_t{1}, 0);
  dense_slot_[s.value()] = static_cast<std::uint32_t>(dense_masks_.size());
  return mask.data();
}

const std::uint32_t* TokenSetPool::cached_dense_words(TokenSetId s) const {
  check(s);
  if (s.value() >= dense_slot_.size() || dense_slot_[s.value()] == 0) return nullptr;
  return dense_masks_[dense_slot_[s.value()] - 1].data();
}

// --- bookkeeping ---------------------------------------------------------------------------------

std::size_t TokenSetPool::memo_entries() const {
  return unite_memo_.size() + intersect_memo_.size() + subtract_memo_.size() +
         unite_all_memo_.size();
}

std::size_t TokenSetPool::memo_bytes() const {
  return unite_memo_.memory_bytes() + intersect_memo_.memory_bytes() +
         subtract_memo_.memory_bytes() + unite_all_memo_.memory_bytes();
}

std::size_t TokenSetPool::dense_cache_bytes() const {
  return dense_masks_.size() * dense_word_count() * sizeof(std::uint32_t);
}

void TokenSetPool::clear_memo() {
  unite_memo_.clear();
  intersect_memo_.clear();
  subtract_memo_.clear();
  unite_all_memo_.clear();
}

void TokenSetPool::check(TokenSetId s) const {
  if (s.value() >= distinct_sets()) {
    throw Error(fmt::format("token set id {} was not made by this pool (it holds {} sets)",
                            s.value(), distinct_sets()),
                ErrorCode::kInvalidArgument);
  }
}

void TokenSetPool::check_token(TokenId token, const char* what) const {
  if (token >= universe_size_) {
    throw Error(fmt::format("{}: token id {} is out of range for a vocabulary of {} tokens", what,
                            token, universe_size_),
                ErrorCode::kInvalidArgument,
                ErrorLocation::of_token(static_cast<std::int64_t>(token)));
  }
}

void TokenSetPool::check_dense_span(std::span<std::uint32_t> words) const {
  if (words.size() < dense_word_count()) {
    throw Error(fmt::format("dense mask of {} words is too small for {} tokens ({} words needed)",
                            words.size(), universe_size_, dense_word_count()),
                ErrorCode::kInvalidArgument);
  }
}

}  // namespace glrmask
