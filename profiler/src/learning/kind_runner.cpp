#include "learning/kind_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/common/stats.hpp"
#include "cosched/common/utc_time.hpp"
#include "cosched/profiler/command_measurer.hpp"
#include "cosched/profiler/process_measurer.hpp"

namespace cosched::profiler::detail {

namespace {

// The kind's own timeout: the task's, else the run's --timeout (nullopt: none).
std::optional<double> own_timeout(const TaskKind& kind, std::optional<double> default_timeout_s) {
  return kind.task.timeout_s ? kind.task.timeout_s : default_timeout_s;
}

// Whether `deadline_s` stops a run of `kind` before its own timeout would.
bool deadline_comes_first(const TaskKind& kind, std::optional<double> deadline_s,
                          std::optional<double> default_timeout_s) {
  const std::optional<double> own = own_timeout(kind, default_timeout_s);
  return deadline_s && (!own || *deadline_s < *own);
}

// What stops a run: `deadline_s` when it comes first, else the kind's own timeout.
std::optional<double> run_timeout(const TaskKind& kind, std::optional<double> deadline_s,
                                  std::optional<double> default_timeout_s) {
  return deadline_comes_first(kind, deadline_s, default_timeout_s) ? deadline_s
                                                                   : own_timeout(kind, default_timeout_s);
}

// A command as the command measurer profiles it: its argv at `work` ({work} substituted), stopped at `timeout_s`.
CommandProfileSpec command_at(const TaskKind& kind, double work, std::optional<double> timeout_s) {
  CommandProfileSpec spec;
  spec.name = kind.name;
  spec.argv = kind.task.work ? config::command_at_work(kind.task.command, work) : kind.task.command;
  spec.environment = kind.task.environment;
  spec.footprint_bytes = kind.task.footprint_bytes;
  spec.timeout_s = timeout_s;
  return spec;
}

ProfilePoint point_of(const TaskKind& kind, unsigned cores, unsigned chunks) {
  const std::string kernel = kind.task.is_stream() ? kind.task.kernel : command_kernel_name(kind.name);
  return {kernel, kind.task.footprint_bytes, cores, chunks};
}

// One measurement of `point` by the measurer a kind's runs use (reps 1, no warm-up; `pair_cores` > 0: probed),
// each run stopped at `deadline_s` when that comes before the kind's own timeout.
Measurement measure_once(const LaunchedProfileOptions& node, const TaskKind& kind, const ProfilePoint& point,
                         double work, unsigned pair_cores, std::optional<double> deadline_s) {
  const std::optional<double> timeout_s = run_timeout(kind, deadline_s, node.command_timeout_s);
  if (kind.task.is_stream()) {
    config::PlatformConfig platform = node.platform;
    platform.tier_backend = node.tier.backend;
    ProcessMeasurer measurer(platform, node.tier, node.stream_bench,
                             TaskPasses(PassCounts{static_cast<unsigned>(std::lround(work)), 0}), 1, 0, pair_cores);
    measurer.stop_runs_after(timeout_s);
    Measurement measured = measurer.measure(point);
    for (double& seconds : measured.times_s) seconds *= std::round(work);  // per pass -> the whole run
    return measured;
  }
  CommandMeasurer measurer({command_at(kind, work, timeout_s)}, node.tier, 1, 0, pair_cores);
  return measurer.measure(point);
}

}  // namespace

std::optional<double> KindRunner::run(const TaskKind& kind, const knowledge::PlannedRun& planned,
                                      std::optional<double> deadline_s, std::string& why) const {
  const ProfilePoint point =
      point_of(kind, static_cast<unsigned>(planned.cores), static_cast<unsigned>(planned.fast_chunks));
  try {
    const Measurement measured = measure_once(node_, kind, point, planned.work, 0, deadline_s);
    if (!measured.failure.empty() || measured.times_s.empty()) {
      why = measured.failure == "timeout" && deadline_comes_first(kind, deadline_s, node_.command_timeout_s)
                ? fmt::format("stopped at the end of the budget, {:.3g} s", *deadline_s)
            : measured.failure_message.empty() ? measured.failure
                                               : measured.failure_message;
      return std::nullopt;
    }
    return measured.times_s.front();
  } catch (const RuntimeFailure& e) {  // stream_bench that did not validate or exited badly
    why = e.what();
    return std::nullopt;
  }
}

std::optional<KnownProbe> KindRunner::probe(const TaskKind& kind, unsigned cores, double work,
                                            std::string& why) const {
  const ProfilePoint point = point_of(kind, cores, 0);
  try {
    const Measurement measured = measure_once(node_, kind, point, work, cores, std::nullopt);
    if (!measured.failure.empty() || measured.times_s.empty() || measured.paired_slowdowns.empty()) {
      why = !measured.failure_message.empty() ? measured.failure_message
            : !measured.note.empty()          ? measured.note
                                              : "no paired run";
      return std::nullopt;
    }
    KnownProbe probe;
    probe.cores = cores;
    probe.work = work;
    probe.alone_s = measured.times_s.front();
    const auto [low, high] = std::minmax_element(measured.paired_slowdowns.begin(), measured.paired_slowdowns.end());
    probe.paired_s = probe.alone_s * median(measured.paired_slowdowns);
    probe.paired_min_s = probe.alone_s * *low;
    probe.paired_max_s = probe.alone_s * *high;
    probe.date = iso8601_utc(std::chrono::system_clock::now());
    return probe;
  } catch (const RuntimeFailure& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace cosched::profiler::detail
