#pragma once
// This node's launches as predicted and as observed (issue 39, item 3): how far a whole launch drifts from its
// prediction here — the node-wide part of a prediction's interval, which no task's fit can see (a slower memory
// phase of the host moves every task of a launch at once). Kept with the profile cache:
//
//   <cache>/<node folder>/launches.jsonl   one line per launch: {"date", "batch", "predicted_s", "low_s", "high_s",
//                                          "observed_s", "profiling_share_s", "profiling_spent_s",
//                                          "profiling_run_overhead_s", "guessed_tasks", "warm_up_bytes",
//                                          "warm_up_s"} (low_s, high_s: the 80 % interval it was given, or null;
//                                          the share and spent: null when the user gave the budget; the overhead:
//                                          null when no profiling run said; the warm-up: null when none was made)
//
// Its sigma is the root mean square of ln(observed / predicted) over the last kLaunchesRemembered launches with no
// guessed task (a line without guessed_tasks, as written before it was: none), pooled with a prior
// (kPriorLaunchNoise, as if seen kPriorLaunches times), so that a node with few launches still has a
// spread and a node whose predictions hold narrows it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "cosched/profiler/profile_cache.hpp"

namespace cosched::profiler {

inline constexpr std::size_t kLaunchesRemembered = 20;
inline constexpr double kPriorLaunchNoise = 0.05;
inline constexpr double kPriorLaunches = 2.0;

struct LaunchNoise {
  double sigma = kPriorLaunchNoise;  // sd of ln(observed / predicted) of a whole launch
  std::size_t launches = 0;          // how many it is read from (besides the prior)
  // What sigma is estimated from, the prior counted as its launches: knowledge::IntervalOptions::launch_noise_dof.
  [[nodiscard]] std::size_t degrees_of_freedom() const {
    return launches + static_cast<std::size_t>(kPriorLaunches);
  }
};

// What the node's history says (the prior when there is none). Lines that do not parse are passed over.
[[nodiscard]] LaunchNoise launch_noise(const ProfileCache& cache);
// The same from launches' ln(observed / predicted), oldest first (a history kept elsewhere: the demo's launches).
[[nodiscard]] LaunchNoise launch_noise(std::span<const double> log_errors);
// Where the node's launches are kept: <node folder>/launches.jsonl.
[[nodiscard]] std::filesystem::path launch_history_path(const ProfileCache& cache);
struct RecordedLaunch {
  std::string batch;
  double predicted_s = 0.0;
  std::optional<double> low_s, high_s;  // the 80 % interval
  double observed_s = 0.0;
  // Tasks planned at a guess (kinds never measured): such a launch's error is the guesses', not the node's, and
  // launch_noise passes it over; its profiling still counts.
  std::size_t guessed_tasks = 0;
  // The launch's memory warm-up (launcher/launch.hpp), when it made one: what first touching memory costs here.
  std::optional<std::uint64_t> warm_up_bytes{};
  std::optional<double> warm_up_s{};
};
// The run's automatic profiling budget — its own share of the batch, without what earlier runs saved — and what its
// profiling spent; share_s nullopt when the user gave the budget (--profile-budget: it neither saves nor draws).
struct LaunchProfiling {
  std::optional<double> share_s;
  double spent_s = 0.0;
  // The largest wall time a profiling run took beyond what it measured (BatchKnowledge::run_overhead_s).
  std::optional<double> run_overhead_s;
};
// Appends one launch (one write of one line); nothing when a makespan is not positive.
void record_launch(const ProfileCache& cache, const RecordedLaunch& launch, const LaunchProfiling& profiling = {});

// What `batch`'s earlier runs left of their automatic profiling budgets: over its recorded launches in order,
// saved = max(0, saved + share - spent). Knowing pays for itself over a batch's runs rather than within each one:
// a run whose share cannot pay a single run that matters (a kind's run on more cores often costs more than 10 %
// of a short batch) leaves it to a later run, and all of them together spend at most their shares.
[[nodiscard]] double saved_profiling_budget(const ProfileCache& cache, const std::string& batch);

// The largest overhead per profiling run (process start, the memory warm-up, first touch) the node's last
// kOverheadsRemembered launches that profiled recorded, of any batch; nullopt when none did. A run's overhead is
// known to a call only once it has measured one, and a short run quoted without it is started within the budget
// and stopped at its end, teaching nothing (the README batch's one-pass STREAM runs: 21-40 ms quoted, 0.17-0.33 s
// spent, each run of the batch again).
inline constexpr std::size_t kOverheadsRemembered = 5;
[[nodiscard]] std::optional<double> recent_run_overhead(const ProfileCache& cache);

// Seconds per byte the node's last kOverheadsRemembered memory warm-ups of at least kWarmUpBytesToRate took, the
// slowest; nullopt when none is recorded. A STREAM kind's profiling run first touches and frees its footprint
// where the host takes back free memory (ProcessMeasurer), and that costs what the launches' warm-ups cost: 128 MiB
// took 0.01-0.34 s on the 2-core VM, more than the one-pass run that follows.
inline constexpr std::uint64_t kWarmUpBytesToRate = std::uint64_t{16} << 20;
[[nodiscard]] std::optional<double> recent_warm_up_seconds_per_byte(const ProfileCache& cache);

}  // namespace cosched::profiler
