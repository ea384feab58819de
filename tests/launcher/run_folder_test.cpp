// The run folder's one rule (issue 41): a folder is a cosched run's when it holds the marker, and a run holds it
// (RunFolderClaim) before it writes anything. A second claim is refused while the first lives — even with --force —,
// user files are replaced only with --force, and a claim whose run wrote nothing leaves the disk as it found it.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
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

// Without --output a run goes to ./cosched-run-<name>, past the finished runs there (RunCli's README test runs it
// twice); a folder holding anything else — a run that did not end, whose journal says so or cannot be read — ends
// the search there, for the claim to refuse with its reason.
TEST_F(RunFolderRule, TheDefaultFolderStopsAtAFolderThatHoldsNoFinishedRun) {
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  const fs::path base = dir_ / "cosched-run-b";
  EXPECT_EQ(default_run_folder("x/b.json").dir, base) << "nothing there yet";
  EXPECT_EQ(default_run_folder("x/b.json", true, false).dir, base);
  fs::create_directories(base);
  test_support::write_file(RunFolder{base}.marker(), "");
  test_support::write_file(base / "journal.jsonl", "x");
  for (const auto& [resume, force] : {std::pair{false, false}, {true, false}, {false, true}}) {
    EXPECT_EQ(default_run_folder("x/b.json", resume, force).dir, base) << resume << force;
  }
  EXPECT_NE(usage_error_of(default_run_folder("x/b.json"), false, false).find("--resume"), std::string::npos);
  fs::current_path(before);
}

TEST_F(RunFolderRule, AResumeOfAFolderWithoutItsPlanIsRefusedWithoutAFolderLeft) {
  EXPECT_NE(usage_error_of(folder_, true, false).find("is missing"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_.dir));
}

// A full disk (here a file size limit of 0, which fails the marker's holder note as ENOSPC does): the claim is
// refused with a PlatformError and leaves the disk as it found it — no folder it made, no empty marker (it left both,
// and the folder then looked like a run's). Run in a child process: the limit is the child's alone. Exits 0 when so.
[[noreturn]] void claim_on_a_full_disk(const RunFolder& folder, bool folder_was_there) {
  ::signal(SIGXFSZ, SIG_IGN);  // a write past the limit then fails with EFBIG instead of killing the child
  const rlimit none{0, 0};
  if (::setrlimit(RLIMIT_FSIZE, &none) != 0) ::_exit(10);
  try {
    const RunFolderClaim claim(folder, false, false, false);
    ::_exit(11);  // claimed without its note
  } catch (const PlatformError&) {
  }
  const bool as_found = folder_was_there ? fs::is_directory(folder.dir) && fs::is_empty(folder.dir)
                                         : !fs::exists(folder.dir);
  ::_exit(as_found ? 0 : 12);
}

class RunFolderOnAFullDisk : public ::testing::TestWithParam<bool> {};

TEST_P(RunFolderOnAFullDisk, AClaimIsRefusedAndLeavesTheDiskAsItFoundIt) {
  const RunFolder folder{test_support::scratch_dir() / "run"};
  if (GetParam()) fs::create_directory(folder.dir);
  EXPECT_EXIT(claim_on_a_full_disk(folder, GetParam()), ::testing::ExitedWithCode(0), "");
}

INSTANTIATE_TEST_SUITE_P(Folder, RunFolderOnAFullDisk, ::testing::Bool(),
                         [](const auto& param_info) { return param_info.param ? "there" : "made"; });

// A resumed batch with fewer tasks than were planned is another batch (only more tasks were refused).
TEST_F(RunFolderRule, ABatchWithFewerOrOtherTasksThanPlannedIsRefused) {
  config::Workload planned;
  planned.tasks.resize(2);
  planned.tasks[0].id = "a";
  planned.tasks[0].command = {"/bin/true"};
  planned.tasks[1] = planned.tasks[0];
  planned.tasks[1].id = "b";
  config::Workload fewer = planned;
  fewer.tasks.pop_back();
  config::Workload renamed = planned;
  renamed.tasks[1].id = "c";
  EXPECT_NO_THROW(check_same_batch(planned, planned, folder_));
  EXPECT_THROW(check_same_batch(fewer, planned, folder_), InputError);
  EXPECT_THROW(check_same_batch(renamed, planned, folder_), InputError);
}
}  // namespace
}  // namespace cosched::launcher
