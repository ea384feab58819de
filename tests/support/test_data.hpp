#pragma once
// Where the tests find their data:
//   - tests/data/ of this repository (COSCHED_TEST_DATA_DIR): always there; everything a test needs to pass;
//   - the workplace's shared/data/ next to the repository (COSCHED_SHARED_DIR): large traces, absent from a user's
//     clone. A test that needs one goes through COSCHED_SHARED_DATA_OR_SKIP and skips, with a message naming the
//     file, when it is missing — it never fails or aborts for that.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace cosched::test {

// A file of tests/data/, e.g. test_data_file("topologies/knl-64c-flat-snc4.xml").
[[nodiscard]] inline std::filesystem::path test_data_file(const std::string& relative) {
  return std::filesystem::path(COSCHED_TEST_DATA_DIR) / relative;
}

// An hwloc XML of tests/data/topologies/ by file name.
[[nodiscard]] inline std::string topology_xml(const std::string& name) {
  return test_data_file("topologies/" + name).string();
}

// `root`/data/`relative` when it is a regular file; nullopt otherwise (no exception: safe at test discovery).
[[nodiscard]] inline std::optional<std::filesystem::path> find_data_file(const std::filesystem::path& root,
                                                                         const std::string& relative) {
  auto path = root / "data" / relative;
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) return path;
  return std::nullopt;
}

[[nodiscard]] inline std::string missing_data_message(const std::filesystem::path& root,
                                                      const std::string& relative) {
  return "needs " + (root / "data" / relative).string() +
         ", which is not here (large data kept outside the repository in the workplace's shared/ folder; "
         "configure with -DCOSCHED_SHARED_DIR=... to run this test)";
}

[[nodiscard]] inline std::filesystem::path shared_dir() { return COSCHED_SHARED_DIR; }

}  // namespace cosched::test

// Declares `const std::filesystem::path variable` = `root`/data/`relative`, or skips the current test (GTEST_SKIP
// returns from the enclosing function) when that file is missing.
#define COSCHED_DATA_OR_SKIP(variable, root, relative)                                                          \
  const auto variable##_found = ::cosched::test::find_data_file((root), (relative));                           \
  if (!variable##_found) GTEST_SKIP() << ::cosched::test::missing_data_message((root), (relative));            \
  const std::filesystem::path variable = *variable##_found

// The same for the workplace's shared/ folder:
//   COSCHED_SHARED_DATA_OR_SKIP(trace, "traces/KTH-SP2-1996-2.1-cln.swf.gz");
#define COSCHED_SHARED_DATA_OR_SKIP(variable, relative) \
  COSCHED_DATA_OR_SKIP(variable, ::cosched::test::shared_dir(), relative)
