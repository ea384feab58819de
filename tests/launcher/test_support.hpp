#pragma once
// Shared helpers of the launcher tests: random instances and plans, and the "append" task — the test executable
// itself, started with COSCHED_TEST_APPEND=file:line:sleep_ms, sleeps and then appends `line` to `file` (no
// shell needed: the launcher runs it through /usr/bin/env).
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cosched/launcher/plan.hpp"
#include "cosched/sched/model.hpp"
#include "support/files.hpp"

namespace cosched::launcher::testing {

// A random moldable instance over (cores, fast_chunks) with `tasks` tasks; times fall with both resources.
[[nodiscard]] sched::Instance random_instance(std::mt19937& rng, int cores, int chunks, std::size_t tasks);

// The plan of `algorithm` on `instance`.
[[nodiscard]] LaunchPlan plan_with(const sched::Instance& instance, const std::string& algorithm);

// argv of a task that sleeps `sleep_ms` and then appends `line` to `file`.
[[nodiscard]] std::vector<std::string> append_command(const std::filesystem::path& file, const std::string& line,
                                                      int sleep_ms);

using test_support::scratch_dir;  // a fresh empty folder for one test (tests/support/files.hpp)

}  // namespace cosched::launcher::testing
