#pragma once
// Helpers of the config tests: refused files and platform comparison (scratch folders, files and the InputError
// of a call come from the shared tests/support/files.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "support/files.hpp"

namespace cosched::config::testing {

using test_support::input_error_of;
using test_support::scratch_dir;
using test_support::write_file;

// A file that must be refused: its text, a fragment of the message, and the line the message names (0: none).
struct BadFile {
  const char* text;
  const char* fragment;
  int line;
};
inline void PrintTo(const BadFile& bad, std::ostream* out) { *out << bad.text; }

// Writes `bad.text` to a scratch file called `name`, reads it with `read` and checks the InputError: it names
// "name:line" (or just the file) and holds the fragment.
inline void expect_refused(const BadFile& bad, const std::string& name,
                           const std::function<void(const std::filesystem::path&)>& read) {
  const auto path = write_file(scratch_dir() / name, bad.text);
  const std::string what = input_error_of([&] { read(path); });
  const std::string where = bad.line > 0 ? name + ":" + std::to_string(bad.line) + ":" : name + ": ";
  EXPECT_NE(what.find(where), std::string::npos) << bad.text << " -> " << what;
  EXPECT_NE(what.find(bad.fragment), std::string::npos) << bad.text << " -> " << what;
}

// The fields a platform file carries (not its source).
inline void expect_same_platform(const PlatformConfig& read, const PlatformConfig& expected) {
  EXPECT_EQ(read.name, expected.name);
  EXPECT_EQ(read.cores, expected.cores);
  EXPECT_EQ(read.fast_capacity_bytes, expected.fast_capacity_bytes);
  EXPECT_EQ(read.fast_chunks, expected.fast_chunks);
  EXPECT_EQ(read.tier_backend, expected.tier_backend);
  EXPECT_EQ(read.emulation_ratio, expected.emulation_ratio);
}

}  // namespace cosched::config::testing
