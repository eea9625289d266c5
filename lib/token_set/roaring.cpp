#include "lib/token_set/roaring.h"

#include <fmt/format.h>
#include <roaring/roaring.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "lib/core/error.h"
#include "lib/core/hash_mix.h"
#include "lib/token_set/dense_mask.h"

namespace glrmask {
namespace {

// One CRoaring container: the ids key * 2^16 + low, for the low halves it stores.
struct ContainerView {
  enum class Kind { kBitset, kArray, kRun };
  Kind kind;
  std::uint32_t key;
  const std::uint64_t* bitset = nullptr;  // 1024 words
  const std::uint16_t* values = nullptr;  // sorted, `count` of them
  const rle16_t* runs = nullptr;          // {start, length - 1}, sorted, `count` of them
  std::int32_t count = 0;
  std::int32_t bitset_cardinality = 0;  // as recorded in a bitset container
};

constexpr std::size_t kBitsetWords64 = 1024;  // 2^16 bits per container
constexpr std::size_t kContainerWords32 = 2 * kBitsetWords64;

template <class Visit>
void for_each_container(const RoaringBitmap& set, Visit&& visit) {
  const roaring_array_t& array = set.roaring.high_low_container;
  for (std::int32_t i = 0; i < array.size; ++i) {
    std::uint8_t type = array.typecodes[i];
    // Copy-on-write bitmaps wrap shared containers; the content is in the wrapped one.
    const void* container = container_unwrap_shared(array.containers[i], &type);
    ContainerView view{ContainerView::Kind::kArray, array.keys[i]};
    switch (type) {
      case BITSET_CONTAINER_TYPE_CODE:
        view.kind = ContainerView::Kind::kBitset;
        view.bitset = static_cast<const bitset_container_t*>(container)->array;
        view.bitset_cardinality = static_cast<const bitset_container_t*>(container)->cardinality;
        break;
      case ARRAY_CONTAINER_TYPE_CODE: {
        const auto* c = static_cast<const array_container_t*>(container);
        view.values = c->array;
        view.count = c->cardinality;
        break;
      }
      case RUN_CONTAINER_TYPE_CODE: {
        const auto* c = static_cast<const run_container_t*>(container);
        view.kind = ContainerView::Kind::kRun;
        view.runs = c->runs;
        view.count = c->n_runs;
        break;
      }
      default:
        throw Error(fmt::format("CRoaring container of unknown type {} (key {})", type, view.key),
                    ErrorCode::kInternal);
    }
    visit(view);
  }
}

// --- hashing -------------------------------------------------------------------------------------

// Hashes the stream of (index, bits) of the set's nonzero 64-bit words. Each word is hashed on its
// own and the results are summed: no dependency chain from word to word, so a bitset container
// hashes at the machine's throughput, and the stream is the same for every encoding of the set.
class WordStreamHasher {
 public:
  void add(std::uint64_t index, std::uint64_t bits) {
    sum_ += fmix64(bits ^ (index * 0x9e3779b97f4a7c15ULL)) + index * 0xd6e8feb86659fd93ULL;
    ++words_;
  }
  // Array and run containers produce a word bit by bit or run by run; consecutive pieces of the
  // same word are merged before hashing. (The sum does not depend on order, so a word still
  // pending when a bitset container's words arrive may be added later.)
  void add_partial(std::uint64_t index, std::uint64_t bits) {
    if (index != pending_index_) {
      flush();
      pending_index_ = index;
    }
    pending_bits_ |= bits;
  }
  void flush() {
    if (pending_bits_ != 0) add(pending_index_, pending_bits_);
    pending_bits_ = 0;
  }
  std::uint64_t result() {
    flush();
    return fmix64(sum_ ^ (words_ * 0x94d049bb133111ebULL));
  }

