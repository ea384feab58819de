#pragma once
// The main job (`cosched demo`): profile this node, build a batch of STREAM tasks sized for it, plan it with all
// eight algorithms, launch every plan, and compare observed with predicted makespans — plus the three memory
// configurations of Fig. 3(b). Everything goes under one output folder (docs/launcher.md lists the files).
#include <cstdio>
#include <filesystem>

namespace cosched::launcher {

struct DemoOptions {
  bool quick = false;                  // under a minute on a 2-core VM: fewer, shorter tasks; one profiling rep
  std::filesystem::path output;        // empty: ./cosched-demo-<UTC time>
  std::filesystem::path stream_bench;  // empty: default_stream_bench_path()
  std::filesystem::path scripts_dir;   // plotting scripts; empty: the source tree's scripts/
  std::FILE* out = stdout;             // progress and the result table
};

// Runs the demo and returns the output folder. Throws UsageError when this build has no profiler library.
std::filesystem::path run_demo(const DemoOptions& options);

}  // namespace cosched::launcher
