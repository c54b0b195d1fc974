#include "output_paths.hpp"

#include <filesystem>
#include <system_error>

#include "command_error.hpp"

namespace wayfinder::cli {

bool same_file(const std::string& first, const std::string& second) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(first, error) && fs::exists(second, error)) return fs::equivalent(first, second, error);
  // weakly_canonical leaves a relative path with no existing part relative: make it absolute first.
  const fs::path a = fs::weakly_canonical(fs::absolute(first, error), error);
  if (error) return false;
  const fs::path b = fs::weakly_canonical(fs::absolute(second, error), error);
  return !error && a == b;
}

void refuse_output_over(const std::string& output_flag, const std::string& output_path, const std::string& input_name,
                        const std::string& input_path) {
  if (!same_file(output_path, input_path)) return;
  throw CommandError(output_flag + " " + output_path + " is " + input_name + " (" + input_path +
                         "): writing there would overwrite it; give another output file",
                     output_path);
}

}  // namespace wayfinder::cli
