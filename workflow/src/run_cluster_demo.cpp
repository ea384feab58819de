// `cosched demo --slurm`: the demo batch scaled to the allocation, planned over its nodes, one Slurm step per
// node, the node journals merged (docs/cluster.md).
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <ctime>

#include "cosched/common/text_file.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/sched/cluster.hpp"
#include "cosched/sched/cluster_manifest.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/workflow/slurm_launch.hpp"
#include "demo_setup.hpp"

namespace cosched::workflow::demo {

namespace {

constexpr const char* kClusterAlgorithm = "t-list-lpt";

}  // namespace

std::filesystem::path run_cluster_demo(DemoOptions options, Reporter& reporter) {
  check_demo_output(options);  // before any work: a bad --output is refused at once
  // Outside an allocation this fails at once (UsageError), before any profiling.
  const launcher::slurm::Allocation allocation =
      launcher::slurm::allocation_from_environment(launcher::slurm::process_environment());
  const auto begin = std::chrono::steady_clock::now();
  const auto say = [&reporter](const std::string& line) { reporter.note(line); };
  const std::size_t nodes = allocation.nodes.size();
  options.batch_scale = static_cast<unsigned>(nodes);
  say(fmt::format("cosched demo --slurm{}: the demo batch x {} over the {} nodes of Slurm job {} ({}), one job step "
                  "per node",
                  options.quick ? " (quick)" : "", nodes, nodes, allocation.job_id, fmt::join(allocation.nodes, ",")));
  say("[1/4] choosing the batch, calibrating kernel passes and this node's memory bandwidth ...");
  DemoSetup setup = make_setup(options);
  // Plain salloc gives a node one CPU unless asked (cons_tres): the batch is planned for what every node gets.
  const unsigned cores = launcher::slurm::allocation_cores(allocation, setup.platform.cores, 0);
  if (cores < setup.platform.cores) {
    say(fmt::format("      Slurm gives each node {} CPU(s): planning for {} core(s) per node (salloc --exclusive gives "
                    "the demo every CPU of its nodes)",
                    cores, cores));
    setup.platform.cores = cores;
  }
  calibrate_bandwidth(setup);
  std::size_t tasks = 0;
  for (const auto& entry : setup.batch) tasks += entry.count;
  say(fmt::format("      node: {}; batch: {} tasks", describe_demo_node(setup), tasks));
  // The steps run on the nodes with this node's platform (the emulated tier's size and chunks are the demo's
  // own choice; the cores each step gets are discovered there).
  const auto platform_file = std::filesystem::absolute(setup.output / "platform.toml");
  config::PlatformConfig step_platform = setup.platform;
  step_platform.name = setup.tier.emulated() ? "demo-node-emulated" : "demo-node";  // a name is a safe id
  write_text_file(platform_file, config::to_toml(step_platform), setup.overwrite(), "platform file");

  say("[2/4] profiling each task type in isolation on this node, as launched ...");
  const auto csv = profile_tasks(setup, setup.tier, "tiered", true, reporter);
  const sched::Instance instance = make_instance(setup, csv, setup.tier, false);
  write_text_file(setup.output / "instance.json", sched::instance_to_json(instance) + "\n", setup.overwrite(),
                  "instance");

  say(fmt::format("[3/4] planning over {} nodes with {} ...", nodes, kClusterAlgorithm));
  const auto plan = sched::plan_cluster(sched::find_algorithm(kClusterAlgorithm), instance, nodes);
  const std::filesystem::path plan_folder = setup.output / sched::kDemoPlanFolder;
  sched::write_cluster_plan(plan_folder, plan, (setup.output / "instance.json").string(), setup.overwrite());
  reporter.result({"cluster-plan", sched::format_cluster_plan(plan), nullptr});

  say("[4/4] launching one Slurm step per node ...");
  SlurmLaunchRequest request{plan_folder, false, false, {"--platform", platform_file.string()}};
  const launcher::ClusterReport report = run_slurm_launch(request, reporter);
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  nlohmann::json results = {{"quick", options.quick},
                            {"slurm_job_id", allocation.job_id},
                            {"allocated_nodes", allocation.nodes},
                            {"algorithm", kClusterAlgorithm},
                            {"tasks", tasks},
                            {"emulated", setup.tier.emulated()},
                            {"cores", setup.platform.cores},
                            {"plan", sched::kDemoPlanFolder},
                            {"partition_seconds", plan.partition_seconds},
                            {"plan_seconds", plan.plan_seconds},
                            {"report", launcher::to_json(report)},
                            {"total_seconds", total}};
  write_text_file(setup.output / "results.json", results.dump(2) + "\n", setup.overwrite(), "results");
  say(fmt::format("done in {:.1f} s; `cosched report {}` merges the node journals again", total,
                  setup.output.string()));
  say(fmt::format("demo output: {}", setup.output.string()));
  return setup.output;
}

}  // namespace cosched::workflow::demo