 private:
  std::uint64_t sum_ = 0;
  std::uint64_t words_ = 0;
  std::uint64_t pending_index_ = 0;
  std::uint64_t pending_bits_ = 0;
};

// Bits [first, last] (inclusive, both within one 64-bit word) set.
constexpr std::uint64_t bit_range64(unsigned first, unsigned last) {
  const std::uint64_t upto_last = last == 63 ? ~0ULL : (std::uint64_t{1} << (last + 1)) - 1;
  return upto_last & (~0ULL << first);
}

// A run container with more runs than this (a dense set with many holes) is painted into a
// bitset before hashing or export: per-run loops cost a branch misprediction or two per run.
constexpr std::int32_t kRunsWorthPainting = 64;

// One word more than a container needs: the end marker of a run that ends at 2^16 - 1.
using PaintedRuns = std::uint64_t[kBitsetWords64 + 1];

// Writes a run container as a bitset without a branch per run: toggle one bit where each run
// starts and one just past its end, then a prefix XOR over all 2^16 bits turns each pair of
// toggles into the run between them.
void paint_runs(const ContainerView& c, PaintedRuns& bits) {
  std::fill(std::begin(bits), std::end(bits), 0);
  for (std::int32_t i = 0; i < c.count; ++i) {
    const unsigned start = c.runs[i].value;
    const unsigned past_end = start + c.runs[i].length + 1u;
    bits[start / 64] ^= std::uint64_t{1} << (start % 64);
    bits[past_end / 64] ^= std::uint64_t{1} << (past_end % 64);
  }
  std::uint64_t carry = 0;  // all ones when an odd number of toggles precede this word
  for (std::size_t w = 0; w < kBitsetWords64; ++w) {
    std::uint64_t x = bits[w];
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x ^= carry;
    bits[w] = x;
    carry = 0 - (x >> 63);
  }
}

// --- dense export --------------------------------------------------------------------------------

// Sets ids [first, last] (inclusive) in 32-bit words; the caller checked last < 32 * words.size().
void set_bit_range(std::uint32_t* words, std::uint32_t first, std::uint32_t last) {
  const std::uint32_t first_word = first / 32;
  const std::uint32_t last_word = last / 32;
  const std::uint32_t head = ~std::uint32_t{0} << (first % 32);
  const std::uint32_t tail = ~std::uint32_t{0} >> (31 - last % 32);
  if (first_word == last_word) {
    words[first_word] |= head & tail;
    return;
  }
  words[first_word] |= head;
  // Most runs span a few words: a loop beats a call to memset.
  for (std::uint32_t w = first_word + 1; w < last_word; ++w) words[w] = ~std::uint32_t{0};
  words[last_word] |= tail;
}

// ORs (or copies, when kCopy) `count32` 32-bit words' worth of a bitset container into `out`.
template <bool kCopy>
void bitset_to_words(const std::uint64_t* bitset, std::uint32_t* out, std::size_t count32) {
  const std::size_t whole = count32 / 2;
  if constexpr (std::endian::native == std::endian::little) {
    // Little-endian: a uint64 word is the two uint32 words of its low and high halves, in order.
    if constexpr (kCopy) {
      std::memcpy(out, bitset, whole * sizeof(std::uint64_t));
    } else {
      or_dense_words(out, bitset, 2 * whole);
    }
  } else {
    for (std::size_t i = 0; i < whole; ++i) {
      const auto low = static_cast<std::uint32_t>(bitset[i]);
      const auto high = static_cast<std::uint32_t>(bitset[i] >> 32);
      out[2 * i] = kCopy ? low : out[2 * i] | low;
      out[2 * i + 1] = kCopy ? high : out[2 * i + 1] | high;
    }
  }
  if (count32 % 2 != 0) {  // the span ends in the middle of this 64-bit word
    const auto low = static_cast<std::uint32_t>(bitset[whole]);
    out[2 * whole] = kCopy ? low : out[2 * whole] | low;
  }
}

void or_sparse_container(const ContainerView& c, std::uint32_t* words) {
  const std::uint32_t base = c.key << 16;
  if (c.kind == ContainerView::Kind::kArray) {
    for (std::int32_t i = 0; i < c.count; ++i) {
      const std::uint32_t id = base + c.values[i];
      words[id / 32] |= std::uint32_t{1} << (id % 32);
    }
  } else {
    for (std::int32_t i = 0; i < c.count; ++i) {
      const std::uint32_t first = base + c.runs[i].value;
      set_bit_range(words, first, first + c.runs[i].length);
    }
  }
}

void check_fits(const RoaringBitmap& set, std::span<std::uint32_t> words) {
  if (set.isEmpty()) return;
  const std::uint64_t capacity = 32 * static_cast<std::uint64_t>(words.size());
  if (set.maximum() >= capacity) {
    throw Error(fmt::format("token id {} does not fit a dense mask of {} words ({} tokens)",
                            set.maximum(), words.size(), capacity),
                ErrorCode::kInvalidArgument);
  }
}

// --- validation ----------------------------------------------------------------------------------

constexpr std::int32_t kMaxArrayCardinality = 4096;  // CRoaring's DEFAULT_MAX_SIZE

// The popcount instruction where the machine has it (this loop runs over every bitset of a
// loaded artifact), a portable fallback elsewhere. Not under ThreadSanitizer, whose
// instrumentation of the clone resolver runs before the runtime is up and crashes at load.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("popcnt", "default")))
#endif
std::uint64_t
count_bits(const std::uint64_t* words, std::size_t count) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < count; ++i)
    bits += static_cast<std::uint64_t>(std::popcount(words[i]));
  return bits;
}

