#pragma once
// A kernel's arrays kept across many measurements: allocated and first-touched once, then measured any number of
// times with different fast fractions, reps and warm-ups. The profiler sweeps the fast chunks of one
// (kernel, footprint, cores) over one session; run_stream is a session measured once.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "cosched/platform/memory_tier.hpp"
#include "cosched/stream/stream_run.hpp"

namespace cosched::stream {

// One measurement of a session.
struct SessionRun {
  std::optional<double> fast_fraction;  // share of every array in the fast tier; unset = 0, as in StreamConfig
  unsigned reps = 10;
  unsigned warmup_reps = 1;
};

// A full check of the arrays as they stand (see StreamSession::finish).
struct SessionCheck {
  bool validated = true;
  std::string validation_message;  // "" when validated
};

// Validation (docs/stream_bench.md, "Validation across a session"): the first measurement on freshly allocated
// arrays compares every element; later ones compare one element per page of every array (a different one each
// time) and, for ddot, every rep's exact sum. Arrays are compared in full again before they are released for a
// re-allocation, and by finish() — so the last measurement of every allocation is checked in full.
class StreamSession {
 public:
  // Plans the run (kernel, threads, cores, array_bytes, stores; config.fast_fraction is the first split; reps and
  // warm-ups are per measurement) and allocates and first-touches the arrays on a pinned team. Throws like
  // run_stream, before allocating when the config is bad.
  StreamSession(const StreamConfig& config, platform::TierBackend& backend);
  ~StreamSession();
  StreamSession(const StreamSession&) = delete;
  StreamSession& operator=(const StreamSession&) = delete;

  // Moves the split to run.fast_fraction (through TierBackend::resplit; when the backend cannot, the arrays are
  // allocated and first-touched anew), then runs warm-ups and timed reps on a pinned team. Throws UsageError for
  // reps == 0 or a fraction outside [0,1], ResourceError when the fast tier cannot take the new split, and like
  // run_stream otherwise. A validation failure is reported in the result, not thrown.
  [[nodiscard]] StreamResult measure(const SessionRun& run);

  // Compares every element of the arrays as the last measurement left them, unless that was already done. Call it
  // when done: a session destroyed without finish() leaves its last sampled measurement unchecked in full.
  [[nodiscard]] SessionCheck finish();

  [[nodiscard]] std::size_t allocations() const noexcept;  // of the kernel's array set, the first included
  [[nodiscard]] std::size_t resplits() const noexcept;     // split changes done without re-allocating
  [[nodiscard]] std::size_t measurements() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace cosched::stream
