#include "cosched/common/text_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cosched/common/error.hpp"

namespace cosched {
namespace {

TEST(TextFileTest, ReturnsTheBytesUnchanged) {
  const auto path = std::filesystem::temp_directory_path() / "cosched-text-file-test.txt";
  const std::string contents = "line 1\nline 2 without newline";
  std::ofstream(path, std::ios::binary) << contents;
  EXPECT_EQ(read_text_file(path, "test file"), contents);
  std::filesystem::remove(path);
}

TEST(TextFileTest, MissingFileIsAnInputErrorNamingFileAndPurpose) {
  try {
    (void)read_text_file("/nonexistent/cosched/run.jsonl", "journal");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/cosched/run.jsonl: cannot open journal");
  }
}

}  // namespace
}  // namespace cosched
