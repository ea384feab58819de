#pragma once
// Helpers shared by the profiler tests: a scratch folder per test, files with given text, a deterministic
// measurer that counts its calls.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler::testing {

inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() /
             ("cosched-profiler-" + std::to_string(getpid()) + "-" + info->test_suite_name() + "-" + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::filesystem::path write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Times t = footprint_MiB / cores * (2 - chunks/20) + rep * 1e-3: distinct per point and per rep, so a wrong
// row or a mixed-up median shows. Can raise `stop` after a number of calls to act like a Ctrl-C.
class CountingMeasurer final : public PointMeasurer {
 public:
  unsigned calls = 0;
  unsigned finishes = 0;
  unsigned stop_after = 0;  // 0: never
  std::atomic<bool>* stop = nullptr;

  std::string_view name() const override { return "counting"; }
  void check_kernel(const std::string&) const override {}
  Measurement measure(const ProfilePoint& p) override {
    ++calls;
    if (stop != nullptr && calls == stop_after) stop->store(true);
    const double base = static_cast<double>(p.footprint_bytes) / (1 << 20) / p.cores * (2.0 - p.chunks / 20.0);
    Measurement m;
    for (int rep = 0; rep < 3; ++rep) m.times_s.push_back(base + rep * 1e-3);
    m.overhead_free_s = 3 * base;
    return m;
  }
  void finish() override { ++finishes; }
  nlohmann::json describe() const override { return {{"measurer", "counting"}}; }
};

}  // namespace cosched::profiler::testing
