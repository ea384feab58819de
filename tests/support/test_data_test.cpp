// The test-data helpers: tests/data/ is complete, and a missing shared/ file gives a skip, never an exception.
#include "support/test_data.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

namespace cosched::test {
namespace {

class ScratchRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("cosched-test-data-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(root_ / "data" / "traces" / "folder.swf");
    std::ofstream(root_ / "data" / "traces" / "small.swf") << "; header\n";
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
};

TEST_F(ScratchRoot, FindsARegularFile) {
  const auto found = find_data_file(root_, "traces/small.swf");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, root_ / "data" / "traces" / "small.swf");
}

TEST_F(ScratchRoot, MissingFileOrFolderIsNotFound) {
  EXPECT_FALSE(find_data_file(root_, "traces/absent.swf").has_value());
  EXPECT_FALSE(find_data_file(root_, "traces/folder.swf").has_value());
  EXPECT_FALSE(find_data_file(root_ / "no-such-root", "traces/small.swf").has_value());
}

TEST_F(ScratchRoot, MissingMessageNamesThePathAndTheCacheVariable) {
  const auto message = missing_data_message(root_, "traces/absent.swf");
  EXPECT_NE(message.find((root_ / "data" / "traces" / "absent.swf").string()), std::string::npos) << message;
  EXPECT_NE(message.find("COSCHED_SHARED_DIR"), std::string::npos) << message;
}

// Runs the rest of a test body only when root/data/relative exists.
void body_needing(const std::filesystem::path& root, const std::string& relative, bool& reached_the_end) {
  COSCHED_DATA_OR_SKIP(path, root, relative);
  EXPECT_TRUE(std::filesystem::is_regular_file(path));
  reached_the_end = true;
}

TEST_F(ScratchRoot, DataOrSkipGoesOnWhenTheFileExists) {
  bool reached_the_end = false;
  body_needing(root_, "traces/small.swf", reached_the_end);
  EXPECT_TRUE(reached_the_end);
  EXPECT_FALSE(IsSkipped());
}

// This test reports itself as skipped: that is its point (a failure would still show as a failure).
TEST_F(ScratchRoot, DataOrSkipSkipsWhenTheFileIsMissing) {
  bool reached_the_end = false;
  body_needing(root_, "traces/absent.swf", reached_the_end);
  EXPECT_FALSE(reached_the_end);
  EXPECT_TRUE(IsSkipped());
}

TEST(TestDataTest, EveryTopologyTheTestsNameIsInTheRepository) {
  for (const char* name : {"knl-64c-flat-quadrant.xml", "knl-64c-flat-snc4.xml", "knl-7250-68c-flat-quadrant.xml",
                           "knl-7250F-68c-cache-quadrant.xml", "knl-fake16c-snc4-hybrid50-mcdram-memattrs.xml",
                           "knl-fake4c-a2a-hybrid50-mcdram.xml", "xeon-8168-2s-skylake.xml",
                           "xeonmax-9462-2s-flat-hbm.xml"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(topology_xml(name))) << name;
  }
  EXPECT_TRUE(std::filesystem::is_regular_file(test_data_file("README.md")));
}

}  // namespace
}  // namespace cosched::test
