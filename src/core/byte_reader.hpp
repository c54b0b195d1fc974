#pragma once
// Reading and writing the little-endian numbers of Wayfinder's binary files (the baked navmesh
// file, the tile cache's data in it): a reader that checks every read against the bytes left and
// fails with a LoadError naming the byte offset, and a writer that appends. Internal.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "wayfinder/core/bit_copy.hpp"
#include "wayfinder/core/load_error.hpp"
#include "wayfinder/core/types.hpp"

namespace wayfinder {

// Reads little-endian numbers from [begin, end) of the file, failing with the offset of what it
// could not read. Every count is checked against the bytes left before anything is allocated.
class ByteReader {
 public:
  // `reported_base` is added to the offsets errors name: where `bytes` start in their file.
  ByteReader(std::string_view bytes, std::size_t begin, std::size_t end, const std::string& source,
             std::size_t reported_base = 0)
      : bytes_(bytes), offset_(begin), end_(end), source_(source), reported_base_(reported_base) {}

  [[noreturn]] void fail(std::size_t offset, const std::string& why) const {
    throw LoadError(source_, 0, 0, why + " (at byte " + std::to_string(reported_base_ + offset) + ")");
  }
  [[nodiscard]] std::size_t offset() const { return offset_; }
  [[nodiscard]] std::size_t left() const { return end_ - offset_; }

  std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(unsigned_le(1, what)); }
  std::uint16_t u16(const char* what) { return static_cast<std::uint16_t>(unsigned_le(2, what)); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(unsigned_le(4, what)); }
  std::uint64_t u64(const char* what) { return unsigned_le(8, what); }
  double finite(const char* what) {
    const std::size_t at = offset_;
    const double value = bit_copy<double>(u64(what));
    if (!std::isfinite(value)) fail(at, std::string(what) + " is not a finite number");
    return value;
  }
  float finite_float(const char* what) {
    const std::size_t at = offset_;
    const float value = bit_copy<float>(u32(what));
    if (!std::isfinite(value)) fail(at, std::string(what) + " is not a finite number");
    return value;
  }
  Point point(const char* what) {
    const double x = finite(what), y = finite(what), z = finite(what);
    return {x, y, z};
  }
  // A count of items of `item_bytes` each that must fit in what is left of the section.
  std::uint32_t count(const char* what, std::size_t item_bytes) {
    const std::size_t at = offset_;
    const std::uint32_t n = u32(what);
    if (n > left() / item_bytes)
      fail(at, std::to_string(n) + " " + what + " need " + std::to_string(std::uint64_t{n} * item_bytes) +
                   " bytes, the section has " + std::to_string(left()) + " left");
    return n;
  }
  // An index that must be below `limit`.
  std::uint32_t index(const char* what, std::uint32_t limit, const char* of_what) {
    const std::size_t at = offset_;
    const std::uint32_t value = u32(what);
    if (value >= limit)
      fail(at, std::string(what) + " " + std::to_string(value) + " is out of range: there are " +
                   std::to_string(limit) + " " + of_what);
    return value;
  }
  void skip(std::size_t count, const char* what) {
    if (left() < count)
      fail(offset_, std::string("truncated: ") + what + " need " + std::to_string(count) + " bytes, " +
                        std::to_string(left()) + " left");
    offset_ += count;
  }
  [[nodiscard]] std::string_view rest() const { return bytes_.substr(offset_, end_ - offset_); }
  void zero(const char* what) {
    const std::size_t at = offset_;
    if (u32(what) != 0) fail(at, std::string(what) + " is not zero");
  }

 private:
  std::uint64_t unsigned_le(int count, const char* what) {
    if (left() < static_cast<std::size_t>(count))
      fail(offset_, std::string("truncated: ") + what + " needs " + std::to_string(count) + " bytes, " +
                        std::to_string(left()) + " left");
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i)
      value |= std::uint64_t{static_cast<unsigned char>(bytes_[offset_ + static_cast<std::size_t>(i)])} << (8 * i);
    offset_ += static_cast<std::size_t>(count);
    return value;
  }

  std::string_view bytes_;
  std::size_t offset_;
  std::size_t end_;
  const std::string& source_;
  std::size_t reported_base_;
};

// Appends little-endian numbers to a file's bytes.
class ByteWriter {
 public:
  void u8(std::uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
  void u16(std::uint16_t value) { unsigned_le(value, 2); }
  void u32(std::uint32_t value) { unsigned_le(value, 4); }
  void u64(std::uint64_t value) { unsigned_le(value, 8); }
  void f32(float value) { u32(bit_copy<std::uint32_t>(value)); }
  void f64(double value) { u64(bit_copy<std::uint64_t>(value)); }
  void point(const Point& p) {
    f64(p.x);
    f64(p.y);
    f64(p.z);
  }
  [[nodiscard]] std::size_t size() const { return bytes_.size(); }
  // Overwrites 8 bytes at `offset` (a size known only once what follows is written).
  void patch_u64(std::size_t offset, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) bytes_[offset + static_cast<std::size_t>(i)] = static_cast<char>(value >> (8 * i));
  }
  std::string& bytes() { return bytes_; }

 private:
  void unsigned_le(std::uint64_t value, int count) {
    for (int i = 0; i < count; ++i) bytes_.push_back(static_cast<char>(value >> (8 * i)));
  }
  std::string bytes_;
};

}  // namespace wayfinder
