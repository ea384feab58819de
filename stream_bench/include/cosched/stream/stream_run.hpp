#pragma once
// Running one STREAM kernel in-process: the library entry point stream_bench, the profiler and the launcher share.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/platform/memory_tier.hpp"

namespace cosched::stream {

// How kernels store their results. Streaming (non-temporal) stores skip the write-allocate read of each
// destination line, which wins once the arrays are far out of cache; `automatic` picks per run (docs/stream_bench.md).
enum class StoreMode { automatic, streaming, regular };

[[nodiscard]] std::string_view to_string(StoreMode mode) noexcept;  // "auto", "nt", "regular"
// Parses "auto" | "nt" | "regular"; throws UsageError otherwise.
[[nodiscard]] StoreMode parse_store_mode(std::string_view text);

struct StreamConfig {
  std::string kernel = "triad";
  unsigned threads = 1;
  std::vector<unsigned> cores;  // indices into platform::allowed_cores(), one per thread; empty: the first N
  // Per array. Kernels whose arrays differ in size (gemm, stencil, spmv, gups) take array_bytes times their
  // array_count() as the footprint and divide it among their arrays themselves.
  std::size_t array_bytes = std::size_t{256} << 20;
  unsigned reps = 10;           // timed repetitions
  unsigned warmup_reps = 1;     // untimed repetitions first (STREAM drops its first iteration too)
  StoreMode stores = StoreMode::automatic;
  // Share of every array placed in the backend's fast tier. Unset: nothing is asked of the fast tier (with the
  // "none" backend: plain memory, the machine's real speed).
  std::optional<double> fast_fraction;
};

// Where one OpenMP thread ran, read back from the OS inside the run.
struct ThreadPlacement {
  unsigned thread = 0;
  unsigned core = 0;                   // index into allowed_cores()
  std::vector<unsigned> core_pus;      // the PUs of that core (what the thread was bound to)
  std::vector<unsigned> bound_pus;     // current_thread_binding() right after binding
  unsigned observed_pu = 0;            // current_pu() after the timed reps
};

// One array of a run, as allocated.
struct ArrayBytes {
  std::string name;
  std::size_t bytes = 0;
};

struct StreamResult {
  std::string kernel;
  std::string formula;
  unsigned threads = 0;
  std::vector<unsigned> cores;
  std::vector<ThreadPlacement> placements;  // indexed by OpenMP thread number
  std::size_t array_bytes = 0;              // per array, as run (whole doubles); other kernels: footprint / count
  std::size_t array_count = 0;              // arrays the kernel touches
  std::vector<ArrayBytes> arrays;           // each array the kernel allocated, by name
  std::string problem;                      // the size of the problem, for people ("n = 512", "96^3 grid")
  std::size_t bytes_per_element = 0;        // STREAM counting (0 for kernels that are not element-wise)
  std::size_t bytes_per_rep = 0;            // logical bytes of one rep: one pass, whatever the tier emulation
  std::uint64_t flops_per_rep = 0;          // floating-point operations of one rep
  std::uint64_t updates_per_rep = 0;        // table updates of one rep (gups)
  std::string merit_unit;                   // the kernel's figure of merit: "GB/s", "GFLOP/s" or "GUP/s"
  unsigned reps = 0;
  std::string stores;                       // "nt" or "regular" as run; "none" for ddot (stores nothing)
  std::string kernel_isa;                   // STREAM kernels: the loops' instruction set (kernel_isa.hpp); else ""
  std::vector<double> rep_times_s;
  double warmup_time_s = 0;                 // the untimed warm-up reps together (timed anyway, for overhead accounting)
  // What else this measurement cost, apart from the reps (seconds, wall clock of the team): allocating the arrays,
  // faulting their pages in and writing their initial values (0 when the session kept them from an earlier
  // measurement), and comparing the results with their exact values. A process's time beyond these and the reps is
  // its start-up and exit: a launched task's set-up, phase by phase (docs/stream_bench.md).
  double preparation_s = 0;
  double validation_s = 0;
  double min_time_s = 0, median_time_s = 0, mean_time_s = 0, max_time_s = 0;
  // 1 GB/s = 1e9 B/s. mean_gbs = all reps' bytes / all reps' time (what likwid-bench reports).
  double best_gbs = 0, median_gbs = 0, mean_gbs = 0, worst_gbs = 0;
  // The figure of merit (merit_unit; for GB/s kernels the same as the *_gbs), from min/median/mean/max time.
  double best_merit = 0, median_merit = 0, mean_merit = 0, worst_merit = 0;
  bool validated = false;
  std::string validation_message;           // "" when validated, else the first mismatch and the count
  std::optional<double> sum;                // ddot's result (every rep must agree)
  // Memory tiers.
  double fast_fraction = 0;                 // as requested (0 when unset)
  std::string tier_backend;
  bool emulated = false;
  double slow_pass_factor = 1;              // times the slow part is streamed per rep
  std::size_t fast_bytes = 0;               // bytes placed in each tier, summed over the arrays
  std::size_t slow_bytes = 0;
};

// Runs `config` with arrays from `backend`: one StreamSession (stream_session.hpp), measured once and validated in
// full. Throws UsageError (bad config), ResourceError (cores or memory do
// not fit), PlatformError (binding failed). A validation failure is *not* thrown: the result says
// validated == false with the reason, so callers can still report the timings.
[[nodiscard]] StreamResult run_stream(const StreamConfig& config, platform::TierBackend& backend);

// Bytes the kernel's arrays need, and MemAvailable of this machine, for the up-front "does it fit" check.
[[nodiscard]] std::size_t required_bytes(const StreamConfig& config);
[[nodiscard]] std::size_t available_memory_bytes();

}  // namespace cosched::stream
