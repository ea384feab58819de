#pragma once
// The main job (`cosched demo`): profile this node, build a batch of STREAM tasks sized for it, plan it with all
// eight algorithms, launch every plan, and compare observed with predicted makespans — plus the three memory
// configurations of Fig. 3(b). Everything goes under one output folder (docs/launcher.md lists the files).
// It is a composition of the library calls the CLI steps make (profiler sweeps and instance builder, sched::plan,
// launcher::launch, the journal report); no library depends on it.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace cosched::demo {

struct DemoOptions {
  bool quick = false;                  // under a minute on a 2-core VM: fewer, shorter tasks; one profiling rep
  std::filesystem::path output;        // empty: ./cosched-demo-<UTC time>
  bool force = false;                  // replace what an existing output folder holds
  std::filesystem::path stream_bench;  // empty: exec::default_stream_bench_path()
  std::filesystem::path scripts_dir;   // plotting scripts; empty: installed share/cosched/scripts, else scripts/
  std::FILE* out = stdout;             // progress and the result table
  unsigned batch_scale = 1;            // the batch repeated this many times (--slurm: once per allocated node)
  // The registered algorithms planned and launched (the last one is also the noise floor's); empty: the first
  // nine registered — the eight of Sun et al. and bw-list-lpt.
  std::vector<std::string> algorithms;
  std::filesystem::path workload;      // run_workload_demo: the user's batch of commands
};

// Checks the output folder before any work: UsageError when it is a file, or (without force) a folder that
// already holds files.
void check_demo_output(const DemoOptions& options);

// Runs the demo and returns the output folder.
std::filesystem::path run_demo(const DemoOptions& options);

// `cosched demo --slurm`: inside a Slurm allocation of N nodes, the demo batch N times over (profiled on this
// node, the nodes are identical), planned over the N nodes (cosched plan --nodes N), launched with one step per
// node and reported merged; the plan folder is cluster-plan/ of the output folder (docs/cluster.md). Returns the
// output folder, which `cosched report` accepts.
std::filesystem::path run_cluster_demo(DemoOptions options);
// `cosched demo --workload FILE`: the same pipeline (profile as launched, instance, every algorithm, launch,
// observed vs predicted) on the user's batch of commands (cli/demo/workload_demo.cpp); returns the output folder.
std::filesystem::path run_workload_demo(const DemoOptions& options);

}  // namespace cosched::demo
