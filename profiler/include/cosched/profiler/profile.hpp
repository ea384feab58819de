#pragma once
// The profile data model: one measured (or modelled) point of a kernel's execution-time table.
// A point is keyed by (kernel, footprint, cores, fast chunks); a profiled command is the kernel "command:<name>"
// with the command's footprint (0 when not given, command_kernel_name). Times are seconds for one pass of the kernel over
// its whole footprint (STREAM byte counting, so gbs = footprint_bytes / time_s / 1e9). A task of P passes run as a
// process takes fixed_s + P x time_s when the profile separated its fixed cost (fixed_s: start-up, allocation,
// first touch, validation), else P x time_s.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::profiler {

struct ProfilePoint {
  std::string kernel;
  std::uint64_t footprint_bytes = 0;  // total bytes of the task, split evenly over the kernel's arrays
  unsigned cores = 0;
  unsigned chunks = 0;  // fast-memory chunks; fast bytes = min(chunks * chunk_bytes, footprint_bytes)
  auto operator<=>(const ProfilePoint&) const = default;
};

// The status column of a row: "ok" for a measured point; else why it has no time ("exit-3", "signal-9",
// "timeout", "not-found", "start-failed": a command that did not run through; docs/profiler.md).
inline constexpr std::string_view kStatusOk = "ok";

struct ProfileRow {
  ProfilePoint point;
  double time_s = 0.0;      // median over the timed repetitions
  double time_min_s = 0.0;  // spread: fastest and slowest repetition
  double time_max_s = 0.0;
  unsigned reps = 0;
  double gbs = 0.0;  // footprint_bytes / time_s / 1e9
  std::string status{kStatusOk};  // a failed row carries no time: times, reps and gbs are 0 (empty in the CSV)
  // Seconds a run pays whatever its passes (median over the repetitions), when the point was timed at two pass
  // counts (the process measurer's `passes = [low, high]`); unset otherwise: time_s then holds it spread over the
  // passes that were profiled.
  std::optional<double> fixed_s{};
  // The memory-demand probe (issue 24 for commands, issue 23 for STREAM tasks): the time of one run while a copy of
  // it ran beside it, at the same cores and chunks on cores of its own (median over both copies' runs), in time_s's
  // unit — a command's whole run; a STREAM task's time_s x (its paired run / the same run alone) — so that
  // paired_s / time_s is how much the pair slowed; unset where not probed. That slowdown is what tells how much
  // memory traffic the task moves (sched::paired_demand).
  std::optional<double> paired_s{};
  // The probe's spread, in paired_s's unit: time_s x the least and the most any copy slowed in any repetition
  // (paired_min_s <= paired_s <= paired_max_s). One noisy pair can move paired_s; the range says how far the probe
  // can be trusted (the instance reports the traffic that fits it; the prediction uses paired_s, docs/profiler.md).
  // Unset with paired_s, and in files written before the columns (the probe is then the one figure paired_s).
  std::optional<double> paired_min_s{};
  std::optional<double> paired_max_s{};
  [[nodiscard]] bool ok() const { return status == kStatusOk; }
  // Seconds of one run of `passes` passes at this point: fixed_s + passes x time_s, each pass's time scaled by
  // `pass_scale` (the footprint interpolation's: a pass over F' bytes at this point's seconds per byte).
  [[nodiscard]] double run_time(unsigned passes, double pass_scale = 1.0) const {
    return fixed_s.value_or(0.0) + pass_scale * passes * time_s;
  }
};

// The kernel column of a profiled command: "command:<name>"; and back ("" when `kernel` is not a command's).
inline constexpr std::string_view kCommandKernelPrefix = "command:";
[[nodiscard]] std::string command_kernel_name(std::string_view command_name);
[[nodiscard]] std::string_view command_name_of(std::string_view kernel);

// Fraction of the footprint that `chunks` chunks of `chunk_bytes` cover, capped at 1: chunks beyond the footprint
// give no benefit.
[[nodiscard]] double fast_fraction(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes);

// Fast bytes `chunks` chunks give a task of `footprint_bytes`, capped at the footprint.
[[nodiscard]] double fast_bytes(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes);

}  // namespace cosched::profiler
