#pragma once
// The one error type every loader throws: it names the file, the line and column (1-based,
// 0 when not applicable) and the cause, formatted as "file:line:column: cause".

#include <stdexcept>
#include <string>

namespace wayfinder {

class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, int line, int column, std::string cause)
      : std::runtime_error(format(file, line, column, cause)),
        file_(std::move(file)), line_(line), column_(column), cause_(std::move(cause)) {}

  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] int column() const { return column_; }
  [[nodiscard]] const std::string& cause() const { return cause_; }

 private:
  static std::string format(const std::string& file, int line, int column, const std::string& cause) {
    std::string text = file;
    if (line > 0) text += ":" + std::to_string(line);
    if (line > 0 && column > 0) text += ":" + std::to_string(column);
    return text + ": " + cause;
  }

  std::string file_;
  int line_;
  int column_;
  std::string cause_;
};

}  // namespace wayfinder
