#include "cosched/profiler/process_measurer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cosched/common/error.hpp"
#include "process/process_measurers.hpp"
#include "process/side_by_side.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/platform/host_memory.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::profiler {

TaskPasses::TaskPasses(PassCounts every_task) : every_task_(every_task) {
  if (every_task.low == 0) throw UsageError("a task runs at least one kernel pass");
}

TaskPasses::TaskPasses(PerTask per_task) : per_task_(std::move(per_task)) {}

PassCounts TaskPasses::of(const ProfilePoint& point) const {
  if (every_task_) return *every_task_;
  const auto found = per_task_.find({point.kernel, point.footprint_bytes});
  if (found == per_task_.end()) {
    throw UsageError(
        fmt::format("no passes given for {} with footprint_bytes={}", point.kernel, point.footprint_bytes));
  }
  return found->second;
}

nlohmann::json TaskPasses::describe() const {
  if (every_task_) return pass_counts_json(*every_task_);
  return "per task";
}

ProcessMeasurer::ProcessMeasurer(config::PlatformConfig platform, exec::TierSetup tier,
                                 std::filesystem::path stream_bench, TaskPasses passes, unsigned reps, unsigned warmup,
                                 unsigned pair_cores)
    : platform_(std::move(platform)),
      tier_(std::move(tier)),
      stream_bench_(std::move(stream_bench)),
      passes_(std::move(passes)),
      reps_(reps),
      warmup_(warmup),
      pair_cores_(pair_cores),
      warm_up_(warms_up_memory()),
      cores_(std::make_shared<platform::CoreAllocator>(platform::Topology::this_system())) {
  if (reps_ == 0) throw UsageError("the process measurer needs at least one timed launch per point");
}

bool ProcessMeasurer::warms_up_memory() { return platform::detect_free_page_reporting().active; }

void ProcessMeasurer::check_kernel(const std::string& kernel) const { (void)stream::find_kernel(kernel); }

config::WorkloadTask ProcessMeasurer::task_of(const ProfilePoint& point, unsigned passes) {
  config::WorkloadTask task;
  task.id = config::stream_task_id(point.kernel, point.footprint_bytes, 0);
  task.kernel = point.kernel;
  task.footprint_bytes = point.footprint_bytes;
  task.passes = passes;
  return task;
}

std::optional<double> ProcessMeasurer::time_run(const exec::TaskLaunch& launch, const ProfilePoint& point) const {
  if (warm_up_) (void)platform::warm_up_memory(point.footprint_bytes);
  const auto begin = std::chrono::steady_clock::now();
  exec::ChildProcess child = exec::ChildProcess::spawn(launch.spec);
  const std::optional<exec::ExitInfo> exit = child.reap_or_stop(run_timeout_s_, kKillGraceSeconds);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!exit) return std::nullopt;
  if (!exit->ok()) {
    throw RuntimeFailure(fmt::format("{} footprint_bytes={} cores={} chunks={}: stream_bench ended with {}",
                                     point.kernel, point.footprint_bytes, point.cores, point.chunks,
                                     exit->describe()));
  }
  return seconds;
}

