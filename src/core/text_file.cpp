#include "core/text_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "wayfinder/core/load_error.hpp"

namespace wayfinder {

namespace {

// No world file Wayfinder reads comes anywhere near this; a larger "file" is almost certainly a
// mistake (a device, a disk image) and reading it would only exhaust memory.
constexpr std::uintmax_t max_text_file_bytes = std::uintmax_t{1} << 30;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

std::string describe_errno(int error) {
  return error != 0 ? std::generic_category().message(error) : std::string("input/output error");
}

}  // namespace

std::string read_text_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw LoadError(name, 0, 0, "cannot open file: " + (error ? error.message() : std::string("no such file")));
  if (std::filesystem::is_directory(status)) throw LoadError(name, 0, 0, "cannot open file: it is a directory");

  errno = 0;
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw LoadError(name, 0, 0, "cannot open file: " + describe_errno(errno));

  // Read in chunks instead of trusting the size reported up front: it is absent for pipes and
  // may change while we read.
  std::string text;
  if (std::filesystem::is_regular_file(status)) {
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && size > max_text_file_bytes)
      throw LoadError(name, 0, 0, "file too large: " + std::to_string(size) + " bytes (the limit is " +
                                      std::to_string(max_text_file_bytes) + " bytes)");
    if (!error) text.reserve(static_cast<std::size_t>(size));
  }
  char buffer[1 << 16];
  errno = 0;
  while (true) {
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, file.get());
    text.append(buffer, got);
    if (text.size() > max_text_file_bytes)
      throw LoadError(name, 0, 0, "file too large: more than " + std::to_string(max_text_file_bytes) + " bytes");
    if (got < sizeof buffer) break;
  }
  if (std::ferror(file.get())) throw LoadError(name, 0, 0, "cannot read file: " + describe_errno(errno));
  return text;
}

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot open '" + path.string() + "' for writing");
  file.write(text.data(), static_cast<std::streamsize>(text.size()));
  file.close();
  if (!file) throw std::runtime_error("cannot write '" + path.string() + "'");
}

}  // namespace wayfinder
