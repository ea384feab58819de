#pragma once
// A kernel's arrays kept across many measurements: allocated and first-touched once, then measured any number of
// times with different fast fractions, teams, reps and warm-ups. The profiler sweeps the core counts and fast
// chunks of one (kernel, footprint) over one session; run_stream is a session measured once.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/platform/memory_tier.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/stream_run.hpp"

namespace cosched::stream {

// One measurement of a session.
struct SessionRun {
  std::optional<double> fast_fraction;  // share of every array in the fast tier; unset = 0, as in StreamConfig
  unsigned reps = 10;
  unsigned warmup_reps = 1;
  // The team: indices into platform::allowed_cores(), one per thread. Empty: the session's current team.
  std::vector<unsigned> cores{};
};

// What a session did so far: how it obtained its arrays, and the wall time it spent outside the kernels' reps
// (for the profiler's overhead figures). Sums over sessions with +=.
struct SessionCounts {
  std::size_t allocations = 0;        // of the kernel's array set, the first included
  std::size_t resplits = 0;           // split changes done without re-allocating
  std::size_t reinitialisations = 0;  // new teams on kept arrays
  std::size_t prefaulted = 0;         // allocations whose pages a wider team faulted in (first_touch_mates)
  std::size_t measurements = 0;
  double preparation_s = 0.0;  // allocating, first-touching and initialising arrays again
  double validation_s = 0.0;   // comparing results with their exact values: full checks (with the team each
                               // starts), sampled checks (the slowest thread's time)
  SessionCounts& operator+=(const SessionCounts& other) noexcept;
};

// Whether a page lands in the same memory whichever of these cores (each given by its PUs) first touches it:
// true when they all share one memory locality of `topology` (Core::cluster: the machine on a one-node machine,
// else a socket or an SNC cluster), false when they span several or a core is not in the topology. Arrays that
// one team first-touched serve another team only then (StreamSession::measure).
[[nodiscard]] bool share_first_touch_placement(const platform::Topology& topology,
                                               const std::vector<std::vector<unsigned>>& core_pus);

// The cores among `allowed` (each given by its PUs, as platform::allowed_cores() lists them) whose first touch
// places a page in the same memory as the first touch of the team on `team_pus` would: every allowed core of the
// team's memory locality when the team has one, none when it spans several. Indices into `allowed`, ascending.
// A session lets these cores fault its fresh pages in (in parallel) before the team writes its values.
[[nodiscard]] std::vector<unsigned> first_touch_mates(const platform::Topology& topology,
                                                      const std::vector<std::vector<unsigned>>& allowed,
                                                      const std::vector<std::vector<unsigned>>& team_pus);

// A full check of the arrays as they stand (see StreamSession::finish).
struct SessionCheck {
  bool validated = true;
  std::string validation_message;  // "" when validated
};

// Validation (docs/stream_bench.md, "Validation across a session"): the first measurement on freshly initialised
// arrays (allocated, or written afresh for a new team) is checked in full — every element of the arrays the kernel
// writes, a sample of those an element-wise kernel only reads; later ones compare a sample of every array (one
// element per page, at most about 512 per array, a different one each time, and the edges of the tier split
// and of the threads' slices) and, for ddot, every rep's exact sum. Arrays are checked in full again before they
// are released or initialised again, and by finish() — so the first and the last measurement of every team on
// its arrays is checked in full.
class StreamSession {
 public:
  // Plans the run (kernel, threads, cores, array_bytes, stores; config.fast_fraction is the first split and
  // config.cores the first team; reps and warm-ups are per measurement) and allocates and first-touches the arrays
  // on a pinned team. Throws like run_stream, before allocating when the config is bad.
  StreamSession(const StreamConfig& config, platform::TierBackend& backend);
  ~StreamSession();
  StreamSession(const StreamSession&) = delete;
  StreamSession& operator=(const StreamSession&) = delete;

  // Moves the team to run.cores and the split to run.fast_fraction, then runs warm-ups and timed reps on a pinned
  // team. A new team keeps the arrays when the cores that first-touched them and the new ones share one memory
  // locality (share_first_touch_placement): its threads write the initial values again (only those its reps
  // overwrite, where the kernel allows: KernelWork::take_over), no page is allocated or faulted in anew;
  // otherwise the arrays are allocated and first-touched by the new team. A new split moves in place when the
  // backend can (TierBackend::resplit), else the arrays are allocated and first-touched anew.
  // Throws UsageError for reps == 0, a fraction outside [0,1] or a bad team, ResourceError when the fast tier
  // cannot take the new split or the cores do not exist, and like run_stream otherwise. A validation failure is
  // reported in the result, not thrown.
  [[nodiscard]] StreamResult measure(const SessionRun& run);

  // Compares every element of the arrays as the last measurement left them, unless that was already done. Call it
  // when done: a session destroyed without finish() leaves its last sampled measurement unchecked in full.
  [[nodiscard]] SessionCheck finish();

  [[nodiscard]] const SessionCounts& counts() const noexcept;
  [[nodiscard]] std::size_t allocations() const noexcept { return counts().allocations; }
  [[nodiscard]] std::size_t resplits() const noexcept { return counts().resplits; }
  [[nodiscard]] std::size_t reinitialisations() const noexcept { return counts().reinitialisations; }
  [[nodiscard]] std::size_t measurements() const noexcept { return counts().measurements; }

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace cosched::stream
