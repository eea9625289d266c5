#include "lib/token_set/frozen.h"

#include <fmt/format.h>
#include <roaring/roaring.h>

#include <cstdint>
#include <string>
#include <utility>

#include "lib/core/error.h"

namespace glrmask {

std::size_t frozen_size(const RoaringBitmap& set) {
  return roaring_bitmap_frozen_size_in_bytes(&set.roaring);
}

void write_frozen(const RoaringBitmap& set, char* out) {
  roaring_bitmap_frozen_serialize(&set.roaring, out);
}

FrozenBitmap FrozenBitmap::view(std::string_view image, std::uint32_t universe) {
  FrozenBitmap frozen = view_layout(image);
  // The frozen view trusts the bytes; the checks below are what makes reading them safe.
  if (const std::string found = frozen.defect(universe); !found.empty())
    throw Error(found, ErrorCode::kArtifact);  // the destructor releases the view
  return frozen;
}

std::string FrozenBitmap::defect(std::uint32_t universe) const {
  return describe_malformation(bitmap_, universe);
}

FrozenBitmap FrozenBitmap::view_layout(std::string_view image) {
  if (reinterpret_cast<std::uintptr_t>(image.data()) % kFrozenImageAlignment != 0)
    throw Error(fmt::format("a frozen token set must start {}-byte aligned", kFrozenImageAlignment),
                ErrorCode::kArtifact);
  FrozenBitmap frozen;
  frozen.view_ = roaring_bitmap_frozen_view(image.data(), image.size());
  if (frozen.view_ == nullptr)
    throw Error(
        fmt::format("CRoaring does not accept the {} bytes as a frozen bitmap", image.size()),
        ErrorCode::kArtifact);
  frozen.bitmap_.roaring.high_low_container = frozen.view_->high_low_container;
  return frozen;
}

FrozenBitmap::FrozenBitmap(FrozenBitmap&& other) noexcept
    : view_(std::exchange(other.view_, nullptr)) {
  bitmap_.roaring.high_low_container = other.bitmap_.roaring.high_low_container;
  other.bitmap_.roaring.high_low_container = roaring_array_t{};
}

FrozenBitmap& FrozenBitmap::operator=(FrozenBitmap&& other) noexcept {
  if (this != &other) {
    release();
    view_ = std::exchange(other.view_, nullptr);
    bitmap_.roaring.high_low_container = other.bitmap_.roaring.high_low_container;
    other.bitmap_.roaring.high_low_container = roaring_array_t{};
  }
  return *this;
}

FrozenBitmap::~FrozenBitmap() {
  release();
}

void FrozenBitmap::release() {
  // An empty header owns nothing, so ~RoaringBitmap frees nothing; a frozen view's free releases
  // only CRoaring's header allocation, never the image.
  bitmap_.roaring.high_low_container = roaring_array_t{};
  if (view_ != nullptr) roaring_bitmap_free(view_);
  view_ = nullptr;
}

}  // namespace glrmask
