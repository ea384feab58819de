// `cosched demo --workload FILE`: the demo's pipeline on the user's own batch of commands. Each distinct command
// is profiled as the launcher runs it (the "command" measurer: pinned child processes, cores x fast chunks where the
// tier places commands, cores only otherwise), the batch becomes an instance, every algorithm plans it, and every
// plan is launched and compared with its prediction. The built-in STREAM batch is `cosched demo` without it.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/host_memory.hpp"
#include "cosched/profiler/instance_builder.hpp"
#include "cosched/profiler/launched_profile.hpp"
#include "cosched/sched/algorithm.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sched/io.hpp"
#include "demo_setup.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/workload_file.hpp"

namespace cosched::workflow::demo {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr unsigned kChunks = 20;

// The node: its allowed cores and its tier backend, the fast tier in 20 chunks (480 MiB when it is emulated,
// which commands cannot use: they are then scheduled on cores only).
DemoSetup workload_setup(const DemoOptions& options) {
  DemoSetup setup;
  setup.options = options;
  setup.output = options.output.empty() ? std::filesystem::current_path() / "cosched-demo-workload" : options.output;
  setup.stream_bench = options.stream_bench;  // commands only: stream_bench is never run
  const std::string backend = platform::auto_tier_backend_name();
  const bool emulated = platform::tier_backend_info(backend).capabilities.emulated;
  setup.platform = config::this_machine_platform(backend, config::kDefaultEmulationRatio, kChunks,
                                                 emulated ? 480 * kMiB : 0);
  setup.platform.name = "this node";
  setup.platform.source = "cosched demo --workload";
  setup.tier = exec::make_tier_setup(setup.platform);
  setup.workload = cosched::exec::read_workload(options.workload, setup.platform);
  return setup;
}

// The output folder, created only once the batch has passed every check (issue #27: a refused batch leaves no
// empty runs/ behind).
void create_output(const DemoSetup& setup) {
  std::error_code error;
  std::filesystem::create_directories(setup.output / "runs", error);
  if (error) throw UsageError(fmt::format("cannot create {}: {}", (setup.output / "runs").string(), error.message()));
}

std::filesystem::path profile_commands(const DemoSetup& setup, const std::vector<profiler::CommandProfileSpec>& commands,
                                       unsigned reps, Reporter& reporter) {
  profiler::LaunchedProfileOptions profile;
  profile.platform = setup.platform;
  profile.tier = setup.tier;
  profile.reps = reps;
  profile.reporter = &reporter;
  const auto csv = setup.output / "profile-commands.csv";
  const auto outcome = profiler::profile_commands(commands, profile, csv);
  profiler::throw_if_interrupted(outcome, csv);
  if (!outcome.failures.empty()) {
    throw RuntimeFailure(fmt::format("{} profiled point(s) failed (first: {}); see {}", outcome.failures.size(),
                                     outcome.failures.front(), csv.string()));
  }
  return csv;
}

}  // namespace

std::filesystem::path run_workload_demo(const DemoOptions& options, Reporter& reporter) {
  check_demo_output(options);
  const auto begin = std::chrono::steady_clock::now();
  const auto say = [&reporter](const std::string& line) { reporter.note(line); };
  DemoSetup setup = workload_setup(options);
  const auto commands = profiler::distinct_commands(setup.workload);
  exec::check_batch_before_work(setup.workload, platform::total_memory_bytes());
  create_output(setup);
  say(fmt::format("cosched demo --workload {}: {} tasks, {} distinct commands, on {} cores, tier backend {}",
                  options.workload.string(), setup.workload.tasks.size(), commands.size(), setup.platform.cores,
                  setup.tier.backend));
  const bool fast = setup.tier.places_commands();
  say(fast ? "[1/3] calibrating the node's memory bandwidth, profiling each command as launched (cores x fast "
             "chunks) and its memory demand (two copies side by side) ..."
           : fmt::format("[1/3] calibrating the node's memory bandwidth, profiling each command as launched, cores "
                         "only (tier backend {} cannot give an unmodified program fast memory: fast memory is not "
                         "emulated for commands), and its memory demand (two copies side by side) ...",
                         setup.tier.backend));
  calibrate_bandwidth(setup);  // the pools the commands share: their probes are read with it, their plans predicted
  const auto csv = profile_commands(setup, commands, options.quick ? 1 : 2, reporter);
  sched::Instance instance = profiler::build_instance(setup.workload, profiler::load_profile_set({csv}), setup.platform,
                                                      &setup.bandwidth);
  for (const std::string& line : profiler::probed_traffic_lines(instance)) say("      " + line);
  if (!fast) instance = sched::leading_resources(instance, 1);
  write_text_file(setup.output / "instance.json", sched::instance_to_json(instance) + "\n", setup.overwrite(),
                  "instance");
  const auto names = sim::algorithm_names();
  say(fmt::format("[2/3] planning and launching with the {} algorithms ...", names.size()));
  std::vector<RunRow> rows;
  rows.reserve(names.size());  // compared_runs points into the rows
  LaunchHistory history;       // every launch's interval from the errors of the launches before it
  for (std::size_t i = 0; i < names.size(); ++i) {
    const RunRow& row = rows.emplace_back(
        plan_and_launch(setup, instance, fast ? "cores+fast" : "cores-only", names[i], setup.tier, history));
    const std::optional<double> contention = row.predicted_contention();
    say(fmt::format("      [{}/{}] {:<15} predicted {:7.3f} s ({}), observed {:7.3f} s ({:+.1f} %){}, {} ok, {} failed",
                    i + 1, names.size(), names[i], contention.value_or(row.predicted()),
                    contention ? "contention-aware" : "paper model", row.observed(),
                    100.0 * (row.ratio_contention().value_or(row.ratio()) - 1.0), describe_interval(row),
                    row.tasks_ok(), row.tasks_failed()));
  }
  write_text_file(setup.output / "results.csv", launcher::results_csv(compared_runs(rows), setup.tier.emulated()),
                  setup.overwrite(), "demo results");
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const IntervalCoverage coverage = interval_coverage(rows);
  say(fmt::format("[3/3] done in {:.1f} s: node.toml, profile-commands.csv, instance.json, runs/, results.csv; "
                  "observed inside the stated 80 % interval in {} of {} launches",
                  total, coverage.inside, coverage.stated));
  say(setup.output.string());
  return setup.output;
}

}  // namespace cosched::workflow::demo
