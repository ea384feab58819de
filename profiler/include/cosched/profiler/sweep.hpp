#pragma once
// The sweep loop: measure every point not already in the CSV, append each row as soon as it is known, stop
// cleanly when asked.
#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "cosched/profiler/measurer.hpp"
#include "cosched/profiler/profile.hpp"
#include "cosched/profiler/profile_csv.hpp"
#include "cosched/profiler/progress.hpp"

namespace cosched::profiler {

struct SweepOutcome {
  std::size_t measured = 0;
  std::size_t skipped = 0;  // already in the CSV (resume)
  bool interrupted = false;
  double wall_s = 0.0;     // the whole loop, measurement setup included
  // Inside PointMeasurer::measure and finish (kernel runs plus allocation, first touch, re-splits, checks).
  double measure_s = 0.0;
  double kernel_s = 0.0;   // the kernels' own run time (timed reps + warm-ups)
  std::size_t allocations = 0;  // points that allocated and first-touched their arrays (Measurement::allocated)
  std::size_t resplits = 0;     // points that moved the previous point's split in place
  std::vector<std::string> failures;  // one message per point whose row is marked failed (Measurement::failure)
  std::vector<std::string> notes;     // Measurement::note of every point that has one
  // Wall time over kernel time, minus 1: everything that is not a kernel pass.
  [[nodiscard]] double overhead() const noexcept { return kernel_s > 0.0 ? wall_s / kernel_s - 1.0 : 0.0; }
  // The profiler's own share (CSV, progress, bookkeeping) relative to kernel time.
  [[nodiscard]] double profiler_overhead() const noexcept {
    return kernel_s > 0.0 ? (wall_s - measure_s) / kernel_s : 0.0;
  }
};

// The failed points' messages ("failed: …") and the points' notes ("note: …"), the first `listed` of each, then
// how many more of each there are.
[[nodiscard]] std::vector<std::string> sweep_messages(const SweepOutcome& outcome, std::size_t listed);

// Points already present in `writer.existing_rows()` are skipped. `progress` and `stop` may be null.
SweepOutcome run_sweep(const std::vector<ProfilePoint>& points, PointMeasurer& measurer, ProfileCsvWriter& writer,
                       SweepProgress* progress, const std::atomic<bool>* stop);

// The row for a point from its repetitions.
[[nodiscard]] ProfileRow make_row(const ProfilePoint& point, const Measurement& measurement);

// Points of `points` not in `done`, in order.
[[nodiscard]] std::vector<ProfilePoint> remaining_points(const std::vector<ProfilePoint>& points,
                                                         const std::vector<ProfileRow>& done);

}  // namespace cosched::profiler
