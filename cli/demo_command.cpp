// `cosched demo`: the main job — profile this node, plan a STREAM batch with the eight algorithms, launch every
// plan and compare observed with predicted makespans (docs/launcher.md). The output folder is the last line.
// The demo itself lives in cli/demo/: a composition of the library calls the other subcommands make.
#include <memory>
#include <string>

#include "command_registry.hpp"
#include "demo/demo.hpp"

namespace {

struct DemoFlags {
  bool quick = false;
  bool force = false;
  std::string output;
  std::string stream_bench;
  std::string workload;
};

const cosched::cli::CommandRegistration registration{"demo", [](CLI::App& app) {
  auto* sub = app.add_subcommand("demo", "The main job: profile, plan with all eight algorithms, launch, compare");
  auto flags = std::make_shared<DemoFlags>();
  sub->add_flag("--quick", flags->quick, "Under a minute: fewer and shorter tasks, one profiling run per point");
  sub->add_option("--output", flags->output, "Output folder (default: ./cosched-demo-<UTC time>)");
  sub->add_flag("--force", flags->force, "Replace what the --output folder already holds");
  sub->add_option("--stream-bench", flags->stream_bench, "stream_bench executable (default: next to cosched)");
  sub->add_option("--workload", flags->workload,
                  "Run your own batch of commands (workload JSON, docs/launcher.md) through the same pipeline")
      ->check(CLI::ExistingFile);
  sub->callback([flags] {
    cosched::demo::DemoOptions options;
    options.quick = flags->quick;
    options.force = flags->force;
    options.output = flags->output;
    options.stream_bench = flags->stream_bench;
    options.workload = flags->workload;
    if (options.workload.empty()) {
      (void)cosched::demo::run_demo(options);
    } else {
      (void)cosched::demo::run_workload_demo(options);
    }
  });
}};

}  // namespace
