#pragma once
// Running the built executables (bin/cosched, bin/stream_bench of the same build) the way a user does: through a
// shell, in a given folder, capturing the exit code, stdout and stderr. Error tests check the exit code and one
// clear stderr line (expect_one_line_error).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/files.hpp"

namespace cosched::test_support {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal, or not built
  std::string out;
  std::string err;
};

// The path of a built executable of this build.
inline std::filesystem::path built_program(const std::string& program) {
  return std::filesystem::path(COSCHED_BIN_DIR) / program;
}

// Runs `command_line` through a shell in `dir`; `timeout_s` ends a command that would hang (exit 124 then). stdout
// and stderr go through files in `dir` named after this process (ctest runs tests in parallel processes, which may
// share a folder).
inline CommandResult run_shell(const std::string& command_line, const std::filesystem::path& dir, int timeout_s = 60) {
  const std::string tag = std::to_string(::getpid());
  const auto out = dir / ("stdout-" + tag + ".txt"), err = dir / ("stderr-" + tag + ".txt");
  const std::string command = "cd '" + dir.string() + "' && timeout " + std::to_string(timeout_s) + " " +
                              command_line + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out), read_text(err)};
}

// Runs `program arguments` (arguments are shell words) in `dir`, at most 60 s (run_shell).
inline CommandResult run_program(const std::string& program, const std::string& arguments,
                                 const std::filesystem::path& dir) {
  return run_shell(built_program(program).string() + " " + arguments, dir);
}

// `result` is a failure with `exit_code` and exactly one stderr line that holds `fragment`.
inline void expect_one_line_error(const CommandResult& result, int exit_code, const std::string& fragment,
                                  const std::string& context) {
  EXPECT_EQ(result.exit_code, exit_code) << context << "\n" << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << context << "\n" << result.err;
  EXPECT_NE(result.err.find(fragment), std::string::npos) << context << "\n" << result.err;
}

}  // namespace cosched::test_support
