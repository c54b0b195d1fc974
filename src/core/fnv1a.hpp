#pragma once
// FNV-1a (Fowler, Noll and Vo), the 64-bit checksum of Wayfinder's binary files (the grid's
// tables, baked navigation meshes). Not cryptographic: it catches damage, not tampering. Any
// single changed byte changes the result (each step is a bijection of the running hash).

#include <cstddef>
#include <cstdint>

namespace wayfinder {

inline constexpr std::uint64_t fnv1a_offset_basis = 14695981039346656037ull;
inline constexpr std::uint64_t fnv1a_prime = 1099511628211ull;

/// Continues the hash `hash` over `size` bytes.
inline std::uint64_t fnv1a_add(std::uint64_t hash, const unsigned char* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * fnv1a_prime;
  return hash;
}

/// FNV-1a over bytes, from the standard offset basis.
inline std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
  return fnv1a_add(fnv1a_offset_basis, data, size);
}

}  // namespace wayfinder
