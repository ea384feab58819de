#pragma once
// Helpers of the config tests: a scratch folder per test, files with given text, the InputError of a call.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cosched/common/error.hpp"

namespace cosched::config::testing {

inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "-" + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';  // parameterized names
  }
  auto dir = std::filesystem::temp_directory_path() / ("cosched-config-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
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

}  // namespace cosched::config::testing
