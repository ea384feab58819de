#pragma once
// The main job (`cosched demo`): profile this node, build a batch of STREAM tasks sized for it, plan it with all
// eight algorithms, launch every plan, and compare observed with predicted makespans — plus the three memory
// configurations of Fig. 3(b). Everything goes under one output folder (docs/launcher.md lists the files).
// It is a composition of the library calls the CLI steps make (profiler sweeps and instance builder, sched::plan,
// launcher::launch, the journal report); `cosched demo` only parses its flags into DemoOptions and calls one of
// these. Its progress, notes and result tables go to the reporter as they happen: a demo runs for minutes.
#include <filesystem>

#include "cosched/common/reporter.hpp"
#include "cosched/profiler/demo_batch.hpp"

namespace cosched::workflow::demo {

// The options and the batch they choose are the profiler's (cosched/profiler/demo_batch.hpp).
using profiler::demo::check_demo_output;
using profiler::demo::DemoOptions;

// Runs the demo and returns the output folder.
std::filesystem::path run_demo(const DemoOptions& options, Reporter& reporter);

// `cosched demo --slurm`: inside a Slurm allocation of N nodes, the demo batch N times over (profiled on this
// node, the nodes are identical), planned over the N nodes (cosched plan --nodes N), launched with one step per
// node and reported merged; the plan folder is cluster-plan/ of the output folder (docs/cluster.md). Returns the
// output folder, which `cosched report` accepts.
std::filesystem::path run_cluster_demo(DemoOptions options, Reporter& reporter);
// `cosched demo --workload FILE`: the same pipeline (profile as launched, instance, every algorithm, launch,
// observed vs predicted) on the user's batch of commands (src/workload_demo.cpp); returns the output folder.
std::filesystem::path run_workload_demo(const DemoOptions& options, Reporter& reporter);

}  // namespace cosched::workflow::demo
