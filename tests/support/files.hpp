#pragma once
// Test helpers every suite shares (tests/ is on each suite's include path: #include "support/files.hpp"): a scratch
// folder per test, files with given text, and the InputError message of a call.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::test_support {

namespace detail {
// Scratch folders are removed when the test process exits — only by the process that made them, since tests
// fork launchers and children that may exit normally while the test still reads the folder.
class ScratchRegistry {
 public:
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }
  ~ScratchRegistry() {
    if (::getpid() != owner_) return;
    std::error_code ignored;
    for (const auto& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

 private:
  pid_t owner_ = ::getpid();
  std::vector<std::filesystem::path> dirs_;
};
}  // namespace detail

// A fresh, empty folder for the running test (and `label`, for a test that wants several). ctest runs tests in
// parallel processes: the name carries the process id and the test's name ('/' of parameterized names -> '_').
inline std::filesystem::path scratch_dir(const std::string& label = "") {
  static detail::ScratchRegistry registry;
  std::string name = "cosched-test-" + std::to_string(::getpid());
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info(); info != nullptr) {
    name.append("-").append(info->test_suite_name()).append("-").append(info->name());
  }
  if (!label.empty()) name.append("-").append(label);
  std::replace(name.begin(), name.end(), '/', '_');
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  registry.add(dir);
  return dir;
}

// Writes `text` to `path` as is and returns `path`.
inline std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The whole file ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `call` and returns the InputError message; fails the test when it returns or throws something else.
template <typename Call>
std::string input_error_of(Call call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InputError";
  return {};
}

}  // namespace cosched::test_support
