#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>

#include "cosched/common/text_file.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sched/io.hpp"
#include "cosched/sim/algorithms.hpp"
#include "demo_setup.hpp"

namespace cosched::workflow::demo {

namespace {

std::string mixed_kernel_list(const DemoSetup& mixed) {
  std::vector<std::string> kernels;
  for (const auto& group : mixed.batch) kernels.push_back(group.kernel);
  return fmt::format("{}", fmt::join(kernels, ", "));
}

// A batch profiled twice — with the fast tier scheduled (cores x fast chunks) and with the tier left to the
// system — and its three instances (Fig. 3(b)'s memory configurations), written to the setup's folder.
struct BatchInstances {
  exec::TierSetup system_tier;
  sched::Instance tiered, slow, system;
};

BatchInstances profile_batch(const DemoSetup& setup, Reporter& reporter) {
  const auto say = [&reporter](const std::string& line) { reporter.note(line); };
  say("      profiling each task type in isolation, as launched (cores x fast chunks) ...");
  const auto tiered_csv = profile_tasks(setup, setup.tier, "tiered", true, reporter);
  say("      profiling with the tier left to the system (backend none) ...");
  const exec::TierSetup system_tier =
      exec::make_tier_setup("none", setup.tier.emulation_ratio, setup.tier.chunk_bytes);
  const auto system_csv = profile_tasks(setup, system_tier, "system", false, reporter);
  const auto write_instance = [&](sched::Instance instance, const std::string& name) {
    write_text_file(setup.output / name, sched::instance_to_json(instance) + "\n", setup.overwrite(), "instance");
    return instance;
  };
  BatchInstances made{system_tier, write_instance(make_instance(setup, tiered_csv, setup.tier, false), "instance.json"),
                      write_instance(make_instance(setup, tiered_csv, setup.tier, true), "instance-cores-only-slow.json"),
                      write_instance(make_instance(setup, system_csv, system_tier, true),
                                     "instance-cores-only-system.json")};
  // What each task kind's memory-demand probe measured, which the contention-aware predictions then use.
  for (const auto& [tier, instance] : {std::pair{"memory where the tier puts it", &made.tiered},
                                       std::pair{"tier left to the system", &made.system}}) {
    say(fmt::format("      memory-demand probes ({}):", tier));
    for (const std::string& line : profiler::probed_traffic_lines(*instance)) say("        " + line);
  }
  return made;
}

// The mixed batch, profiled as the STREAM batch is, then planned and launched with the Fig. 3(b) algorithms in
// the three memory configurations: cores + fast memory scheduled per task, cores only with all memory slow, and
// cores only with the tier left to the system.
std::vector<RunRow> run_mixed_batch(const DemoSetup& mixed, LaunchHistory& history, Reporter& reporter) {
  const auto say = [&reporter](const std::string& line) { reporter.note(line); };
  std::size_t tasks = 0;
  for (const auto& entry : mixed.batch) tasks += entry.count;
  std::vector<std::string> groups;
  for (const auto& entry : mixed.batch) {
    groups.push_back(fmt::format("{} {} x {} MiB ({} passes)", entry.count, entry.kernel, entry.footprint_bytes >> 20,
                                 entry.passes));
  }
  say(fmt::format("      batch: {} tasks: {}", tasks, fmt::join(groups, ", ")));
  const BatchInstances instances = profile_batch(mixed, reporter);
  std::vector<RunRow> rows;
  for (const auto& algorithm : mixed.fig3b_algorithms) {
    rows.push_back(plan_and_launch(mixed, instances.tiered, "cores+fast", algorithm, mixed.tier, history));
    rows.push_back(plan_and_launch(mixed, instances.slow, "cores-only-slow", algorithm, mixed.tier, history));
    rows.push_back(
        plan_and_launch(mixed, instances.system, "cores-only-system", algorithm, instances.system_tier, history));
    say(fmt::format("      {:<11} cores+fast: observed {:7.2f} s; all slow: {:7.2f} s; system: {:7.2f} s", algorithm,
                    rows[rows.size() - 3].observed(), rows[rows.size() - 2].observed(), rows.back().observed()));
  }
  return rows;
}

}  // namespace

std::filesystem::path run_demo(const DemoOptions& options, Reporter& reporter) {
  check_demo_output(options);  // before any work: a bad --output is refused at once
  const auto begin = std::chrono::steady_clock::now();
  const auto say = [&reporter](const std::string& line) { reporter.note(line); };
  std::vector<std::string> names = options.algorithms;
  if (names.empty()) {
    // sched's table starts with the eight and bw-list-lpt; the sim core's planners follow (the last one is also
    // the noise floor's plan).
    const auto registered = sched::algorithm_names();
    const std::size_t count = std::min<std::size_t>(9, registered.size());
    names.assign(registered.begin(), registered.begin() + static_cast<std::ptrdiff_t>(count));
    for (std::string& planner : sim::planner_names()) names.push_back(std::move(planner));
  }
  say(fmt::format("cosched demo{}: calibrate and profile this node, plan a STREAM batch with the {} algorithms (the "
                  "eight of Sun et al., a bandwidth-aware one and the planners that search under the contention "
                  "model), launch each plan and compare observed with predicted makespans — the paper's model and "
                  "the contention-aware one",
                  options.quick ? " (quick)" : "", names.size()));
  say("[1/7] choosing the batch, calibrating kernel passes and the node's memory bandwidth ...");
  DemoSetup setup = make_setup(options);
  calibrate_bandwidth(setup);
  say("      node: " + describe_demo_node(setup));
  std::size_t tasks = 0;
  for (const auto& entry : setup.batch) tasks += entry.count;
  for (const auto& pool : setup.node.pools) {
    std::vector<std::string> points;
    for (std::size_t k = 0; k < pool.bandwidth.cores.size(); ++k) {
      points.push_back(fmt::format("{} cores {:.1f} GB/s", pool.bandwidth.cores[k], pool.bandwidth.gbs[k]));
    }
    say(fmt::format("      memory pool {} (tiers {}): {}{}; calibrated in {:.1f} s, node.toml", pool.name,
                    fmt::join(pool.tiers, "+"), fmt::join(points, ", "),
                    setup.node.provenance.emulated ? " — EMULATED tier: both tiers are this one DRAM" : "",
                    setup.calibration_s));
  }
  say(fmt::format("      batch: {} tasks (write, ddot, triad x {} and {} MiB), passes per task {}", tasks,
                  setup.footprints[0] >> 20, setup.footprints[1] >> 20,
                  fmt::join([&] {
                    std::vector<unsigned> p;
                    for (const auto& entry : setup.batch) p.push_back(entry.passes);
                    return p;
                  }(),
                            "/")));

  say("[2/7] profiling the batch (cores x fast chunks, then the tier left to the system) ...");
  const BatchInstances instances = profile_batch(setup, reporter);
  say("[3/7] instances: instance.json, instance-cores-only-slow.json, instance-cores-only-system.json");
  const sched::Instance& tiered = instances.tiered;
  const sched::Instance& slow = instances.slow;
  const sched::Instance& system = instances.system;
  const exec::TierSetup& system_tier = instances.system_tier;

  // The algorithms that apply to the cores + fast memory instance (bsp-a1..a4 schedule one resource: skipped).
  for (const sched::Algorithm* algorithm : sim::algorithms()) {
    if (const std::string reason = algorithm->refusal(tiered); !reason.empty()) {
      std::erase(names, std::string(algorithm->name()));
      say(fmt::format("      {} skipped: {}", algorithm->name(), reason));
    }
  }
  std::vector<RunRow> rows;
  LaunchHistory history;  // every launch's interval from the errors of the launches before it
  say(fmt::format("[4/7] launching the {} plans (cores + fast memory scheduled) ...", names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    rows.push_back(plan_and_launch(setup, tiered, "cores+fast", names[i], setup.tier, history));
    const RunRow& row = rows.back();
    say(fmt::format("      [{}/{}] {:<11} predicted {:7.2f} s (paper) {} (contention), observed {:7.2f} s{}", i + 1,
                    names.size(), names[i], row.predicted(),
                    row.predicted_contention() ? fmt::format("{:7.2f} s", *row.predicted_contention()) : "      -",
                    row.observed(), describe_interval(row)));
  }
  // The noise floor: the last plan (by default the model-driven planner's) again, unchanged, to see what run-to-run noise alone
  // does to an observed makespan.
  NoiseFloor noise{names.back(), {rows.back().observed()}};
  say(fmt::format("[5/7] noise floor: the {} plan launched {} more times ...", noise.algorithm,
                  setup.noise_launches - 1));
  for (unsigned repeat = 1; repeat < setup.noise_launches; ++repeat) {
    noise.observed.push_back(
        plan_and_launch(setup, tiered, "cores+fast", noise.algorithm, setup.tier, history, repeat).observed());
  }
  say(fmt::format("      observed {:.3f} s: ±{:.1f} % (half range / median)", fmt::join(noise.observed, " s, "),
                  noise.relative_half_range() * 100));
  say("[6/7] Fig. 3(b): cores only, all memory slow / tier left to the system ...");
  for (const auto& algorithm : setup.fig3b_algorithms) {
    rows.push_back(plan_and_launch(setup, slow, "cores-only-slow", algorithm, setup.tier, history));
    rows.push_back(plan_and_launch(setup, system, "cores-only-system", algorithm, system_tier, history));
    say(fmt::format("      {:<11} all slow: observed {:7.2f} s; system: observed {:7.2f} s", algorithm,
                    rows[rows.size() - 2].observed(), rows.back().observed()));
  }
  const DemoSetup mixed = make_mixed_setup(setup);
  say(fmt::format("[7/7] the mixed batch ({}): Fig. 3(a)/(b) ...", mixed_kernel_list(mixed)));
  const std::vector<RunRow> mixed_rows = run_mixed_batch(mixed, history, reporter);
  write_mixed_results(mixed, mixed_rows, reporter);
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  write_results(setup, rows, noise, total, reporter);  // its last line names the output folder
  return setup.output;
}

}  // namespace cosched::workflow::demo
