#include "cosched/common/text_file.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

// ---- outputs are written whole or not at all (issue #27: writing in place, with no temporary file and no rename,
// went unnoticed by the suite) ----

class AtomicWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::path(::testing::TempDir()) / ("cosched-atomic-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    target_ = folder_ / "out.json";
    std::ofstream(target_, std::ios::binary) << kOld;
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  [[nodiscard]] std::vector<std::string> folder_entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder_)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }

  static inline const std::string kOld = "the old content\n";
  std::filesystem::path folder_;
  std::filesystem::path target_;
};

TEST_F(AtomicWriteTest, AReaderThatOpenedTheOldFileKeepsReadingTheOldContent) {
  std::ifstream reader(target_, std::ios::binary);  // opened before the replacement
  ASSERT_TRUE(reader.is_open());
  write_text_file(target_, "the new content, longer than the old one\n", Overwrite::replace, "test output");
  std::ostringstream seen;
  seen << reader.rdbuf();
  // A new file renamed over the old name: the open descriptor still reads the old inode, whole. An in-place write
  // (truncate, then write) would show it the new bytes, or nothing.
  EXPECT_EQ(seen.str(), kOld);
  EXPECT_EQ(read_text_file(target_, "test output"), "the new content, longer than the old one\n");
  EXPECT_EQ(folder_entries(), std::vector<std::string>{"out.json"}) << "a temporary file was left";
}

TEST_F(AtomicWriteTest, AFailedWriteLeavesTheOldFileIntactAndNoTemporaryFile) {
  // A file size limit of 4 KiB makes the write of 64 KiB fail with EFBIG (SIGXFSZ ignored), as a full disk would.
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = saved;
  limited.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  bool threw = false;
  try {
    write_text_file(target_, std::string(64 * 1024, 'x'), Overwrite::replace, "test output");
  } catch (const PlatformError& error) {
    threw = true;
    EXPECT_NE(std::string(error.what()).find(target_.string()), std::string::npos) << error.what();
  }
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &saved), 0);
  std::signal(SIGXFSZ, previous_handler);
  EXPECT_TRUE(threw) << "a write beyond the file size limit succeeded";
  EXPECT_EQ(read_text_file(target_, "test output"), kOld) << "the old file was changed by a failed write";
  EXPECT_EQ(folder_entries(), std::vector<std::string>{"out.json"}) << "a temporary file was left";
}

// Issue 41: a writer killed by SIGKILL (or a second Ctrl-C) left its hidden temporary, and no later run removed it.
// The next write of the same target removes those whose writer is dead — and only those: a live process's, one
// whose lock is held (a writer on another machine), another target's and a file that is no temporary stay.
TEST_F(AtomicWriteTest, AWriteRemovesTheTemporariesOfItsTargetWhoseWriterIsDead) {
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
  const std::string gone = std::to_string(dead);
  const auto make = [&](const std::string& name) { std::ofstream(folder_ / name) << "partial"; };
  make(".out.json." + gone + ".abc123");                          // abandoned: removed
  make(".out.json." + std::to_string(::getppid()) + ".live12");   // its writer lives
  make(".out.json." + gone + ".held12");                          // its lock is held
  make(".other.json." + gone + ".abc123");                        // another target's
  make(".out.json.notes");                                         // not a temporary
  const int held = ::open((folder_ / (".out.json." + gone + ".held12")).c_str(), O_RDONLY);
  ASSERT_EQ(::flock(held, LOCK_EX), 0);
  write_text_file(target_, "new\n", Overwrite::replace, "test output");
  ::close(held);
  std::vector<std::string> left = folder_entries();
  std::sort(left.begin(), left.end());
  std::vector<std::string> kept{".other.json." + gone + ".abc123", ".out.json." + gone + ".held12",
                                ".out.json." + std::to_string(::getppid()) + ".live12", ".out.json.notes", "out.json"};
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(left, kept);
}

TEST_F(AtomicWriteTest, TwoOutputsOfOneCommandNamingOneFileAreRefusedBeforeAnyIsWritten) {
  const auto fresh = folder_ / "x.csv";
  const std::filesystem::path other_spelling = folder_ / "." / "x.csv";
  for (const Overwrite overwrite : {Overwrite::refuse, Overwrite::replace}) {
    try {
      check_output_paths({{fresh, "jobs CSV"}, {other_spelling, "SWF schedule"}}, overwrite);
      ADD_FAILURE() << "two outputs onto one file accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("named for both the jobs CSV and the SWF schedule"), std::string::npos)
          << e.what();
    }
  }
  std::filesystem::create_symlink(target_, folder_ / "link.json");  // an existing file under another name
  EXPECT_THROW(check_output_paths({{target_, "a"}, {folder_ / "link.json", "b"}}, Overwrite::replace), UsageError);
  EXPECT_THROW(check_output_paths({{"-", "a"}, {"-", "b"}}, Overwrite::refuse), UsageError);
  EXPECT_NO_THROW(check_output_paths({{"/dev/null", "a"}, {"/dev/null", "b"}, {fresh, "c"}}, Overwrite::refuse));
  EXPECT_NO_THROW(check_output_paths({{fresh, "a"}, {folder_ / "y.csv", "b"}}, Overwrite::refuse));
  EXPECT_FALSE(std::filesystem::exists(fresh)) << "a check writes nothing";
}

TEST_F(AtomicWriteTest, ANewFileIsCreatedWithTheUsualPermissions) {
  const auto fresh = folder_ / "fresh.txt";
  const mode_t mask = ::umask(022);
  write_text_file(fresh, "x", Overwrite::refuse, "test output");
  ::umask(mask);
  EXPECT_EQ(std::filesystem::status(fresh).permissions() & std::filesystem::perms::all,
            std::filesystem::perms(0644));
}

}  // namespace
}  // namespace cosched
