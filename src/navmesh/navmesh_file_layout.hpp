#pragma once
// The layout of a baked navigation mesh file (.wfnav), shared by its writer and its reader.
// docs/navmesh-file.md describes it for readers in other languages. All numbers little-endian.
//
//   header (64 bytes)
//     8 bytes   magic "WFNAV\r\n\x1a" (the line ending and the DOS end-of-file byte catch a file
//               mangled by a text transfer)
//     u32       format version (navmesh_file_version)
//     u32       header size in bytes (64)
//     16 bytes  writer, "Wayfinder" padded with zero bytes
//     16 bytes  content, "navmesh" padded with zero bytes
//     u64       size of the whole file in bytes
//     u32       number of sections
//     u32       zero (reserved)
//   sections, each: u32 tag (4 ASCII letters), u32 zero, u64 payload size, payload
//   u64         FNV-1a of every byte before it
//
// Version 2 has these sections, each once, in this order (version 1, still read, has the first
// five only):
//   VERT  u32 n; n x (f64 x, y, z)
//   POLY  u32 polygons, u32 indices; polygons x u32 vertex count; indices x u32 vertex index
//   TAGS  u32 n (0 or one per polygon); n x u8 area; n x u16 flags
//   DETL  u32 vertices, u32 triangles, u32 starts (0 or polygons + 1);
//         vertices x (f64 x, y, z); triangles x 3 u32; starts x u32
//   LINK  u32 n; n x 72 bytes: f64 start x, y, z; f64 end x, y, z; f64 radius; f64 cost;
//         u32 user id; u16 flags; u8 area; u8 bits (1: two-way, 2: has a cost; others zero)
//   TILE  u32 tiles (0: the mesh is not tiled, and nothing follows); else f64 origin x, origin z,
//         tile width, border climb; u32 tiles x, tiles z, max polygons per tile; then per tile,
//         in tile order (z, then x): u32 tile x, u32 tile z, and the tile's own geometry as the
//         payloads of VERT, POLY, TAGS and DETL (indices local to the tile). A tiled mesh's
//         VERT, POLY, TAGS and DETL sections are empty: its geometry is its tiles'.
// and then, optionally, one section a program reads beside the mesh:
//   TCCH  the tile cache's data (navmesh_build's NavMeshTileCache, its own layout there)

#include <array>
#include <cstddef>
#include <cstdint>

namespace wayfinder::navmesh_file {

inline constexpr std::array<unsigned char, 8> magic = {'W', 'F', 'N', 'A', 'V', '\r', '\n', 0x1a};
inline constexpr std::uint32_t version = 2;
/// The oldest version this build reads.
inline constexpr std::uint32_t oldest_version = 1;
inline constexpr std::size_t header_size = 64;
inline constexpr std::size_t name_field_size = 16;
inline constexpr char writer_name[] = "Wayfinder";
inline constexpr char content_name[] = "navmesh";
inline constexpr std::size_t section_header_size = 16;
inline constexpr std::size_t checksum_size = 8;

/// The sections of version 2, in file order; version 1 has the first five.
inline constexpr std::array<std::array<char, 4>, 6> section_tags = {{{'V', 'E', 'R', 'T'},
                                                                    {'P', 'O', 'L', 'Y'},
                                                                    {'T', 'A', 'G', 'S'},
                                                                    {'D', 'E', 'T', 'L'},
                                                                    {'L', 'I', 'N', 'K'},
                                                                    {'T', 'I', 'L', 'E'}}};
inline constexpr std::size_t version_1_sections = 5;
/// The optional section after them.
inline constexpr std::array<char, 4> tile_cache_tag = {'T', 'C', 'C', 'H'};

inline constexpr std::size_t point_bytes = 24;
inline constexpr std::size_t link_bytes = 72;
inline constexpr std::uint8_t link_two_way = 1;
inline constexpr std::uint8_t link_has_cost = 2;

}  // namespace wayfinder::navmesh_file
