#include "cosched/profiler/process_measurer.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cosched/common/error.hpp"
#include "process/process_measurers.hpp"
#include "cosched/exec/child_process.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::profiler {

TaskPasses::TaskPasses(unsigned every_task) : every_task_(every_task) {
  if (every_task_ == 0) throw UsageError("a task runs at least one kernel pass");
}

TaskPasses::TaskPasses(PerTask per_task) : per_task_(std::move(per_task)) {}

unsigned TaskPasses::of(const ProfilePoint& point) const {
  if (every_task_ > 0) return every_task_;
  const auto found = per_task_.find({point.kernel, point.footprint_bytes});
  if (found == per_task_.end()) {
    throw UsageError(
        fmt::format("no passes given for {} with footprint_bytes={}", point.kernel, point.footprint_bytes));
  }
  return found->second;
}

nlohmann::json TaskPasses::describe() const {
  if (every_task_ > 0) return every_task_;
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

Measurement ProcessMeasurer::measure(const ProfilePoint& point) {
  config::WorkloadTask task;
  task.id = config::stream_task_id(point.kernel, point.footprint_bytes, 0);
  task.kernel = point.kernel;
  task.footprint_bytes = point.footprint_bytes;
  task.passes = passes_.of(point);
  platform::Grant grant;
  grant.amounts = {static_cast<int>(point.cores), static_cast<int>(point.chunks)};
  grant.cores = cores_->allocate(point.cores);
  grant.fast_chunks = point.chunks;
  const exec::TaskLaunch launch = exec::build_task_launch(task, grant, tier_, stream_bench_, {});
  cores_->release(grant.cores);

  Measurement measurement;
  for (unsigned rep = 0; rep < warmup_ + reps_; ++rep) {
    const auto begin = std::chrono::steady_clock::now();
    exec::ChildProcess child = exec::ChildProcess::spawn(launch.spec);
    const exec::ExitInfo exit = child.reap();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (!exit.ok()) {
      throw RuntimeFailure(fmt::format("{} footprint_bytes={} cores={} chunks={}: stream_bench ended with {}",
                                       point.kernel, point.footprint_bytes, point.cores, point.chunks,
                                       exit.describe()));
    }
    measurement.overhead_free_s += seconds;
    if (rep >= warmup_) measurement.times_s.push_back(seconds / task.passes);
  }
  return measurement;
}

nlohmann::json ProcessMeasurer::describe() const {
  nlohmann::json context = {{"measurer", "process"},
                            {"measures", "whole stream_bench child processes, per pass (time / passes)"},
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
