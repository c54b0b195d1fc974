#pragma once
// A folder of the test's own for the files a test writes, removed when the test ends, and a
// fixture that gives every test of a suite one.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace wayfinder::testing {

/// A folder of its own under the system temp folder (named after the process and the running
/// test, so that tests run in parallel never share one), removed at the end of the test. Made
/// while a test runs (in its body or as a member of its fixture).
class TemporaryFolder {
 public:
  TemporaryFolder() {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("wayfinder-test-" + std::to_string(::getpid()) + "-" + test->test_suite_name() + "-" + test->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  /// Writes `content` to the file `name` in the folder and returns its path.
  [[nodiscard]] std::filesystem::path write(const std::string& name, std::string_view content) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return file;
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// A fixture whose tests each write their files into a TemporaryFolder of their own
/// (`directory_`); a test suite derives its fixture from it to have its own name.
class TemporaryFolderTest : public ::testing::Test {
 protected:
  TemporaryFolder folder_;
  const std::filesystem::path& directory_ = folder_.path();
};

}  // namespace wayfinder::testing
