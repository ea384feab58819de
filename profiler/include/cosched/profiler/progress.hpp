#pragma once
// A profiling sweep's progress, reported point by point (cosched/common/reporter.hpp, counter style): how many
// points of the run are measured, the ETA from the mean time per point so far, and what the last one measured. A
// console shows it as a bar redrawn in place on a terminal, or one plain line per point in a log.
#include <chrono>
#include <cstddef>

#include "cosched/common/reporter.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

class SweepProgress {
 public:
  // `total` points to measure in this run.
  SweepProgress(std::size_t total, Reporter& reporter);
  void point_done(const ProfileRow& row);
  void finish();

 private:
  std::size_t total_;
  std::size_t done_ = 0;
  Reporter& reporter_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cosched::profiler
