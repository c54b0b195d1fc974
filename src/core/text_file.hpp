#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace wayfinder {

/// The most bytes read_text_file reads: no world file Wayfinder reads comes near it; a larger
/// "file" is almost certainly a mistake (a device, a disk image) and reading it would only
/// exhaust memory.
inline constexpr std::size_t max_text_file_bytes = std::size_t{256} << 20;

/// Reads a whole file into a string; throws LoadError (line 0) if it cannot be opened or read,
/// and if it has more than `max_bytes` bytes: up front when its size is known, otherwise once
/// max_bytes + 1 bytes are read (line: the line reached).
std::string read_text_file(const std::filesystem::path& path);
std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes);

/// Writes `text` to a file, replacing it; throws std::runtime_error naming the file if it
/// cannot be opened or written.
void write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace wayfinder
