// Replays every seed (corpus/<target>/) and every saved fuzzer finding (regressions/<target>/) through its fuzz
// target in the normal build: each input must be parsed or rejected with a cosched::Error — no other exception,
// no crash (under scripts/test.sh --sanitize: no sanitizer report either).
#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <typeinfo>
#include <string>
#include <vector>

#include "targets/targets.hpp"

namespace cosched::fuzz {

// Test names and failure messages show the target's name.
void PrintTo(const Target& target, std::ostream* out) { *out << target.name; }

namespace {

const std::filesystem::path fuzz_dir = COSCHED_SOURCE_DIR "/tests/fuzz";

std::vector<std::filesystem::path> files_in(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string contents_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs each file through the target; returns how many were run.
std::size_t replay(const Target& target, const std::filesystem::path& folder) {
  const auto files = files_in(folder);
  for (const auto& file : files) {
    try {
      run_target(target.run, contents_of(file));
    } catch (const std::exception& e) {
      ADD_FAILURE() << file << ": escaped as " << typeid(e).name() << ": " << e.what();
    }
  }
  return files.size();
}

class FuzzReplayTest : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzReplayTest, EverySeedIsParsedOrRejectedCleanly) {
  EXPECT_GT(replay(GetParam(), fuzz_dir / "corpus" / GetParam().name), 0U)
      << "no seeds in corpus/" << GetParam().name;
}

TEST_P(FuzzReplayTest, EverySavedFindingIsParsedOrRejectedCleanly) {
  (void)replay(GetParam(), fuzz_dir / "regressions" / GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(Parsers, FuzzReplayTest, ::testing::ValuesIn(kTargets),
                         [](const auto& test_param) { return std::string(test_param.param.name); });

// Every target's folder name is a target: a seed or a finding in a misspelt folder would never be replayed.
TEST(FuzzFoldersTest, EveryFolderNamesATarget) {
  for (const char* kind : {"corpus", "regressions"}) {
    for (const auto& entry : std::filesystem::directory_iterator(fuzz_dir / kind)) {
      if (!entry.is_directory()) continue;
      const auto name = entry.path().filename().string();
      EXPECT_TRUE(std::any_of(std::begin(kTargets), std::end(kTargets),
                              [&](const Target& target) { return name == target.name; }))
          << kind << "/" << name << " is no fuzz target";
    }
  }
}

}  // namespace
}  // namespace cosched::fuzz
