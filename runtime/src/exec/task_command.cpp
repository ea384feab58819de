#include "cosched/exec/task_command.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/platform/command_placement.hpp"
#include "cosched/platform/page_movers.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/kernels/kernels.hpp"
#include "cosched/common/host.hpp"

namespace cosched::exec {

namespace {

void replace_all(std::string& text, const std::string& key, const std::string& value) {
  for (std::size_t pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + value.size())) {
    text.replace(pos, key.size(), value);
  }
}

std::size_t granted_fast_bytes(const platform::Grant& grant, const TierSetup& tier) {
  return static_cast<std::size_t>(std::floor(static_cast<double>(grant.fast_chunks) * tier.chunk_bytes));
}

std::vector<std::string> stream_argv(const config::WorkloadTask& task, const platform::Grant& grant,
                                     const std::filesystem::path& stream_bench,
                                     const platform::ChildPlacement& placement) {
  const auto& kernel = kernels::find_kernel(task.kernel);
  const double array_mib = static_cast<double>(task.footprint_bytes) /
                           static_cast<double>(kernel.array_count()) / (1024.0 * 1024.0);
  std::vector<std::string> argv{stream_bench.string(),
                                "--kernel", task.kernel,
                                // No --cores: the child is bound to exactly its granted cores before exec, and
                                // stream_bench numbers cores within its own affinity, so "the first N" are they.
                                "--threads", std::to_string(grant.cores.size()),
                                "--size-mib", fmt::format("{}", array_mib),
                                "--reps", std::to_string(task.passes),
                                "--warmup", "0",
                                "--json"};
  argv.insert(argv.end(), placement.stream_bench_args.begin(), placement.stream_bench_args.end());
  return argv;
}

}  // namespace

std::string substitute_placeholders(const std::string& arg, const platform::Grant& grant, std::size_t fast_bytes) {
  std::string text = arg;
  replace_all(text, "{threads}", std::to_string(grant.cores.size()));
  replace_all(text, "{cpuset}", platform::to_range_text(grant.cores.all_pus()));
  replace_all(text, "{cores}", fmt::format("{}", fmt::join(grant.cores.cores, ",")));
  replace_all(text, "{fast_bytes}", std::to_string(fast_bytes));
  return text;
}

TaskLogPaths task_log_paths(const TaskLogs& logs, const std::string& id) {
  // Ids are checked where workloads are parsed; checked again here, where they name files, so that no id can ever
  // write outside the log folder.
  check_identifier(id, "task log file in " + logs.folder.string());
  // '@' is outside the id alphabet: no task's first-attempt stem can equal another's later attempt ("a.attempt2"
  // is a valid id, "a@attempt2" is not).
  const std::string stem = logs.attempt <= 1 ? id : fmt::format("{}@attempt{}", id, logs.attempt);
  return {logs.folder / (stem + ".out"), logs.folder / (stem + ".err")};
}

