#pragma once
// The demo's pieces: the node and batch it chooses, the profiles it measures, the runs it makes.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cosched/common/text_file.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "demo/demo.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/launcher/report.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::demo {

using PassTable = std::map<std::pair<std::string, std::uint64_t>, unsigned>;

struct DemoSetup {
  DemoOptions options;
  std::filesystem::path output;
  std::filesystem::path stream_bench;
  config::PlatformConfig platform;    // this node: its cores, the fast tier (emulated here) in 20 chunks
  exec::TierSetup tier;                     // how tasks get their fast share
  platform::TierOptions tier_options;           // the in-process backend that calibrates passes
  std::vector<std::uint64_t> footprints;
  PassTable passes;                   // per (kernel, footprint): kernel passes of one task
  std::vector<config::StreamTaskGroup> batch;  // per kernel and footprint: count tasks of `passes` passes
  config::Workload workload;                   // the batch as tasks (config::add_stream_tasks)
  double target_fast_s = 0.0;         // one task's kernel time, 1 core, all fast (what passes aim at)
  unsigned profile_reps = 1;
  std::vector<std::string> fig3b_algorithms;
  config::NodeModel node;              // this node's memory pools, calibrated in this run (node.toml)
  profiler::NodeBandwidth bandwidth;   // the same, as the instances carry it
  double calibration_s = 0.0;
  unsigned noise_launches = 3;         // launches of one plan that measure the noise floor
  // How the demo's own files treat what an earlier demo left in the folder (--force replaces it).
  [[nodiscard]] Overwrite overwrite() const noexcept { return overwrite_if_forced(options.force); }
};

inline const std::vector<std::string> demo_kernels{"write", "ddot", "triad"};

// The mixed batch the demo runs next to the STREAM batch: configs/workloads/demo-mixed.toml (compiled in), read
// by the one workload parser with this platform (footprints in percent of its fast tier), as (kernel, footprint,
// count) groups in file order; the file's passes are not used (the demo calibrates its own). --quick: half of
// each count, at least 1. Throws InputError naming the file if it does not parse.
[[nodiscard]] std::vector<config::StreamTaskGroup> demo_mixed_groups(const config::PlatformConfig& platform,
                                                                      bool quick);

// Chooses the node, footprints and batch, and calibrates the passes (a short in-process run per task type).
[[nodiscard]] DemoSetup make_setup(const DemoOptions& options);

// The STREAM setup with the mixed batch instead (passes calibrated the same way), writing under <output>/mixed.
[[nodiscard]] DemoSetup make_mixed_setup(const DemoSetup& setup);

// Measures this node's memory pools (cli/calibration.hpp, quick with --quick) into setup.node and
// setup.bandwidth, and writes them to node.toml in the output folder.
void calibrate_bandwidth(DemoSetup& setup);

// Profiles every task type as the launcher will run it (whole child processes) with `tier`; returns the CSV.
// `chunk_points` false: only chunks = 0 (the cores-only configurations).
[[nodiscard]] std::filesystem::path profile_tasks(const DemoSetup& setup, const exec::TierSetup& tier,
                                                  const std::string& name, bool chunk_points);

// The instance of the batch from a profile measured with `tier` (with the node's memory pools and every task's
// traffic); `cores_only` keeps the chunks = 0 column as a 1-resource instance.
[[nodiscard]] sched::Instance make_instance(const DemoSetup& setup, const std::filesystem::path& profile_csv,
                                            const exec::TierSetup& tier, bool cores_only);

struct RunRow {
  std::string configuration;  // "cores+fast", "cores-only-slow", "cores-only-system"
  std::string algorithm;
  double planned = 0, scheduling_s = 0;  // the schedule's makespan and the time the algorithm took
  std::filesystem::path journal;
  launcher::JournalReport report;     // the run's journal summarised: bound, both predictions, observed, tasks
  launcher::DurationRatios durations;  // observed / predicted task durations, alone and co-running
  [[nodiscard]] double lower_bound() const noexcept { return report.lower_bound; }
  [[nodiscard]] double predicted() const noexcept { return report.predicted_makespan; }
  [[nodiscard]] std::optional<double> predicted_contention() const { return report.predicted_makespan_contention; }
  [[nodiscard]] double observed() const noexcept { return report.observed_makespan; }
  [[nodiscard]] double ratio() const noexcept { return report.ratio(); }
  [[nodiscard]] std::optional<double> ratio_contention() const {
    const auto error = report.error_contention();
    return error ? std::optional<double>(*error + 1.0) : std::nullopt;
  }
  [[nodiscard]] std::size_t tasks_ok() const noexcept { return report.tasks_completed; }
  [[nodiscard]] std::size_t tasks_failed() const noexcept { return report.tasks_failed + report.tasks_killed; }
};

// Plans the instance with `algorithm` and launches it with `tier`; writes the schedule and the journal (a
// `repeat` > 0 is a relaunch of the same plan for the noise floor: its files get a ".repeat<N>" suffix).
[[nodiscard]] RunRow plan_and_launch(const DemoSetup& setup, const sched::Instance& instance,
                                     const std::string& configuration, const std::string& algorithm,
                                     const exec::TierSetup& tier, unsigned repeat = 0);

// The same plan launched several times in a row: how far observed makespans spread with nothing changed.
struct NoiseFloor {
  std::string algorithm;
  std::vector<double> observed;  // every launch's makespan
  // Half the range over the median: (max - min) / (2 median). A prediction error below it cannot be told
  // from the run-to-run noise of this machine.
  [[nodiscard]] double relative_half_range() const;
};

// Table, CSV, JSON and plots (the fidelity summary is also in the JSON).
void write_results(const DemoSetup& setup, const std::vector<RunRow>& rows, const NoiseFloor& noise, double total_s);

// The mixed batch's Fig. 3(a)/(b): observed (predicted) makespan per algorithm and memory configuration, on stdout
// and as results.csv in the mixed setup's folder.
void write_mixed_results(const DemoSetup& mixed, const std::vector<RunRow>& rows);

}  // namespace cosched::demo
