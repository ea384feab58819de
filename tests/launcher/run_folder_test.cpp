// The run folder's one rule (issue 41): a folder is a cosched run's when it holds the marker, and a run holds it
// (RunFolderClaim) before it writes anything. A second claim is refused while the first lives — even with --force —,
// user files are replaced only with --force, and a claim whose run wrote nothing leaves the disk as it found it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/launcher/run_folder.hpp"
#include "support/files.hpp"

namespace cosched::launcher {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string usage_error_of(const RunFolder& folder, bool resume, bool force) {
  try {
    const RunFolderClaim claim(folder, resume, force, false);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected UsageError";
  return {};
}

class RunFolderRule : public ::testing::Test {
 protected:
  fs::path dir_ = test_support::scratch_dir();
  RunFolder folder_{dir_ / "run"};
};

TEST_F(RunFolderRule, AClaimMakesTheFolderAndItsMarkerAndLeavesNothingWhenTheRunWroteNothing) {
  {
    const RunFolderClaim claim(folder_, false, false, false);
    EXPECT_TRUE(fs::is_directory(folder_.dir));
    EXPECT_TRUE(fs::exists(folder_.marker()));
    EXPECT_NE(test_support::read_text(folder_.marker()).find("pid "), std::string::npos) << "it names its holder";
  }
  EXPECT_FALSE(fs::exists(folder_.dir)) << "a run refused after its claim (a failed profile) leaves no folder";
}

TEST_F(RunFolderRule, AClaimWhoseRunWroteKeepsTheMarker) {
  {
    const RunFolderClaim claim(folder_, false, false, false);
    test_support::write_file(folder_.instance(), "{}");
  }
  EXPECT_EQ(names_in(folder_.dir), (std::vector<std::string>{".cosched-run", "instance.json"}));
}

TEST_F(RunFolderRule, ASecondClaimIsRefusedWhileTheFirstLivesEvenWithForceAndChangesNothing) {
  const RunFolderClaim first(folder_, false, false, false);
  test_support::write_file(folder_.schedule(), "mine");
  const std::string note = test_support::read_text(folder_.marker());
  for (const bool force : {false, true}) {
    const std::string message = usage_error_of(folder_, false, force);
    EXPECT_NE(message.find("in use by another cosched run"), std::string::npos) << message;
    EXPECT_NE(message.find(note.substr(0, note.find(" since"))), std::string::npos) << "names the holder: " << message;
  }
  EXPECT_EQ(test_support::read_text(folder_.schedule()), "mine");
  EXPECT_EQ(test_support::read_text(folder_.marker()), note) << "the holder's note stays";
}

TEST_F(RunFolderRule, AClaimIsFreeAgainOnceItsHolderEnds) {
  { const RunFolderClaim first(folder_, false, false, false); test_support::write_file(folder_.platform(), "p"); }
  EXPECT_NO_THROW(const RunFolderClaim again(folder_, false, false, false)) << "a dry run's plan is replaced";
}

TEST_F(RunFolderRule, UserFilesAreReplacedOnlyWithForce) {
  fs::create_directories(folder_.dir);
  test_support::write_file(folder_.instance(), "my own instance");
  const std::string message = usage_error_of(folder_, false, false);
  EXPECT_NE(message.find("not a cosched run's folder"), std::string::npos) << message;
  EXPECT_EQ(names_in(folder_.dir), (std::vector<std::string>{"instance.json"})) << "no marker left behind";
  EXPECT_NO_THROW(const RunFolderClaim forced(folder_, false, true, false));
}

TEST_F(RunFolderRule, ARunsJournalIsContinuedOrReplacedOnlyWhenAsked) {
  fs::create_directories(folder_.dir);
  for (const fs::path& file : {folder_.marker(), folder_.platform(), folder_.instance(), folder_.schedule(),
                               folder_.journal()}) {
    test_support::write_file(file, "x");
  }
  EXPECT_NE(usage_error_of(folder_, false, false).find("--resume"), std::string::npos);
  EXPECT_NO_THROW(const RunFolderClaim resumed(folder_, true, false, false));
  EXPECT_NO_THROW(const RunFolderClaim forced(folder_, false, true, false));
}

TEST_F(RunFolderRule, AResumeOfAFolderWithoutItsPlanIsRefusedWithoutAFolderLeft) {
  EXPECT_NE(usage_error_of(folder_, true, false).find("is missing"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_.dir));
}

}  // namespace
}  // namespace cosched::launcher
