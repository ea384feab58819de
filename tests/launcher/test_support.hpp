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

// A two-pool bandwidth model ("dram" saturating at 15 GB/s, "mcdram" at 100 GB/s).
[[nodiscard]] sched::BandwidthModel two_pool_model();

// `instance` with two_pool_model() and random traffic: most tasks stream 2..12 GB/s per core (up to 4 cores)
// from each pool when alone, some only from one pool, some have no traffic at all.
[[nodiscard]] sched::Instance with_random_traffic(const sched::Instance& instance, std::mt19937& rng);

// The registered algorithms that schedule `instance` (Algorithm::refusal empty: bsp-a* refuse two resources).
[[nodiscard]] std::vector<std::string> algorithms_for(const sched::Instance& instance);

// The plan of `algorithm` on `instance`.
[[nodiscard]] LaunchPlan plan_with(const sched::Instance& instance, const std::string& algorithm);

// argv of a task that sleeps `sleep_ms` and then appends `line` to `file`.
[[nodiscard]] std::vector<std::string> append_command(const std::filesystem::path& file, const std::string& line,
                                                      int sleep_ms);

using test_support::scratch_dir;  // a fresh empty folder for one test (tests/support/files.hpp)

}  // namespace cosched::launcher::testing
