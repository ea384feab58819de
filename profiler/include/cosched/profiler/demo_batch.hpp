#pragma once
// The demo's batch (`cosched demo`): a workload generator sized for this node — the node and batch it chooses, the
// passes calibrated per task type, this node's memory pools, the profiles measured as launched and the instances
// built from them. The demo's runs, plots and tables are cosched::workflow (cosched/workflow/demo.hpp, above the
// profiler and the launcher); these are the profiler calls it composes, usable without it.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::profiler::demo {

struct DemoOptions {
  bool quick = false;                  // under a minute on a 2-core VM: fewer, shorter tasks; one profiling rep
  std::filesystem::path output;        // empty: ./cosched-demo-<UTC time>
  bool force = false;                  // replace what an existing output folder holds
  std::filesystem::path stream_bench;  // empty: exec::default_stream_bench_path()
  std::filesystem::path scripts_dir;   // plotting scripts; empty: installed share/cosched/scripts, else scripts/
  unsigned batch_scale = 1;            // the batch repeated this many times (--slurm: once per allocated node)
  // The registered algorithms planned and launched (the last one is also the noise floor's); empty: the first
  // nine registered — the eight of Sun et al. and bw-list-lpt.
  std::vector<std::string> algorithms;
  std::filesystem::path workload;      // run_workload_demo: the user's batch of commands
  std::string memory_warm_up = "auto";  // each launch's (launcher::parse_memory_warm_up_mode)
};

// Checks the output folder before any work: UsageError when it is a file, or (without force) a folder that
// already holds files.
void check_demo_output(const DemoOptions& options);

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

// Measures this node's memory pools (profiler/calibration.hpp, quick with --quick) into setup.node and
// setup.bandwidth, and writes them to node.toml in the output folder.
void calibrate_bandwidth(DemoSetup& setup);

// Profiles every task type as the launcher will run it (whole child processes) with `tier`, reporting the sweep's
// progress; returns the CSV. `chunk_points` false: only chunks = 0 (the cores-only configurations).
[[nodiscard]] std::filesystem::path profile_tasks(const DemoSetup& setup, const exec::TierSetup& tier,
                                                  const std::string& name, bool chunk_points, Reporter& reporter);

// The instance of the batch from a profile measured with `tier` (with the node's memory pools and every task's
// traffic); `cores_only` keeps the chunks = 0 column as a 1-resource instance.
[[nodiscard]] sched::Instance make_instance(const DemoSetup& setup, const std::filesystem::path& profile_csv,
                                            const exec::TierSetup& tier, bool cores_only);

}  // namespace cosched::profiler::demo