// values[0..count) ascends strictly. Arrays make up most of an artifact's token sets, so the
// comparisons go eight at a time where the compiler has vector extensions (SSE2 on x86-64),
// without an early exit.
bool strictly_ascending(const std::uint16_t* values, std::int32_t count) {
  std::int32_t i = 1;
  bool descending = false;
#if defined(__GNUC__)
  using Lanes = std::uint16_t __attribute__((vector_size(16)));
  constexpr std::int32_t kLanes = 8;
  Lanes out_of_order = {};
  for (; i + kLanes <= count; i += kLanes) {
    Lanes current;
    Lanes previous;
    std::memcpy(&current, values + i, sizeof current);
    std::memcpy(&previous, values + i - 1, sizeof previous);
    out_of_order |= static_cast<Lanes>(current <= previous);
  }
  for (std::int32_t lane = 0; lane < kLanes; ++lane) descending |= out_of_order[lane] != 0;
#endif
  for (; i < count; ++i) descending |= values[i] <= values[i - 1];
  return !descending;
}

// The container's defect, or "" (its largest low half goes to `max_low`).
std::string container_defect(const ContainerView& c, std::uint32_t& max_low) {
  switch (c.kind) {
    case ContainerView::Kind::kBitset: {
      const std::uint64_t bits = count_bits(c.bitset, kBitsetWords64);
      if (bits == 0 || bits != static_cast<std::uint64_t>(c.bitset_cardinality))
        return fmt::format("a bitset container records {} ids and holds {}", c.bitset_cardinality,
                           bits);
      std::size_t last = kBitsetWords64 - 1;
      while (c.bitset[last] == 0) --last;
      max_low = static_cast<std::uint32_t>(64 * last + 63 -
                                           static_cast<unsigned>(std::countl_zero(c.bitset[last])));
      return "";
    }
    case ContainerView::Kind::kArray:
      if (c.count < 1 || c.count > kMaxArrayCardinality)
        return fmt::format("an array container of {} ids", c.count);
      if (!strictly_ascending(c.values, c.count))
        return "an array container is not strictly ascending";
      max_low = c.values[c.count - 1];
      return "";
    case ContainerView::Kind::kRun: {
      if (c.count < 1) return "a run container without runs";
      std::uint32_t next_free = 0;  // the first low half after the previous run
      for (std::int32_t i = 0; i < c.count; ++i) {
        const std::uint32_t start = c.runs[i].value;
        const std::uint32_t last = start + c.runs[i].length;
        if ((i > 0 && start < next_free) || last > 0xffff)
          return fmt::format("run {} of a run container overlaps or leaves the container", i);
        next_free = last + 1;
      }
      max_low = next_free - 1;
      return "";
    }
  }
  return "a container of unknown type";
}

}  // namespace

