#include "cosched/profiler/launched_profile.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/common/stop_signals.hpp"
#include "cosched/profiler/command_measurer.hpp"
#include "cosched/profiler/profile_context.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/progress.hpp"

namespace cosched::profiler {

namespace {

// The sweep of `points` with `measurer` into a new CSV and its sidecar. The sidecar is written again at the end:
// a measurer's description may grow while it runs (the command measurer records the placement each point got),
// and it says how the sweep went — partial when Ctrl-C (SIGINT, SIGTERM) stopped it after the point being measured
// (issue 41: the demo died by the signal, its sidecar saying nothing of the missing points).
SweepOutcome sweep_into(const std::vector<ProfilePoint>& points, PointMeasurer& measurer,
                        const LaunchedProfileOptions& options, const std::filesystem::path& csv) {
  SweepConfig sweep;
  sweep.reps = options.reps;
  sweep.warmup = 0;
  write_profile_sidecar(csv, make_profile_sidecar(options.platform, sweep, measurer.describe()));
  ProfileCsvWriter writer(csv, ProfileCsvWriter::Mode::create);
  std::optional<SweepProgress> progress;
  if (options.reporter != nullptr) progress.emplace(points.size(), *options.reporter);
  const StopSignals stop;
  const SweepOutcome outcome = run_sweep(points, measurer, writer, progress ? &*progress : nullptr, &stop.flag());
  ProfileSidecar sidecar = make_profile_sidecar(options.platform, sweep, measurer.describe());
  sidecar.sweep = {{"points", points.size()},
                   {"measured_this_run", outcome.measured},
                   {"interrupted", outcome.interrupted},
                   {"partial", outcome.interrupted && outcome.measured < points.size()},
                   {"failed", outcome.failures.size()},
                   {"wall_s", outcome.wall_s}};
  write_profile_sidecar(csv, sidecar);
  return outcome;
}

}  // namespace

void throw_if_interrupted(const SweepOutcome& outcome, const std::filesystem::path& csv) {
  if (!outcome.interrupted) return;
  if (outcome.measured == 0) {
    throw RuntimeFailure("interrupted before the first profiled point finished: nothing was written, nothing of the "
                         "batch ran");
  }
  throw RuntimeFailure(fmt::format("interrupted while profiling: {} holds the {} point(s) measured, its sidecar "
                                   "marks the profile partial (\"sweep\": {{\"partial\": true}}); nothing of the batch ran",
                                   csv.string(), outcome.measured));
}

std::vector<unsigned> bracketing_chunks(std::uint64_t footprint_bytes, const config::PlatformConfig& platform) {
  const auto fit = static_cast<unsigned>(std::min<double>(
      platform.fast_chunks, std::ceil(static_cast<double>(footprint_bytes) / platform.chunk_bytes())));
  std::vector<unsigned> chunks{0, (fit + 1) / 2, fit};
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());  // a small footprint fits in one chunk
  return chunks;
}

PassCounts fixed_cost_passes(unsigned passes) { return {1, std::max(passes, 5U)}; }

SweepOutcome profile_stream_groups(const std::vector<config::StreamTaskGroup>& groups,
                                   const LaunchedProfileOptions& options, const std::filesystem::path& csv) {
  std::vector<ProfilePoint> points;
  TaskPasses::PerTask passes;
  for (const auto& [kernel, footprint, count, group_passes] : groups) {
    auto [known, added] = passes.try_emplace({kernel, footprint}, PassCounts{group_passes, 0});
    if (options.separate_fixed_cost) {
      known->second = fixed_cost_passes(std::max(group_passes, added ? 0U : known->second.high));
    } else if (!added) {
      throw UsageError(fmt::format("{} with footprint_bytes={} is given twice: profile it at one pass count",
                                   kernel, footprint));
    }
    if (!added) continue;
    const std::vector<unsigned> chunks =
        options.vary_chunks ? bracketing_chunks(footprint, options.platform) : std::vector<unsigned>{0};
    for (unsigned cores = 1; cores <= options.platform.cores; ++cores) {
      for (const unsigned k : chunks) points.push_back({kernel, footprint, cores, k});
    }
  }
  ProcessMeasurer measurer(options.platform, options.tier, options.stream_bench, TaskPasses(std::move(passes)),
                           options.reps, 0, options.platform.cores / 2);
  return sweep_into(points, measurer, options, csv);
}

std::vector<CommandProfileSpec> distinct_commands(config::Workload& workload, bool stream_tasks_allowed) {
  std::vector<CommandProfileSpec> commands;
  for (auto& task : workload.tasks) {
    if (task.is_stream() && stream_tasks_allowed) continue;
    if (task.is_stream()) {
      throw UsageError(fmt::format("{}: task \"{}\" is a STREAM task: --workload runs batches of commands (the "
                                   "built-in STREAM batch is `cosched demo` without --workload)",
                                   workload.source, task.id));
    }
    const auto same = std::find_if(commands.begin(), commands.end(), [&](const auto& c) {
      return c.argv == task.command && c.environment == task.environment && c.footprint_bytes == task.footprint_bytes;
    });
    if (same != commands.end()) {
      if (task.profile.empty()) task.profile = same->name;
      if (task.profile == same->name) continue;
    }
    CommandProfileSpec command;
    command.name = task.profile.empty() ? fmt::format("cmd{}", commands.size()) : task.profile;
    command.argv = task.command;
    command.footprint_bytes = task.footprint_bytes;
    command.environment = task.environment;
    command.timeout_s = task.timeout_s;
    task.profile = command.name;
    if (std::any_of(commands.begin(), commands.end(), [&](const auto& c) { return c.name == command.name; })) {
      throw InputError(workload.source, fmt::format("profile \"{}\" names two different commands", command.name));
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

SweepOutcome profile_commands(std::vector<CommandProfileSpec> commands, const LaunchedProfileOptions& options,
                              const std::filesystem::path& csv) {
  for (CommandProfileSpec& command : commands) {
    if (!command.timeout_s) command.timeout_s = options.command_timeout_s;
  }
  CommandMeasurer measurer(commands, options.tier, options.reps, 0, options.platform.cores / 2);
  const unsigned all = options.platform.fast_chunks;
  std::vector<unsigned> chunks{0};
  if (options.vary_chunks && measurer.varies_fast_memory()) chunks = {0, all / 2, all};
  std::vector<ProfilePoint> points;
  for (const auto& command : commands) {
    for (unsigned cores = 1; cores <= options.platform.cores; ++cores) {
      for (const unsigned k : chunks) {
        points.push_back({command_kernel_name(command.name), command.footprint_bytes, cores, k});
      }
    }
  }
  return sweep_into(points, measurer, options, csv);
}

}  // namespace cosched::profiler
