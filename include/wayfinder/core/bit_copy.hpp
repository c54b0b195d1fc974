#pragma once
// The bit pattern of a value as another type of the same size: std::bit_cast where the standard
// library has it, else a std::memcpy, which compilers turn into the same single move. The
// fallback is for standard libraries without std::bit_cast, such as the libc++ of emscripten
// 3.1.6 (the WebAssembly build, docs/javascript.md).

#include <cstring>
#include <type_traits>
#include <version>
#if defined(__cpp_lib_bit_cast)
#include <bit>
#endif

namespace wayfinder {

template <class To, class From>
[[nodiscard]] inline To bit_copy(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_copy needs types of the same size");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
  return std::bit_cast<To>(from);
#else
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
#endif
}

}  // namespace wayfinder