std::string describe_malformation(const RoaringBitmap& set, std::uint32_t universe) {
  std::string defect;
  std::int64_t previous_key = -1;
  std::uint64_t max_id = 0;
  try {
    for_each_container(set, [&](const ContainerView& c) {
      if (!defect.empty()) return;
      if (static_cast<std::int64_t>(c.key) <= previous_key) {
        defect = fmt::format("container keys are not ascending ({} after {})", c.key, previous_key);
        return;
      }
      previous_key = c.key;
      std::uint32_t max_low = 0;
      if (std::string found = container_defect(c, max_low); !found.empty()) {
        defect = fmt::format("container {}: {}", c.key, found);
        return;
      }
      max_id = (std::uint64_t{c.key} << 16) | max_low;
    });
  } catch (const Error& e) {  // a container type CRoaring does not have
    return e.what();
  }
  if (defect.empty() && previous_key >= 0 && max_id >= universe)
    defect = fmt::format("holds token id {}, not below the vocabulary size {}", max_id, universe);
  return defect;
}

std::uint64_t content_hash(const RoaringBitmap& set) {
  WordStreamHasher hasher;
  for_each_container(set, [&](const ContainerView& c) {
    const std::uint64_t base = std::uint64_t{c.key} * kBitsetWords64;
    switch (c.kind) {
      case ContainerView::Kind::kBitset:
        for (std::size_t i = 0; i < kBitsetWords64; ++i) {
          if (c.bitset[i] != 0) hasher.add(base + i, c.bitset[i]);
        }
        break;
      case ContainerView::Kind::kArray:
        for (std::int32_t i = 0; i < c.count; ++i) {
          hasher.add_partial(base + c.values[i] / 64, std::uint64_t{1} << (c.values[i] % 64));
        }
        break;
      case ContainerView::Kind::kRun:
        if (c.count > kRunsWorthPainting) {
          PaintedRuns painted;
          paint_runs(c, painted);
          for (std::size_t i = 0; i < kBitsetWords64; ++i) {
            if (painted[i] != 0) hasher.add(base + i, painted[i]);
          }
          break;
        }
        for (std::int32_t i = 0; i < c.count; ++i) {
          const unsigned first = c.runs[i].value;
          const unsigned last = first + c.runs[i].length;
          const unsigned first_word = first / 64;
          const unsigned last_word = last / 64;
          if (first_word == last_word) {
            hasher.add_partial(base + first_word, bit_range64(first % 64, last % 64));
            continue;
          }
          // The edge words may share bits with the neighbouring runs; the middle ones are full.
          hasher.add_partial(base + first_word, bit_range64(first % 64, 63));
          for (unsigned w = first_word + 1; w < last_word; ++w) hasher.add(base + w, ~0ULL);
          hasher.add_partial(base + last_word, bit_range64(0, last % 64));
        }
        break;
    }
  });
  return hasher.result();
}

