#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wayfinder {

/// Reads a whole file into a string; throws LoadError (line 0) if it cannot be opened or read.
std::string read_text_file(const std::filesystem::path& path);

/// Writes `text` to a file, replacing it; throws std::runtime_error naming the file if it
/// cannot be opened or written.
void write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace wayfinder
