// Step 2 of issue #9, proven on the built executables: every row of robustness_cases.cpp runs cosched or
// stream_bench on one bad input and must end with its documented exit code, exactly one stderr line holding the
// expected fragment and never "internal error", within a hang detector's bound, and without creating or changing
// any file of its folder. docs/errors.md mirrors the rows (checked below).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/robustness_cases.hpp"

namespace cosched::cli::robustness {
namespace {

namespace fs = std::filesystem;

// Not a speed threshold: a command still running after a minute is hanging (the classes "--emulation-ratio 1e9",
// "a start of 1e12" used to wait for ever).
constexpr std::chrono::seconds kHangBound{60};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split_words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

struct Outcome {
  int exit_code = -1;  // -1: ended by a signal; -2: killed by the hang detector
  std::string err;
};

// Runs argv in `dir` with stdout to `out` and stderr to `err_path`, in its own process group so the hang detector
// ends the command and whatever it started.
Outcome run_in(const fs::path& dir, std::vector<std::string> argv, const fs::path& out, const fs::path& err_path) {
  std::vector<char*> raw;
  for (auto& word : argv) raw.push_back(word.data());
  raw.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int in_fd = open("/dev/null", O_RDONLY);
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in_fd < 0 || out_fd < 0 || err_fd < 0 || chdir(dir.c_str()) != 0) _exit(127);
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execv(raw[0], raw.data());
    _exit(127);
  }
  Outcome outcome;
  if (pid < 0) return outcome;
  const auto deadline = std::chrono::steady_clock::now() + kHangBound;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      outcome.exit_code = -2;
      outcome.err = read_file(err_path);
      return outcome;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.err = read_file(err_path);
  return outcome;
}

// Every file and folder under `dir` with its content: what a failed command must leave as it was.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).string();
    files[name] = entry.is_directory() ? "<folder>" : read_file(entry.path());
  }
  return files;
}

void write_files(const fs::path& dir, const Files& files) {
  for (const auto& [name, content] : files) {
    if (!name.empty() && name.back() == '/') {
      fs::create_directories(dir / name);
    } else {
      std::ofstream(dir / name, std::ios::binary) << content;
    }
  }
}

class Robustness : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    const Case& row = cases()[GetParam()];
    program_ = fs::path(COSCHED_BIN_DIR) / split_words(row.command).front();
    if (!fs::exists(program_)) GTEST_SKIP() << program_ << " is not built";
    // ctest runs every row in its own process, in parallel: each has its own folder, and the command its own
    // subfolder so that its stdout and stderr files are not part of the snapshot. The process id keeps two test
    // runs on one machine (two build trees) out of each other's folders.
    root_ = fs::path(::testing::TempDir()) /
            ("cosched-robustness-" + std::to_string(GetParam()) + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "work");
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  Outcome run(const std::string& command) const {
    std::vector<std::string> argv = split_words(command);
    argv.front() = (fs::path(COSCHED_BIN_DIR) / argv.front()).string();
    fs::path out = root_ / "stdout.txt";
    if (argv.back() == ">/dev/full") {
      argv.pop_back();
      out = "/dev/full";
    }
    return run_in(root_ / "work", argv, out, root_ / "stderr.txt");
  }

  fs::path program_;
  fs::path root_;
};

TEST_P(Robustness, FailsWithItsExitCodeAndOneClearLineAndWritesNothing) {
  const Case& row = cases()[GetParam()];
  SCOPED_TRACE(row.error_class + ": " + row.command);
  const fs::path work = root_ / "work";
  write_files(work, fixtures());
  write_files(work, row.files);
  if (!row.setup.empty()) {
    const Outcome setup = run(row.setup);
    ASSERT_EQ(setup.exit_code, 0) << "setup " << row.setup << ": " << setup.err;
  }
  const auto before = snapshot(work);

  const Outcome outcome = run(row.command);

  ASSERT_NE(outcome.exit_code, -2) << "still running after " << kHangBound.count() << " s: a hang";
  EXPECT_EQ(outcome.exit_code, row.exit_code) << outcome.err;
  EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << "stderr:\n" << outcome.err;
  EXPECT_EQ(outcome.err.find("internal error"), std::string::npos) << outcome.err;
  // Issue #27: a message quoting a hostile input (an ESC sequence, a NUL) escapes it: no control byte but the
  // newline that ends the line (and tabs) reaches the terminal.
  EXPECT_TRUE(std::none_of(outcome.err.begin(), outcome.err.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f;
  })) << "a control byte in stderr: " << outcome.err;
  EXPECT_NE(outcome.err.find(row.fragment), std::string::npos) << "wanted \"" << row.fragment << "\" in " << outcome.err;
  EXPECT_EQ(snapshot(work), before) << "a failed command created or changed a file";
}

std::string row_name(const ::testing::TestParamInfo<std::size_t>& info) {
  const auto words = split_words(cases()[info.param].command);
  std::string name = std::to_string(info.param) + "_" + (words.front() == "cosched" && words.size() > 1 ? words[1] : words.front());
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryErrorClass, Robustness, ::testing::Range<std::size_t>(0, cases().size()), row_name);

// ---- docs/errors.md mirrors the rows ------------------------------------------------------------------------

struct DocRow {
  std::string error_class, command;
  int exit_code;
};

// The rows of the table under "## The table": | class | `command` | exit code | message |.
std::vector<DocRow> documented_rows() {
  std::istringstream doc(read_file(fs::path(COSCHED_SOURCE_DIR) / "docs" / "errors.md"));
  std::vector<DocRow> rows;
  bool in_table = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("## ", 0) == 0) in_table = line == "## The table";
    if (!in_table || line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream cells_in(line.substr(2));
    for (std::string cell; std::getline(cells_in, cell, '|');) {
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
    }
    if (cells.size() < 4 || cells[0] == "error class" || cells[0].rfind("---", 0) == 0) continue;
    const std::string command = cells[1].size() >= 2 ? cells[1].substr(1, cells[1].size() - 2) : cells[1];
    rows.push_back({cells[0], command, std::atoi(cells[2].c_str())});
  }
  return rows;
}

TEST(RobustnessDoc, TheErrorTableHasOneRowPerClassWithItsFirstCommandAndExitCode) {
  std::vector<DocRow> expected;
  for (const Case& row : cases()) {
    const bool seen = std::any_of(expected.begin(), expected.end(),
                                  [&](const DocRow& r) { return r.error_class == row.error_class; });
    if (!seen) expected.push_back({row.error_class, row.command, row.exit_code});
  }
  const std::vector<DocRow> documented = documented_rows();
  ASSERT_EQ(documented.size(), expected.size()) << "docs/errors.md: one table row per error class";
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(documented[i].error_class, expected[i].error_class) << "row " << i;
    EXPECT_EQ(documented[i].command, expected[i].command) << "row " << i;
    EXPECT_EQ(documented[i].exit_code, expected[i].exit_code) << "row " << i;
  }
}

}  // namespace
}  // namespace cosched::cli::robustness