TaskLaunch build_task_launch(const config::WorkloadTask& task, const platform::Grant& grant, const TierSetup& tier,
                             const std::filesystem::path& stream_bench, const TaskLogs& logs) {
  TaskLaunch launch;
  launch.timeout_s = task.timeout_s;
  launch.spec.pus = grant.cores.all_pus();
  if (!logs.folder.empty()) {
    const TaskLogPaths paths = task_log_paths(logs, task.id);
    launch.spec.stdout_path = paths.out;
    launch.spec.stderr_path = paths.err;
  }
  // The backend decides how the child gets its share (platform::TierBackendInfo::child_placement).
  platform::ChildPlacementRequest request;
  request.program = task.is_stream() ? platform::ChildProgram::stream_bench : platform::ChildProgram::command;
  request.granted_fast_bytes = granted_fast_bytes(grant, tier);
  request.footprint_bytes = task.footprint_bytes;
  request.emulation_ratio = tier.emulation_ratio;
  request.nodes = {tier.fast_nodes, tier.slow_nodes};
  request.command_placement = tier.command_placement;
  request.autohbw_threshold_bytes = tier.autohbw_threshold_bytes;
  request.autohbw_library = tier.autohbw_library;
  if (!task.is_stream()) request.command_footprint_bytes = task.footprint_bytes;
  const platform::ChildPlacement placement = tier.info().child_placement(request);
  launch.fast_bytes = placement.fast_bytes;
  launch.placement = placement.description;
  launch.applied_fraction = placement.applied_fraction;
  if (task.is_stream()) {
    launch.spec.argv = stream_argv(task, grant, stream_bench, placement);
  } else {
    // A command that says how its work scales runs the batch's amount ({work}) when launched.
    const std::vector<std::string> argv =
        task.work ? config::command_at_work(task.command, task.work->value) : task.command;
    for (const auto& arg : argv) launch.spec.argv.push_back(substitute_placeholders(arg, grant, launch.fast_bytes));
    launch.spec.memory = placement.memory;
    // The task's own variables first: the placement's (autohbw's LD_PRELOAD, ...) are how it gets its share.
    launch.spec.environment = task.environment;
    launch.spec.environment.insert(launch.spec.environment.end(), placement.environment.begin(),
                                   placement.environment.end());
    launch.spec.interleave_weights = placement.interleave_weights;
  }
  return launch;
}

TierSetup make_tier_setup(const std::string& backend, double emulation_ratio, double chunk_bytes,
                          const std::string& command_placement) {
  (void)platform::command_placement_mechanism(command_placement);  // an unknown name fails here, not at a task
  platform::TierOptions options;
  options.backend = backend;
  options.emulation_ratio = emulation_ratio;
  TierSetup tier;
  tier.backend = platform::resolve_tier_backend_name(options);
  tier.emulation_ratio = emulation_ratio;
  tier.chunk_bytes = chunk_bytes;
  tier.command_placement = command_placement;
  // A real tier this machine does not have (numa without fast and slow nodes, memkind without HBW nodes) is
  // refused here, before any work, as the backend itself would refuse it — not at every task of a launch.
  if (tier.has_fast_tier() && !tier.emulated()) {
    (void)platform::fast_tier_capacity_bytes(options);
    // Placement is the point of a real tier: refused where something moves bound pages (page_movers.hpp).
    platform::check_placement_holds(platform::detect_page_movers(), "tier backend \"" + tier.backend + "\"");
  }
  if (tier.info().capabilities.places_commands) {
    tier.fast_nodes = platform::detected_tier_nodes().fast;
    tier.slow_nodes = platform::detected_tier_nodes().slow;
  }
  return tier;
}

TierSetup make_tier_setup(const config::PlatformConfig& platform, const std::string& command_placement) {
  TierSetup tier =
      make_tier_setup(platform.tier_backend, platform.emulation_ratio, platform.chunk_bytes(), command_placement);
  if (!tier.has_fast_tier() || tier.emulated()) return tier;  // an emulated tier is as large as the platform says
  platform::TierOptions options;
  options.backend = tier.backend;
  const std::size_t real = platform::fast_tier_capacity_bytes(options);
  if (platform.fast_capacity_bytes > real) {
    constexpr double mib = 1 << 20;
    throw ResourceError(fmt::format(
        "platform {} plans a fast tier of {:.0f} MiB, but tier backend \"{}\" has {:.0f} MiB on this machine: a "
        "plan for it would hand out fast memory that is not there (give capacity = \"auto\", or the real size)",
        platform.name, static_cast<double>(platform.fast_capacity_bytes) / mib, tier.backend,
        static_cast<double>(real) / mib));
  }
  return tier;
}

std::filesystem::path default_stream_bench_path() {
  if (const auto self = own_executable()) {
    const auto sibling = self->parent_path() / "stream_bench";
    if (::access(sibling.c_str(), X_OK) == 0) return sibling;
  }
  return resolve_executable("stream_bench");
}

}  // namespace cosched::exec
