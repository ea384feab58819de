// `cosched demo`: the main job — profile this node, plan a STREAM batch with nine algorithms, launch every
// plan and compare observed with predicted makespans (docs/launcher.md). The output folder is the last line.
// The flags fill the library's DemoOptions; the demo itself is cosched::workflow::demo (workflow/): a
// composition of the library calls the other subcommands make.
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "launch_options.hpp"
#include "reporting.hpp"
#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/workflow/demo.hpp"

namespace {

struct DemoFlags {
  bool quick = false;
  bool force = false;
  bool slurm = false;
  std::string output;
  std::string stream_bench;
  std::vector<std::string> algorithms;
  std::string workload;
  std::string memory_warm_up = "auto";
  std::string progress = "console";
};

const cosched::cli::CommandRegistration demo_registration{"demo", [](CLI::App& app) {
  auto* sub = app.add_subcommand("demo", "The main job: profile this node, plan a batch with the eight algorithms, "
                                         "bw-list-lpt and model-search, launch each, compare");
  auto flags = std::make_shared<DemoFlags>();
  sub->add_flag("--quick", flags->quick, "Under a minute: fewer and shorter tasks, one profiling run per point");
  sub->add_option("--output", flags->output, "Output folder (default: ./cosched-demo-<UTC time>)");
  sub->add_flag("--force", flags->force, "Replace what the --output folder already holds");
  sub->add_flag("--slurm", flags->slurm,
                "Inside a Slurm allocation: the batch scaled to its nodes, one job step per node (docs/cluster.md)");
  sub->add_option("--stream-bench", flags->stream_bench, "stream_bench executable (default: next to cosched)");
  sub->add_option("--algorithms", flags->algorithms,
                  "Comma-separated registered algorithms to plan and launch (default: the eight of Sun et al., "
                  "bw-list-lpt and model-search; cosched plan --help lists them all)")
      ->delimiter(',');
  sub->add_option("--workload", flags->workload,
                  "Run your own batch of commands (workload JSON, docs/launcher.md) through the same pipeline")
      ->check(CLI::ExistingFile);
  cosched::cli::add_memory_warm_up_option(*sub, flags->memory_warm_up);
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags] {
    // Before any work or folder (issue #27): a stream_bench that cannot run would fail after the calibration.
    if (!flags->stream_bench.empty() && ::access(flags->stream_bench.c_str(), X_OK) != 0) {
      throw cosched::UsageError("--stream-bench " + flags->stream_bench +
                                " is not an executable file (default: the stream_bench next to cosched)");
    }
    cosched::workflow::demo::DemoOptions options;
    options.quick = flags->quick;
    options.force = flags->force;
    options.output = flags->output;
    options.stream_bench = flags->stream_bench;
    for (const auto& name : flags->algorithms) (void)cosched::sim::find_algorithm(name);  // before any work
    options.algorithms = flags->algorithms;
    options.workload = flags->workload;
    options.memory_warm_up = flags->memory_warm_up;
    if (flags->slurm && !options.workload.empty()) {
      throw cosched::UsageError(
          "--slurm runs the built-in demo batch across the allocation; for your own batch on several nodes, plan it "
          "with cosched plan --nodes N and launch the folder with cosched launch DIR --slurm");
    }
    const auto reporter = cosched::cli::command_reporter(flags->progress, {stdout, stdout, stdout});
    if (flags->slurm) {
      (void)cosched::workflow::demo::run_cluster_demo(options, *reporter);
    } else if (options.workload.empty()) {
      (void)cosched::workflow::demo::run_demo(options, *reporter);
    } else {
      (void)cosched::workflow::demo::run_workload_demo(options, *reporter);
    }
  });
}};

}  // namespace
