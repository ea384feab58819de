#pragma once
// The recurring study's `packed` rows (recurring.hpp): the learning loop's profiling runs side by side on disjoint
// cores and chunks of the node, the budget charged in wall seconds of that packed profiling, instead of one run
// after the other (profiler/src/learning/learning.cpp learn_batch, which recurring.cpp's serial loop mirrors).
//
// The loop runs on a simulated profiling clock. At each event (time 0, then each run's end) it walks the kinds in
// the learning loop's order and starts a kind's next run when
//   - no run of that kind is in flight (the strategy does not know an in-flight run's result),
//   - its estimated end, now + its priced seconds, is within the budget (the same price and budget as the serial
//     loop: the run's estimate, and the budget's share of the learning planner's makespan), and
//   - its cores and chunks are free now.
// A run that fits the budget and the node but not the free cores and chunks now blocks the walk's later kinds the
// way EASY backfilling does: the first such run gets a reservation at the time enough cores and chunks come free
// (the runs in flight ending at their estimated ends), and a later kind's run starts now only if its estimated end
// is before that reservation. So a whole-node run of a heavy kind (the strategy asks for the most cores first) is
// not passed over for ever by smaller runs of lighter kinds; when even waiting would take it past the budget, it
// gets no reservation and the walk goes on as first-fit. When nothing more can start, the clock moves to the
// earliest end of a run in flight and its result is applied as the serial loop applies it (its kind's evidence,
// refit, re-plan every second run of a kind or when a kind becomes known).
//
// Disturbance: co-running runs share the node's slow-memory (DDR) bandwidth; the study's ground truth has no
// contention, so a fluid model is added here, for co-running profiling runs only (the production plan still runs
// on the uncontended truth). A run's time alone is the truth's t (with its noise); its DDR-bound part is
// TruthProgram::slow_memory_seconds's share σ of t (b(p) of the work's time, less the part of its footprint in fast
// memory). Its bandwidth demand is d = min(1, σ p / p_sat) of the node's DDR capacity: p cores each drive 1/p_sat
// of it during the σ share of the time, and a run alone never uses more than the node has (its own saturation is
// in its truth time already, so a run alone is never stretched). While the runs in flight demand D = Σ d > 1, each
// run's DDR-bound part runs D times slower (the capacity shared in proportion to demand); D is recomputed whenever
// a run starts or ends, and each run's progress integrated piecewise (a fluid model, exact for these rates).
// Fast memory (MCDRAM) has its own bandwidth, about 5 x DDR's on a KNL (~450 against ~90 GB/s STREAM), which 64
// cores do not saturate: a run's part in fast memory is not disturbed. p_sat = cores / 4: 16 on the 64-core KNL,
// where STREAM on DDR4 (6 channels) saturates at 16-24 cores; the same ratio, untested, on the other nodes.
// Limits: no other shared resource (caches, the mesh, tiles of 2 cores sharing an L2 when a run has an odd core
// count), demand taken as constant over a run (a real run alternates phases), capacity shared in proportion to
// demand (a memory controller's fairness is per request, near that), and the learning loop never knows: it keeps
// the disturbed time as the kind's time, as cosched would unless it de-contended its profiling runs.
#include <cstddef>
#include <optional>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/knowledge/random.hpp"
#include "knowledge_study/ground_truth.hpp"
#include "knowledge_study/profiling.hpp"

namespace cosched::bench {

// What the packed loop asks of the learning loop (recurring.cpp's Owner: the serial loop's steps, one by one).
class LearningSteps {
 public:
  virtual ~LearningSteps() = default;
  // The learner's kinds, 0..kinds()-1, in the order a next run is looked for (the heaviest first).
  [[nodiscard]] virtual std::size_t kinds() const = 0;
  [[nodiscard]] virtual std::vector<std::size_t> order() = 0;
  // Kind k's next run, priced (its estimated_seconds NaN when it cannot be priced); none when k is done.
  [[nodiscard]] virtual std::optional<knowledge::PlannedRun> next_run(std::size_t k) = 0;
  [[nodiscard]] virtual const TruthProgram& program(std::size_t k) const = 0;
  // The profiling budget's end, in seconds of the profiling clock.
  [[nodiscard]] virtual double budget() const = 0;
  virtual void started(std::size_t k, const knowledge::PlannedRun& run) = 0;
  // A run's observed seconds come in: evidence, refit, re-plan.
  virtual void finished(std::size_t k, const knowledge::PlannedRun& run, double seconds) = 0;
};

struct PackedOptions {
  bool disturbance = true;            // co-running runs share the DDR bandwidth (above); false: `packed-calm`
  double saturating_share = 0.25;     // p_sat / the node's cores
};

struct PackedProfiling {
  double wall = 0.0;        // seconds from the first run's start to the last one's end
  double most_stretch = 1.0;  // the largest observed / alone ratio of a run (1: no disturbance)
  double peak_demand = 0.0;   // the largest Σ d of the runs in flight together (above 1: they were disturbed)
};

// Runs the learning loop's profiling packed on `node` until nothing more fits the budget; every run joins `ledger`
// (its serial seconds: the sum of the runs' observed seconds).
PackedProfiling profile_packed(LearningSteps& steps, const knowledge::NodeShape& node, const PackedOptions& options,
                               double noise, knowledge::NormalDraws& draws, ProfilingLedger& ledger);

}  // namespace cosched::bench
