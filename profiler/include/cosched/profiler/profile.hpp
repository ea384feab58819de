#pragma once
// The profile data model: one measured (or modelled) point of a kernel's execution-time table.
// A point is keyed by (kernel, footprint, cores, fast chunks); times are seconds for one pass of the kernel over
// its whole footprint (STREAM byte counting, so gbs = footprint_bytes / time_s / 1e9).
#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace cosched::profiler {

struct ProfilePoint {
  std::string kernel;
  std::uint64_t footprint_bytes = 0;  // total bytes of the task, split evenly over the kernel's arrays
  unsigned cores = 0;
  unsigned chunks = 0;  // fast-memory chunks; fast bytes = min(chunks * chunk_bytes, footprint_bytes)
  auto operator<=>(const ProfilePoint&) const = default;
};

struct ProfileRow {
  ProfilePoint point;
  double time_s = 0.0;      // median over the timed repetitions
  double time_min_s = 0.0;  // spread: fastest and slowest repetition
  double time_max_s = 0.0;
  unsigned reps = 0;
  double gbs = 0.0;  // footprint_bytes / time_s / 1e9
};

// Fraction of the footprint that `chunks` chunks of `chunk_bytes` cover, capped at 1: chunks beyond the footprint
// give no benefit.
[[nodiscard]] double fast_fraction(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes);

// Fast bytes `chunks` chunks give a task of `footprint_bytes`, capped at the footprint.
[[nodiscard]] double fast_bytes(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes);

}  // namespace cosched::profiler
