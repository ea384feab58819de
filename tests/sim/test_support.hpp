#pragma once
// Shared helpers of the simulation-core tests: random instances, a two-pool bandwidth model with random traffic,
// and the plan of a registered algorithm.
#include <random>
#include <string>
#include <vector>

#include "cosched/sched/model.hpp"
#include "cosched/sim/plan.hpp"

namespace cosched::sim::testing {

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

}  // namespace cosched::sim::testing
