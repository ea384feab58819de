#include "cosched/profiler/command_measurer.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/exec/process_tree.hpp"
#include "cosched/platform/host_memory.hpp"
#include "process/process_measurers.hpp"
#include "process/side_by_side.hpp"
#include "cosched/platform/topology.hpp"

namespace cosched::profiler {

namespace {


std::string status_of(const exec::ExitInfo& exit) {
  return exit.signal != 0 ? fmt::format("signal-{}", exit.signal) : fmt::format("exit-{}", exit.exit_code);
}

std::string describe_point(const ProfilePoint& point) {
  return fmt::format("command {} cores={} chunks={}", command_name_of(point.kernel), point.cores,
                     point.chunks);
}

}  // namespace

CommandMeasurer::CommandMeasurer(std::vector<CommandProfileSpec> commands, exec::TierSetup tier,
                                 unsigned reps, unsigned warmup, unsigned pair_cores)
    : commands_(std::move(commands)),
      tier_(std::move(tier)),
      reps_(reps),
      warmup_(warmup),
      pair_cores_(pair_cores),
      warm_up_(platform::detect_free_page_reporting().active),
      cores_(std::make_shared<platform::CoreAllocator>(platform::Topology::this_system())) {
  if (reps_ == 0) throw UsageError("the command measurer needs at least one timed run per point");
  std::string pattern = (std::filesystem::temp_directory_path() / "cosched-profile-stderr-XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw PlatformError("mkstemp", "cannot create a file for the commands' stderr", errno);
  ::close(fd);
  stderr_path_ = pattern;
}

CommandMeasurer::~CommandMeasurer() {
  std::error_code ignored;
  std::filesystem::remove(stderr_path_, ignored);
}

void CommandMeasurer::check_kernel(const std::string& kernel) const {
  const auto name = command_name_of(kernel);
  for (const auto& command : commands_) {
    if (command.name == name) return;
  }
  throw UsageError(fmt::format("measurer command measures commands only, not kernel '{}'", kernel));
}

std::string CommandMeasurer::last_stderr_line() const {
  std::ifstream in(stderr_path_);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  if (last.size() > 200) last = last.substr(0, 200) + "...";
  return last;
}

double CommandMeasurer::run_once(const CommandProfileSpec& command, const exec::TaskLaunch& launch,
                                 const ProfilePoint& point, Measurement& failure) {
  const auto begin = std::chrono::steady_clock::now();
  std::optional<exec::ChildProcess> started;
  try {
    started.emplace(exec::ChildProcess::spawn(launch.spec));
  } catch (const InputError& e) {  // resolve_executable: no such program
    failure.failure = "not-found";
    failure.failure_message = fmt::format("{}: {}", describe_point(point), e.what());
    return 0.0;
  } catch (const Error& e) {  // binding, memory policy, weights, exec
    failure.failure = "start-failed";
    failure.failure_message = fmt::format("{}: could not start: {}", describe_point(point), e.what());
    return 0.0;
  }
  exec::ChildProcess& child = *started;
  const std::optional<exec::ExitInfo> exit = child.reap_or_stop(command.timeout_s, kKillGraceSeconds);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!exit) {
    failure.failure = "timeout";
    failure.failure_message =
        fmt::format("{}: still running after its timeout of {} s: killed", describe_point(point), *command.timeout_s);
    return 0.0;
  }
  if (!exit->ok()) {
    failure.failure = status_of(*exit);
    const std::string said = last_stderr_line();
    failure.failure_message = fmt::format("{}: ended with {}{}", describe_point(point), exit->describe(),
                                          said.empty() ? std::string() : " (stderr: " + said + ")");
  }
  return seconds;
}

namespace {

// The task a profiled command stands for, as a workload task (what build_task_launch places).
config::WorkloadTask task_of(const CommandProfileSpec& command) {
  config::WorkloadTask task;
  task.id = command.name;
  task.command = command.argv;
  task.footprint_bytes = command.footprint_bytes;
  task.environment = command.environment;
  return task;
}

}  // namespace

std::vector<exec::TaskLaunch> CommandMeasurer::launches_with_stderr(const config::WorkloadTask& task,
                                                                    const ProfilePoint& point, std::size_t copies) {
  std::vector<exec::TaskLaunch> launches = launches_on_own_cores(*cores_, task, point, copies, tier_, {});
  for (exec::TaskLaunch& launch : launches) launch.spec.stderr_path = stderr_path_;
  return launches;
}

Measurement CommandMeasurer::measure(const ProfilePoint& point) {
  const auto name = command_name_of(point.kernel);
  const auto found = std::find_if(commands_.begin(), commands_.end(), [&](const auto& c) { return c.name == name; });
  if (found == commands_.end()) throw UsageError(fmt::format("no command named '{}' in this sweep", name));
  const config::WorkloadTask task = task_of(*found);
  const exec::TaskLaunch launch = std::move(launches_with_stderr(task, point, 1).front());
  nlohmann::json applied = {{"placement", launch.placement}, {"fast_bytes", launch.fast_bytes}};
  // No fast bytes given: nothing of it is fast, whatever the mechanism could hold.
  const std::optional<double> fraction = launch.fast_bytes == 0 ? std::optional(0.0) : launch.applied_fraction;
  applied["applied_fraction"] = fraction ? nlohmann::json(*fraction) : nlohmann::json();
  applied_[std::to_string(point.chunks)] = std::move(applied);

  // The memory-demand probe: each timed repetition again as two copies side by side, right after it ran alone, so
  // that each copy's slowdown is a ratio of two runs a moment apart.
  std::vector<exec::TaskLaunch> pair;
  if (is_probe_point(point, pair_cores_, *cores_)) pair = launches_with_stderr(task, point, 2);
  Measurement measurement;
  for (unsigned rep = 0; rep < warmup_ + reps_; ++rep) {
    const double seconds = run_once(*found, launch, point, measurement);
    if (!measurement.failure.empty()) return measurement;
    measurement.overhead_free_s += seconds;
    if (rep < warmup_) continue;
    measurement.times_s.push_back(seconds);
    if (pair.empty()) continue;
    const SideBySide ran =
        run_side_by_side(pair, found->timeout_s, warm_up_ ? pair.size() * found->footprint_bytes : 0);
    if (!ran.failure.empty()) {
      measurement.paired_slowdowns.clear();
      measurement.note = fmt::format("{}: the memory-demand probe (two copies side by side) failed: {}; its traffic "
                                     "is not known, so co-runners will not be seen to slow it",
                                     describe_point(point), ran.failure);
      pair.clear();
      continue;
    }
    for (const double copy_s : ran.seconds) {
      measurement.paired_slowdowns.push_back(copy_s / seconds);
      measurement.overhead_free_s += copy_s / 2.0;
    }
  }
  return measurement;
}

nlohmann::json CommandMeasurer::describe() const {
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& command : commands_) {
    nlohmann::json entry = {{"name", command.name}, {"argv", command.argv}, {"env", command.environment}};
    if (command.timeout_s) entry["timeout_s"] = *command.timeout_s;
    if (command.footprint_bytes > 0) entry["footprint_bytes"] = command.footprint_bytes;
    commands.push_back(std::move(entry));
  }
  nlohmann::json context = {{"measurer", "command"},
                            {"measures", "whole command processes, bound to their cores, fork to reap"},
                            {"tier_backend", tier_.backend},
                            {"placement", tier_.command_placement},
                            {"commands", std::move(commands)}};
  if (pair_cores_ > 0) {
    context["memory_demand_probe"] =
        fmt::format("paired_s: at {} core(s) and no fast chunks, each repetition again as two copies side by side on "
                    "cores of their own, right after it ran alone; in time_s's unit: time_s x the median over copies "
                    "and repetitions of (the copy's time / the run's time alone), paired_min_s and paired_max_s time_s "
                    "x their least and most",
                    pair_cores_);
  }
  // After a sweep: what each chunk count got (the mechanism's words, and the fraction it holds; null: it cannot
  // hold one).
  if (!applied_.empty()) context["placements_applied"] = applied_;
  if (varies_fast_memory()) {
    context["fast_memory"] = fmt::format("varied: chunks given by placement {} on fast nodes", tier_.command_placement);
  } else {
    context["fast_memory"] =
        fmt::format("not varied: tier backend {} cannot place an unmodified program's memory (no fast and slow NUMA "
                    "nodes); cores only, chunks = 0; fast memory is not emulated for commands",
                    tier_.backend);
  }
  return context;
}

// `cosched profile --command` / `[[commands]]`: the sweep's platform and tier backend, with the sweep's placement
// mechanism for commands.
std::unique_ptr<PointMeasurer> make_command_measurer(const MeasurerOptions& options) {
  const config::PlatformConfig& platform = options.platform;
  exec::TierSetup tier = exec::make_tier_setup(platform, options.placement.mechanism);
  tier.autohbw_threshold_bytes = options.placement.autohbw_threshold_bytes;
  tier.autohbw_library = options.placement.autohbw_library;
  if (options.commands.empty()) throw UsageError("measurer command: no command to profile (--command)");
  exec::start_tree_watchdog();  // its fork is not part of the first point's time
  return std::make_unique<CommandMeasurer>(options.commands, std::move(tier), options.reps, options.warmup,
                                           options.platform.cores / 2);
}

}  // namespace cosched::profiler
