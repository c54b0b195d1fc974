#include "core/text_file.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
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


struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

std::string describe_errno(int error) {
  return error != 0 ? std::generic_category().message(error) : std::string("input/output error");
}

}  // namespace

std::string read_text_file(const std::filesystem::path& path) { return read_text_file(path, max_text_file_bytes); }

std::string read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
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
    if (!error && size > max_bytes)
      throw LoadError(name, 0, 0, "file too large: " + std::to_string(size) + " bytes (the limit is " +
                                      std::to_string(max_bytes) + " bytes)");
    if (!error) text.reserve(static_cast<std::size_t>(size));
  }
  // A file of unknown size (a pipe, a device) is read up to the limit and no further: the error
  // names the line the limit was reached on.
  char buffer[1 << 16];
  errno = 0;
  while (true) {
    const std::size_t room = max_bytes - text.size();  // text.size() <= max_bytes here
    const std::size_t got = std::fread(buffer, 1, room < sizeof buffer ? room + 1 : sizeof buffer, file.get());
    text.append(buffer, got);
    if (text.size() > max_bytes) {
      const auto line = std::count(text.begin(), text.end(), '\n') + 1;
      throw LoadError(name, line > INT_MAX ? INT_MAX : static_cast<int>(line), 0,
                      "file too large: more than " + std::to_string(max_bytes) + " bytes");
    }
    if (got == 0 || std::feof(file.get()) || std::ferror(file.get())) break;
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
