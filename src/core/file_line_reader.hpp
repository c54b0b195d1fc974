#pragma once
// The lines of a file, read a piece at a time. Readers of query lists use it so that asking for
// the first N queries reads only as far as query N: a benchmark run with --limit 10 on a
// scenario of ten million lines should take milliseconds, not seconds and gigabytes. It splits
// lines exactly as text::LineReader does (the same breaks, numbering and byte order mark), so a
// parser can take either. Internal to the library.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "text_fields.hpp"
#include "wayfinder/core/load_error.hpp"

namespace wayfinder::text {

class FileLineReader {
 public:
  /// Opens the file; throws LoadError (line 0) naming it if it cannot be opened.
  explicit FileLineReader(const std::filesystem::path& path, LineBreaks breaks = LineBreaks::lf_or_crlf)
      : name_(path.string()), breaks_(breaks) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status))
      throw LoadError(name_, 0, 0, "cannot open file: " + (error ? error.message() : std::string("no such file")));
    if (std::filesystem::is_directory(status)) throw LoadError(name_, 0, 0, "cannot open file: it is a directory");
    errno = 0;
    file_.reset(std::fopen(path.c_str(), "rb"));
    if (!file_) throw LoadError(name_, 0, 0, "cannot open file: " + describe_errno(errno));
  }

  /// The next line, or nullopt at the end of the file. Its text stays valid until the next call.
  std::optional<Line> next() {
    while (true) {
      const std::size_t stop = find_break();
      if (stop != std::string::npos || (at_end_ && position_ < buffer_.size())) {
        const std::size_t end = stop == std::string::npos ? buffer_.size() : stop;
        std::string_view text(buffer_.data() + position_, end - position_);
        if (breaks_ == LineBreaks::lf_or_crlf && text.ends_with('\r')) text.remove_suffix(1);
        position_ = end;
        if (position_ < buffer_.size()) {
          if (buffer_[position_] == '\r' && position_ + 1 < buffer_.size() && buffer_[position_ + 1] == '\n')
            ++position_;
          ++position_;
        }
        if (line_number_ < INT_MAX) ++line_number_;
        return Line{text, line_number_};
      }
      if (at_end_) return std::nullopt;
      read_more();
    }
  }

  /// The number the next line would have (one past the last line at the end of the file).
  [[nodiscard]] int next_number() const { return line_number_ < INT_MAX ? line_number_ + 1 : INT_MAX; }
  [[nodiscard]] int last_number() const { return line_number_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };

  // A line longer than this is no line of a query list (theirs are under a hundred bytes);
  // holding it would only exhaust memory.
 public:
  static constexpr std::size_t max_line_bytes = std::size_t{1} << 20;

 private:
  static constexpr std::size_t chunk_bytes = std::size_t{1} << 16;

  static std::string describe_errno(int error) {
    return error != 0 ? std::generic_category().message(error) : std::string("input/output error");
  }

  /// Where the line starting at position_ ends, if the buffer holds its end. A CR that is the
  /// last byte read may be the first half of CRLF, so with lone CRs as breaks it waits for more.
  /// The bytes searched before without a break are not searched again: a long line costs its
  /// length once, not once per piece read.
  [[nodiscard]] std::size_t find_break() {
    const char* breaks = breaks_ == LineBreaks::also_lone_cr ? "\r\n" : "\n";
    const std::size_t stop = buffer_.find_first_of(breaks, std::max(position_, searched_));
    if (stop == std::string::npos) {
      searched_ = buffer_.size();
      return stop;
    }
    if (buffer_[stop] == '\r' && stop + 1 == buffer_.size() && !at_end_) {
      searched_ = stop;
      return std::string::npos;
    }
    return stop;
  }

  void read_more() {
    buffer_.erase(0, position_);  // the lines handed out before are no longer needed
    searched_ -= std::min(searched_, position_);
    position_ = 0;
    if (buffer_.size() > max_line_bytes)
      throw LoadError(name_, next_number(), 0,
                      "line too long: more than " + std::to_string(max_line_bytes) + " bytes without a line break");
    const std::size_t old_size = buffer_.size();
    buffer_.resize(old_size + chunk_bytes);
    errno = 0;
    const std::size_t got = std::fread(buffer_.data() + old_size, 1, chunk_bytes, file_.get());
    buffer_.resize(old_size + got);
    if (got < chunk_bytes) {
      if (std::ferror(file_.get())) throw LoadError(name_, 0, 0, "cannot read file: " + describe_errno(errno));
      at_end_ = true;
    }
    if (!checked_byte_order_mark_ && (buffer_.size() >= utf8_byte_order_mark.size() || at_end_)) {
      checked_byte_order_mark_ = true;
      if (std::string_view(buffer_).starts_with(utf8_byte_order_mark)) position_ = utf8_byte_order_mark.size();
    }
  }

  std::string name_;
  LineBreaks breaks_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string buffer_;
  std::size_t position_ = 0;
  std::size_t searched_ = 0;  ///< buffer_[position_, searched_) holds no line break
  bool at_end_ = false;
  bool checked_byte_order_mark_ = false;
  int line_number_ = 0;
};

}  // namespace wayfinder::text
