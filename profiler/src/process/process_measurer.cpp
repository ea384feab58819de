#include "cosched/profiler/process_measurer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cosched/common/error.hpp"
#include "process/process_measurers.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/process_tree.hpp"
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
                                 std::filesystem::path stream_bench, TaskPasses passes, unsigned reps, unsigned warmup)
    : platform_(std::move(platform)),
      tier_(std::move(tier)),
      stream_bench_(std::move(stream_bench)),
      passes_(std::move(passes)),
      reps_(reps),
      warmup_(warmup),
      cores_(std::make_shared<platform::CoreAllocator>(platform::Topology::this_system())) {
  if (reps_ == 0) throw UsageError("the process measurer needs at least one timed launch per point");
}

void ProcessMeasurer::check_kernel(const std::string& kernel) const { (void)stream::find_kernel(kernel); }

exec::TaskLaunch ProcessMeasurer::launch_of(const ProfilePoint& point, unsigned passes) {
  config::WorkloadTask task;
  task.id = config::stream_task_id(point.kernel, point.footprint_bytes, 0);
  task.kernel = point.kernel;
  task.footprint_bytes = point.footprint_bytes;
  task.passes = passes;
  platform::Grant grant;
  grant.amounts = {static_cast<int>(point.cores), static_cast<int>(point.chunks)};
  grant.cores = cores_->allocate(point.cores);
  grant.fast_chunks = point.chunks;
  const exec::TaskLaunch launch = exec::build_task_launch(task, grant, tier_, stream_bench_, {});
  cores_->release(grant.cores);
  return launch;
}

double ProcessMeasurer::time_run(const exec::TaskLaunch& launch, const ProfilePoint& point) const {
  const auto begin = std::chrono::steady_clock::now();
  exec::ChildProcess child = exec::ChildProcess::spawn(launch.spec);
  const exec::ExitInfo exit = child.reap();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!exit.ok()) {
    throw RuntimeFailure(fmt::format("{} footprint_bytes={} cores={} chunks={}: stream_bench ended with {}",
                                     point.kernel, point.footprint_bytes, point.cores, point.chunks,
                                     exit.describe()));
  }
  return seconds;
}

Measurement ProcessMeasurer::measure(const ProfilePoint& point) {
  const PassCounts passes = passes_.of(point);
  const exec::TaskLaunch low = launch_of(point, passes.low);
  std::optional<exec::TaskLaunch> high;
  if (passes.separates_fixed_cost()) high = launch_of(point, passes.high);
  Measurement measurement;
  unsigned unresolved = 0;  // timed repetitions whose cost per pass is the floor below
  for (unsigned rep = 0; rep < warmup_ + reps_; ++rep) {
    const double low_s = time_run(low, point);
    measurement.overhead_free_s += low_s;
    if (!high) {
      if (rep >= warmup_) measurement.times_s.push_back(low_s / passes.low);
      continue;
    }
    // The two runs back to back, so that both see the machine in the same state: the passes between them cost
    // the difference, and what is left of the short run is what any run pays.
    const double high_s = time_run(*high, point);
    measurement.overhead_free_s += high_s;
    if (rep < warmup_) continue;
    const PassSplit split = split_by_passes(low_s, high_s, passes);
    if (!split.resolved) ++unresolved;
    measurement.times_s.push_back(split.per_pass_s);
    measurement.fixed_s.push_back(split.fixed_s);
  }
  // Said, not hidden: the floor is no measurement, and a task of other passes would be predicted from it.
  if (unresolved > 0) {
    measurement.note = fmt::format(
        "{} footprint_bytes={} cores={} chunks={}: in {} of {} repetition(s) the {}-pass run took no longer than the "
        "{}-pass run (the start-up varies more than those passes cost), so its cost per pass is a floor, not a "
        "measurement; more passes between the two counts or more repetitions resolve it",
        point.kernel, point.footprint_bytes, point.cores, point.chunks, unresolved, reps_, passes.high, passes.low);
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
                            {"stream_bench", stream_bench_.string()}};
  if (tier_.emulated()) context["emulation_ratio"] = tier_.emulation_ratio;
  return context;
}

// `cosched profile --measurer process`: the sweep's platform and tier backend, the stream_bench next to this
// executable, and the sweep's passes for every point.
std::unique_ptr<PointMeasurer> make_process_measurer(const MeasurerOptions& options) {
  const config::PlatformConfig& platform = options.platform;
  exec::TierSetup tier =
      exec::make_tier_setup(platform.tier_backend, platform.emulation_ratio, platform.chunk_bytes());
  exec::start_tree_watchdog();  // its fork is not part of the first point's time
  return std::make_unique<ProcessMeasurer>(platform, std::move(tier), exec::default_stream_bench_path(),
                                           TaskPasses(options.passes), options.reps, options.warmup);
}

}  // namespace cosched::profiler
