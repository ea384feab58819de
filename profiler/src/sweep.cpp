#include "cosched/profiler/sweep.hpp"

#include <chrono>

#include <fmt/format.h>

#include "cosched/common/stats.hpp"
#include <set>

namespace cosched::profiler {

ProfileRow make_row(const ProfilePoint& point, const Measurement& measurement) {
  if (!measurement.failure.empty()) {  // no time at all, whatever repetitions finished before the failure
    ProfileRow failed;
    failed.point = point;
    failed.status = measurement.failure;
    return failed;
  }
  const SampleSummary summary = summarize(measurement.times_s);
  ProfileRow row;
  row.point = point;
  row.time_s = summary.median;
  row.time_min_s = summary.min;
  row.time_max_s = summary.max;
  row.reps = static_cast<unsigned>(measurement.times_s.size());
  row.gbs = static_cast<double>(point.footprint_bytes) / summary.median / 1e9;
  if (!measurement.fixed_s.empty()) row.fixed_s = median(measurement.fixed_s);
  if (!measurement.paired_slowdowns.empty()) {
    const SampleSummary slowdowns = summarize(measurement.paired_slowdowns);
    row.paired_s = row.time_s * slowdowns.median;
    row.paired_min_s = row.time_s * slowdowns.min;
    row.paired_max_s = row.time_s * slowdowns.max;
  }
  return row;
}

std::vector<ProfilePoint> remaining_points(const std::vector<ProfilePoint>& points,
                                           const std::vector<ProfileRow>& done) {
  std::set<ProfilePoint> done_points;
  for (const auto& row : done) done_points.insert(row.point);
  std::vector<ProfilePoint> remaining;
  for (const auto& point : points) {
    if (!done_points.contains(point)) remaining.push_back(point);
  }
  return remaining;
}

std::vector<std::string> sweep_messages(const SweepOutcome& outcome, std::size_t listed) {
  std::vector<std::string> lines;
  const auto add = [&](const std::vector<std::string>& messages, const char* kind) {
    for (std::size_t i = 0; i < messages.size() && i < listed; ++i) lines.push_back(fmt::format("{}: {}", kind, messages[i]));
    if (messages.size() > listed) {
      lines.push_back(fmt::format("{}: {} more point(s) like these", kind, messages.size() - listed));
    }
  };
  add(outcome.failures, "failed");
  add(outcome.notes, "note");
  return lines;
}

SweepOutcome run_sweep(const std::vector<ProfilePoint>& points, PointMeasurer& measurer, ProfileCsvWriter& writer,
                       SweepProgress* progress, const std::atomic<bool>* stop) {
  SweepOutcome outcome;
  const auto todo = remaining_points(points, writer.existing_rows());
  outcome.skipped = points.size() - todo.size();
  const auto start = std::chrono::steady_clock::now();
  for (const auto& point : todo) {
    if (stop != nullptr && stop->load()) {
      outcome.interrupted = true;
      break;
    }
    const auto measure_start = std::chrono::steady_clock::now();
    const Measurement measurement = measurer.measure(point);
    outcome.measure_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - measure_start).count();
    const ProfileRow row = make_row(point, measurement);
    writer.append(row);
    outcome.kernel_s += measurement.overhead_free_s;
    outcome.allocations += measurement.allocated ? 1 : 0;
    outcome.resplits += measurement.resplit ? 1 : 0;
    if (!row.ok()) outcome.failures.push_back(measurement.failure_message);
    if (!measurement.note.empty()) outcome.notes.push_back(measurement.note);
    ++outcome.measured;
    if (progress != nullptr) progress->point_done(row);
  }
  const auto finish_start = std::chrono::steady_clock::now();
  measurer.finish();
  outcome.measure_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - finish_start).count();
  // A Ctrl-C during the last point still counts as an interruption for the report, though nothing is missing.
  if (stop != nullptr && stop->load()) outcome.interrupted = true;
  outcome.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress != nullptr) progress->finish();
  return outcome;
}

}  // namespace cosched::profiler
