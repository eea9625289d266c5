// An immutable array that either owns its elements or views them where they lie in a mapped
// file (MappedFile), so that a loaded artifact's large tables are read in place instead of copied.
// The owner of a view keeps the mapping alive as long as the array (a compiled artifact's
// CompiledMask does, through its token set pool). Copies own their elements; moves keep a view
// a view and an owned array at its address.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace glrmask {

template <typename T>
class MappedArray {
 public:
  MappedArray() = default;
  // Implicit, as a drop-in for the vector it replaces.
  MappedArray(std::vector<T> owned)
      : owned_(std::move(owned)), data_(owned_.data()), size_(owned_.size()) {}
  static MappedArray view(std::span<const T> elements) {
    MappedArray array;
    array.data_ = elements.data();
    array.size_ = elements.size();
    return array;
  }

  MappedArray(const MappedArray& other) : MappedArray(std::vector<T>(other.begin(), other.end())) {}
  MappedArray& operator=(const MappedArray& other) {
    if (this != &other) *this = MappedArray(other);
    return *this;
  }
  // A moved vector keeps its buffer, so data_ stays valid for owned elements too.
  MappedArray(MappedArray&& other) noexcept
      : owned_(std::move(other.owned_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  MappedArray& operator=(MappedArray&& other) noexcept {
    owned_ = std::move(other.owned_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  operator std::span<const T>() const { return {data_, size_}; }
  bool is_view() const { return size_ != 0 && owned_.empty(); }

 private:
  std::vector<T> owned_;
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace glrmask
