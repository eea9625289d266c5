// Token sets in CRoaring's *frozen* layout: the containers' bytes as they lie in memory, followed
// by keys, cardinalities and container types. A frozen image is read back as a view: container
// headers point into the image, nothing is decoded or copied, so a compiled artifact of 100 MiB
// of token sets loads by checking bytes, not by building bitmaps (mask_artifact.h).
//
// The layout is CRoaring's (roaring_bitmap_frozen_serialize / roaring_bitmap_frozen_view in
// 0.2.66), host byte order; an image must start 32-byte aligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/token_set/roaring.h"

namespace glrmask {

inline constexpr std::size_t kFrozenImageAlignment = 32;

// The size of the frozen image of `set`, and the image itself (frozen_size(set) bytes at `out`).
std::size_t frozen_size(const RoaringBitmap& set);
void write_frozen(const RoaringBitmap& set, char* out);

// A read-only RoaringBitmap whose containers live in a frozen image that the owner of the
// FrozenBitmap keeps alive and unchanged. Every const operation of RoaringBitmap works on it;
// copies are ordinary bitmaps.
class FrozenBitmap {
 public:
  // Views `image`. Throws glrmask::Error saying what is wrong (the caller adds where) when the
  // image is not 32-byte aligned, CRoaring does not accept it, or the set it describes is not
  // well formed for a universe of `universe` ids (describe_malformation in roaring.h):
  // reading a malformed set could go out of bounds, so a damaged image is refused here rather
  // than trusted.
  static FrozenBitmap view(std::string_view image, std::uint32_t universe);
  // Views `image` with only CRoaring's own checks (alignment, a known type per container, the
  // containers inside the image): the layout of the set — keys, kinds, sizes, data addresses —
  // may be read, its contents not before defect() returned "". For loads that check each set on
  // its first use rather than all of them up front. Throws glrmask::Error as view() does.
  static FrozenBitmap view_layout(std::string_view image);
  // What view() would refuse in a view_layout() view for a universe of `universe` ids, or "".
  std::string defect(std::uint32_t universe) const;

  // No set: the placeholder a pool keeps until the view is made (token_set.h).
  FrozenBitmap() = default;
  FrozenBitmap(FrozenBitmap&& other) noexcept;
  FrozenBitmap& operator=(FrozenBitmap&& other) noexcept;
  FrozenBitmap(const FrozenBitmap&) = delete;
  FrozenBitmap& operator=(const FrozenBitmap&) = delete;
  ~FrozenBitmap();

  const RoaringBitmap& bitmap() const { return bitmap_; }

 private:
  void release();

  // A shallow copy of view_'s header: RoaringBitmap's destructor would free containers it does
  // not own, so release() empties it first.
  RoaringBitmap bitmap_;
  // CRoaring's own allocation for the view (the container headers); freed by release().
  const roaring_bitmap_t* view_ = nullptr;
};

}  // namespace glrmask
