// The two things TokenSetPool needs from a CRoaring bitmap that the library's public API does not
// give cheaply: a content hash that does not depend on how the bitmap happens to be encoded, and
// a fast conversion to the dense 32-bit-word layout of lib/token_set/dense_mask.h.
//
// Both walk CRoaring's containers directly (array, bitset and run containers of 2^16 ids each).
// This file is the only place that knows that layout, so a CRoaring upgrade touches it alone.
#pragma once

#include <cstdint>
#include <roaring/roaring.hh>
#include <span>
#include <string>
#include <vector>

namespace glrmask {

// CRoaring 0.2.x names its C++ class ::Roaring; later releases call it roaring::Roaring.
using RoaringBitmap = ::Roaring;

// A 64-bit hash of the set's contents. Equal sets hash equally whatever their container types
// (array, bitset, run, shared) — two bitmaps with the same ids may be encoded differently
// depending on how they were built and whether runOptimize ran. Cost: linear in the number of
// nonzero 64-bit words of the set, at most 1024 per 2^16 ids.
std::uint64_t content_hash(const RoaringBitmap& set);

// Writes the set into `words` (bit i of word i/32 = id i) and zeroes every other word of the span.
// ORs the set into `words`, leaving the other bits alone.
// Both throw glrmask::Error if the set holds an id >= 32 * words.size(). Neither allocates.
void write_dense(const RoaringBitmap& set, std::span<std::uint32_t> words);
void or_dense(const RoaringBitmap& set, std::span<std::uint32_t> words);

// One container of a set reduced to what the dense export reads: which 2^16 ids it covers, how
// they are stored and where. Reaching a container through CRoaring costs three dependent loads
// (bitmap, container table, container header) before its data; a flat list of segments costs one,
// and lets the loads of several sets overlap (lib/token_set/dense_sources.h). `data` points into
// the set's own storage and stays valid while the set is alive and unchanged.
struct DenseSegment {
  enum class Kind : std::uint8_t { kBitset, kArray, kRun };
  const void* data;    // 1024 uint64 words, `count` uint16 values, or `count` runs
  std::uint32_t key;   // the segment covers ids [key * 2^16, (key + 1) * 2^16)
  std::int32_t count;  // values or runs; unused for a bitset
  Kind kind;
};
// Appends the segments of `set`, in ascending key order.
void append_dense_segments(const RoaringBitmap& set, std::vector<DenseSegment>& out);
// write_dense / or_dense over segments. The caller guarantees (as append_dense_segments' set
// was checked by the pool) that every id fits `words`.
void write_dense_segments(std::span<const DenseSegment> segments, std::span<std::uint32_t> words);
void or_dense_segments(std::span<const DenseSegment> segments, std::span<std::uint32_t> words);
// Asks the memory system for the first cache lines of each segment's data.
void prefetch_dense_segments(std::span<const DenseSegment> segments);

// What is wrong with a bitmap whose containers came from outside (a frozen image,
// frozen.h), or "" when it is well formed: keys strictly ascending; every container
// non-empty; array containers of at most 4096 strictly ascending values; run containers of
// ascending, non-overlapping runs that end below 2^16; bitset containers whose recorded
// cardinality is their number of set bits (CRoaring sizes buffers by it); every id < universe.
// These are the invariants CRoaring's readers and write_dense / or_dense rely on. Cost: one pass
// over the containers (popcount over the bitsets).
std::string describe_malformation(const RoaringBitmap& set, std::uint32_t universe);

}  // namespace glrmask
