#pragma once
// Shared helpers of the launcher tests: the "append" task — the test executable
// itself, started with COSCHED_TEST_APPEND=file:line:sleep_ms, sleeps and then appends `line` to `file` (no
// shell needed: the launcher runs it through /usr/bin/env).
#include <filesystem>
#include <string>
#include <vector>

#include "support/files.hpp"

namespace cosched::launcher::testing {

// argv of a task that sleeps `sleep_ms` and then appends `line` to `file`.
[[nodiscard]] std::vector<std::string> append_command(const std::filesystem::path& file, const std::string& line,
                                                      int sleep_ms);

using test_support::scratch_dir;  // a fresh empty folder for one test (tests/support/files.hpp)

}  // namespace cosched::launcher::testing