Measurement ProcessMeasurer::measure(const ProfilePoint& point) {
  const PassCounts passes = passes_.of(point);
  const auto launches_of = [&](unsigned count, std::size_t copies) {
    return launches_on_own_cores(*cores_, task_of(point, count), point, copies, tier_, stream_bench_);
  };
  const exec::TaskLaunch low = launches_of(passes.low, 1).front();
  std::optional<exec::TaskLaunch> high;
  if (passes.separates_fixed_cost()) high = launches_of(passes.high, 1).front();
  // The memory-demand probe: the run of the most passes again as two copies side by side.
  std::vector<exec::TaskLaunch> pair;
  if (is_probe_point(point, pair_cores_, *cores_)) pair = launches_of(high ? passes.high : passes.low, 2);
  Measurement measurement;
  // A run stopped at the timeout ends the point: what it measured so far is no time of the point.
  const auto stopped = [&] {
    Measurement failed;
    failed.overhead_free_s = measurement.overhead_free_s + *run_timeout_s_;
    failed.failure = "timeout";
    failed.failure_message =
        fmt::format("{} footprint_bytes={} cores={} chunks={}: still running after its timeout of {} s: stopped",
                    point.kernel, point.footprint_bytes, point.cores, point.chunks, *run_timeout_s_);
    return failed;
  };
  unsigned unresolved = 0;  // timed repetitions whose cost per pass is the floor below
  std::string probe_failure;
  for (unsigned rep = 0; rep < warmup_ + reps_; ++rep) {
    const std::optional<double> low_s = time_run(low, point);
    if (!low_s) return stopped();
    measurement.overhead_free_s += *low_s;
    double per_pass_s = *low_s / passes.low;
    double alone_s = *low_s;  // the run the probe pairs
    if (high) {
      // The two runs back to back, so that both see the machine in the same state: the passes between them cost
      // the difference, and what is left of the short run is what any run pays.
      const std::optional<double> high_s = time_run(*high, point);
      if (!high_s) return stopped();
      alone_s = *high_s;
      measurement.overhead_free_s += alone_s;
      const PassSplit split = split_by_passes(*low_s, alone_s, passes);
      if (rep >= warmup_) {
        if (!split.resolved) ++unresolved;
        measurement.fixed_s.push_back(split.fixed_s);
      }
      per_pass_s = split.per_pass_s;
    }
    if (rep < warmup_) continue;
    measurement.times_s.push_back(per_pass_s);
    if (pair.empty()) continue;
    // Right after the same run alone, so both see the machine in one state: each copy's slowdown is a ratio of two
    // runs a moment apart, never of runs minutes apart.
    const SideBySide ran =
        run_side_by_side(pair, run_timeout_s_, warm_up_ ? pair.size() * point.footprint_bytes : 0);
    if (!ran.failure.empty()) {  // as for a command: the point keeps its own time, and says the probe failed
      measurement.paired_slowdowns.clear();
      probe_failure = fmt::format("{} footprint_bytes={} cores={} chunks={}: the memory-demand probe (two copies side "
                                  "by side) failed: {}; the instance counts its bytes as they are",
                                  point.kernel, point.footprint_bytes, point.cores, point.chunks, ran.failure);
      pair.clear();
      continue;
    }
    for (const double seconds : ran.seconds) {
      measurement.paired_slowdowns.push_back(seconds / alone_s);
      measurement.overhead_free_s += seconds / 2.0;
    }
  }
  // Said, not hidden: the floor is no measurement, and a task of other passes would be predicted from it.
  if (unresolved > 0) {
    measurement.note = fmt::format(
        "{} footprint_bytes={} cores={} chunks={}: in {} of {} repetition(s) the {}-pass run took no longer than the "
        "{}-pass run (the start-up varies more than those passes cost), so its cost per pass is a floor, not a "
        "measurement; more passes between the two counts or more repetitions resolve it",
        point.kernel, point.footprint_bytes, point.cores, point.chunks, unresolved, reps_, passes.high, passes.low);
  }
  if (!probe_failure.empty()) {
    measurement.note = measurement.note.empty() ? probe_failure : measurement.note + "; " + probe_failure;
  }
  return measurement;
}

nlohmann::json ProcessMeasurer::describe() const {
  nlohmann::json context = {{"measurer", "process"},
                            {"measures", "whole stream_bench child processes, per pass: time / passes, or at two pass "
                                         "counts the difference / the passes between, fixed_s the rest"},
                            {"passes", passes_.describe()},
                            {"tier_backend", tier_.backend},
                            {"emulated", tier_.emulated()},
                            {"stream_bench", stream_bench_.string()},
                            {"memory_warm_up", warm_up_ ? "before each run, its footprint touched and freed (the host "
                                                          "takes free memory back)"
                                                        : "none (the host does not take free memory back)"}};
  if (tier_.emulated()) context["emulation_ratio"] = tier_.emulation_ratio;
  if (run_timeout_s_) context["run_timeout_s"] = *run_timeout_s_;
  if (pair_cores_ > 0) {
    context["memory_demand_probe"] =
        fmt::format("paired_s: at {} core(s) and no fast chunks, each repetition's run of the most passes again as two "
                    "copies side by side on cores of their own, right after it ran alone; in time_s's unit: time_s x "
                    "the median over copies and repetitions of (the copy's time / the run's time alone), "
                    "paired_min_s and paired_max_s time_s x their least and most",
                    pair_cores_);
  }
  return context;
}

// `cosched profile --measurer process`: the sweep's platform and tier backend, the stream_bench next to this
// executable, and the sweep's passes for every point.
std::unique_ptr<PointMeasurer> make_process_measurer(const MeasurerOptions& options) {
  const config::PlatformConfig& platform = options.platform;
  exec::TierSetup tier = exec::make_tier_setup(platform);
  exec::start_tree_watchdog();  // its fork is not part of the first point's time
  return std::make_unique<ProcessMeasurer>(platform, std::move(tier), exec::default_stream_bench_path(),
                                           TaskPasses(options.passes), options.reps, options.warmup,
                                           platform.cores / 2);
}

}  // namespace cosched::profiler