namespace {

// write_dense and or_dense over any sequence of containers in ascending key order:
// `for_each(visit)` calls visit(ContainerView) for each.
template <class ForEach>
void write_containers(ForEach&& for_each, std::span<std::uint32_t> words) {
  std::uint32_t* out = words.data();
  std::size_t cleared_up_to = 0;  // words before this index already hold their final value
  for_each([&](const ContainerView& c) {
    const std::size_t begin = std::size_t{c.key} * kContainerWords32;
    if (begin >= words.size()) return;  // an empty container past the end (check_fits passed)
    const std::size_t end = std::min(begin + kContainerWords32, words.size());
    std::fill(out + cleared_up_to, out + begin, 0u);
    if (c.kind == ContainerView::Kind::kBitset) {
      bitset_to_words<true>(c.bitset, out + begin, end - begin);
    } else if (c.kind == ContainerView::Kind::kRun && c.count > kRunsWorthPainting) {
      PaintedRuns painted;
      paint_runs(c, painted);
      bitset_to_words<true>(painted, out + begin, end - begin);
    } else {
      std::fill(out + begin, out + end, 0u);
      or_sparse_container(c, out);
    }
    cleared_up_to = end;
  });
  std::fill(out + cleared_up_to, out + words.size(), 0u);
}

template <class ForEach>
void or_containers(ForEach&& for_each, std::span<std::uint32_t> words) {
  for_each([&](const ContainerView& c) {
    const bool painted_runs = c.kind == ContainerView::Kind::kRun && c.count > kRunsWorthPainting;
    if (c.kind == ContainerView::Kind::kBitset || painted_runs) {
      const std::size_t begin = std::size_t{c.key} * kContainerWords32;
      if (begin >= words.size()) return;  // an empty container past the end (check_fits passed)
      const std::size_t end = std::min(begin + kContainerWords32, words.size());
      PaintedRuns painted;
      if (painted_runs) paint_runs(c, painted);
      bitset_to_words<false>(painted_runs ? painted : c.bitset, words.data() + begin, end - begin);
    } else {
      or_sparse_container(c, words.data());
    }
  });
}

ContainerView view_of(const DenseSegment& segment) {
  ContainerView view{ContainerView::Kind::kArray, segment.key};
  view.count = segment.count;
  switch (segment.kind) {
    case DenseSegment::Kind::kBitset:
      view.kind = ContainerView::Kind::kBitset;
      view.bitset = static_cast<const std::uint64_t*>(segment.data);
      break;
    case DenseSegment::Kind::kArray:
      view.values = static_cast<const std::uint16_t*>(segment.data);
      break;
    case DenseSegment::Kind::kRun:
      view.kind = ContainerView::Kind::kRun;
      view.runs = static_cast<const rle16_t*>(segment.data);
      break;
  }
  return view;
}

}  // namespace

void write_dense(const RoaringBitmap& set, std::span<std::uint32_t> words) {
  check_fits(set, words);
  write_containers([&](auto&& visit) { for_each_container(set, visit); }, words);
}

void or_dense(const RoaringBitmap& set, std::span<std::uint32_t> words) {
  check_fits(set, words);
  or_containers([&](auto&& visit) { for_each_container(set, visit); }, words);
}

void append_dense_segments(const RoaringBitmap& set, std::vector<DenseSegment>& out) {
  for_each_container(set, [&](const ContainerView& c) {
    switch (c.kind) {
      case ContainerView::Kind::kBitset:
        out.push_back({c.bitset, c.key, c.bitset_cardinality, DenseSegment::Kind::kBitset});
        break;
      case ContainerView::Kind::kArray:
        out.push_back({c.values, c.key, c.count, DenseSegment::Kind::kArray});
        break;
      case ContainerView::Kind::kRun:
        out.push_back({c.runs, c.key, c.count, DenseSegment::Kind::kRun});
        break;
    }
  });
}

void write_dense_segments(std::span<const DenseSegment> segments, std::span<std::uint32_t> words) {
  write_containers(
      [&](auto&& visit) {
        for (const DenseSegment& segment : segments) visit(view_of(segment));
      },
      words);
}

void or_dense_segments(std::span<const DenseSegment> segments, std::span<std::uint32_t> words) {
  or_containers(
      [&](auto&& visit) {
        for (const DenseSegment& segment : segments) visit(view_of(segment));
      },
      words);
}

void prefetch_dense_segments(std::span<const DenseSegment> segments) {
  // Two lines per segment: enough for the hardware prefetcher to see a stream and take over.
  for (const DenseSegment& segment : segments) {
    const char* data = static_cast<const char*>(segment.data);
    __builtin_prefetch(data);
    __builtin_prefetch(data + 64);
  }
}

}  // namespace glrmask
