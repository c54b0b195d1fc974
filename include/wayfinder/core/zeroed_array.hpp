#pragma once
// A fixed-size array of trivially copyable records that starts all zero bytes and whose memory
// is committed only where it is written.
//
// Allocated with std::calloc: large blocks come from the operating system as zero pages mapped
// on first touch, so allocating costs microseconds and the memory held grows with the pages
// written (4 KiB at a time), not with the array's size (why search state needs this: the
// Threads section of docs/architecture.md). Small blocks may be zeroed eagerly.
//
// The records' zero state must mean "not reached in any query": the search contexts stamp each
// record with a query generation that is never zero.

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace wayfinder {

template <class T>
  requires std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>
class ZeroedArray {
 public:
  ZeroedArray() = default;
  ~ZeroedArray() { std::free(data_); }
  ZeroedArray(ZeroedArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;

  /// Replaces the contents by `count` zeroed records (the old contents are dropped, not
  /// copied). Throws std::bad_alloc if the memory cannot be reserved.
  void reset_zeroed(std::size_t count) {
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    if (count == 0) return;
    data_ = static_cast<T*>(std::calloc(count, sizeof(T)));
    if (data_ == nullptr) throw std::bad_alloc();
    size_ = count;
  }
  /// Frees the memory.
  void release() { reset_zeroed(0); }

  [[nodiscard]] std::size_t size() const { return size_; }
  /// Bytes reserved (an upper bound: untouched pages are not committed).
  [[nodiscard]] std::size_t reserved_bytes() const { return size_ * sizeof(T); }
  T& operator[](std::size_t index) { return data_[index]; }
  const T& operator[](std::size_t index) const { return data_[index]; }
  T* data() { return data_; }
  const T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace wayfinder
