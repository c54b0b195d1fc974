#pragma once

#include <filesystem>
#include <string>

namespace wayfinder {

/// Reads a whole file into a string; throws LoadError (line 0) if it cannot be opened or read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace wayfinder
