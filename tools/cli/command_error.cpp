#include "command_error.hpp"

#include <nlohmann/json.hpp>

namespace wayfinder::cli {

void report(const ErrorReport& error, bool json, std::ostream& out, std::ostream& err) {
  if (!json) {
    report_error(err, error.message);
    return;
  }
  auto optional_number = [](int value) {
    return value > 0 ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json object;
  object["error"] = error.message;
  object["file"] = error.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(error.file);
  object["line"] = optional_number(error.line);
  object["column"] = optional_number(error.column);
  object["exit"] = error.exit_code;
  // Messages quote file contents, which need not be UTF-8: replace what JSON cannot carry.
  out << object.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n' << std::flush;
}

bool asks_for_json(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--") return false;
    if (argument == "--json") return true;
    if (argument.starts_with("--json=")) {
      const std::string_view value = argument.substr(7);
      return value != "false" && value != "0" && value != "off" && value != "no";
    }
  }
  return false;
}

}  // namespace wayfinder::cli
