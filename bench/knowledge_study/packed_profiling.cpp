#include "knowledge_study/packed_profiling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace cosched::bench {

namespace {

struct InFlight {
  std::size_t kind = 0;
  knowledge::PlannedRun run;
  double start = 0.0;
  double alone = 0.0;        // its seconds alone on the node (the truth with its noise)
  double slow_memory = 0.0;  // ... of which bound on DDR bandwidth
  double demand = 0.0;       // its share of the node's DDR bandwidth, min(1, σ p / p_sat)
  double progress = 0.0;     // the share of it done
};

double total_demand(const std::vector<InFlight>& flying) {
  double total = 0.0;
  for (const InFlight& run : flying) total += run.demand;
  return total;
}

double seconds_at(const InFlight& run, double oversubscribed) {
  return run.alone + (oversubscribed - 1.0) * run.slow_memory;
}

// When `cores` and `chunks` are free if the runs in flight end at their estimated ends (now, for one past its
// estimate): the reservation of EASY backfilling. The run fits the node, so the answer is at most the last end.
double free_at(const std::vector<InFlight>& flying, int free_cores, int free_chunks, int cores, int chunks,
               double now) {
  std::vector<std::size_t> by_end(flying.size());
  std::iota(by_end.begin(), by_end.end(), std::size_t{0});
  const auto estimated_end = [&](std::size_t i) {
    return std::max(now, flying[i].start + flying[i].run.estimated_seconds);
  };
  std::stable_sort(by_end.begin(), by_end.end(),
                   [&](std::size_t a, std::size_t b) { return estimated_end(a) < estimated_end(b); });
  double at = now;
  for (const std::size_t i : by_end) {
    if (free_cores >= cores && free_chunks >= chunks) return at;
    free_cores += flying[i].run.cores;
    free_chunks += flying[i].run.fast_chunks;
    at = estimated_end(i);
  }
  return at;
}

}  // namespace

PackedProfiling profile_packed(LearningSteps& steps, const knowledge::NodeShape& node, const PackedOptions& options,
                               double noise, knowledge::NormalDraws& draws, ProfilingLedger& ledger) {
  const double saturating_cores = options.saturating_share * node.cores;
  const int node_chunks = std::max(node.fast_chunks, 0);
  std::vector<InFlight> flying;
  int free_cores = node.cores;
  int free_chunks = node_chunks;
  double now = 0.0;
  PackedProfiling result;
  for (;;) {
    // Start what can start now, walking the kinds in the learning loop's order (packed_profiling.hpp).
    std::vector<bool> busy(steps.kinds(), false);
    for (const InFlight& run : flying) busy[run.kind] = true;
    const double budget_end = steps.budget();
    std::optional<double> reservation;
    for (const std::size_t k : steps.order()) {
      if (busy[k]) continue;
      const std::optional<knowledge::PlannedRun> next = steps.next_run(k);
      if (!next || std::isnan(next->estimated_seconds)) continue;
      const knowledge::PlannedRun& run = *next;
      const double estimate = run.estimated_seconds;
      if (now + estimate > budget_end || run.cores > node.cores || run.fast_chunks > node_chunks) continue;
      if (run.cores > free_cores || run.fast_chunks > free_chunks) {
        if (!reservation) {
          const double at = free_at(flying, free_cores, free_chunks, run.cores, run.fast_chunks, now);
          if (at + estimate <= budget_end) reservation = at;
        }
        continue;
      }
      if (reservation && now + estimate > *reservation) continue;
      steps.started(k, run);
      const TruthProgram& program = steps.program(k);
      const double factor = std::exp(noise * draws.next());  // measure()'s noise, on both parts of the time
      InFlight flight{k, run, now, program.seconds(run.cores, run.fast_chunks, run.work) * factor,
                      program.slow_memory_seconds(run.cores, run.fast_chunks, run.work) * factor, 0.0, 0.0};
      flight.demand = std::min(1.0, flight.slow_memory / flight.alone * run.cores / saturating_cores);
      flying.push_back(flight);
      free_cores -= run.cores;
      free_chunks -= run.fast_chunks;
      busy[k] = true;
    }
    if (flying.empty()) break;

    // Nothing more starts: the clock moves to the earliest end, every run in flight progressing at the rate the
    // bandwidth they share allows until then.
    // D = max(1, Σ d): how much slower the DDR-bound parts of the runs in flight run.
    const double demand = total_demand(flying);
    result.peak_demand = std::max(result.peak_demand, demand);
    const double oversubscribed = options.disturbance ? std::max(1.0, demand) : 1.0;
    std::size_t first = 0;
    double first_end = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < flying.size(); ++i) {
      const double end = now + (1.0 - flying[i].progress) * seconds_at(flying[i], oversubscribed);
      if (end < first_end) {
        first_end = end;
        first = i;
      }
    }
    for (InFlight& run : flying) run.progress += (first_end - now) / seconds_at(run, oversubscribed);
    now = first_end;
    const InFlight done = flying[first];
    flying.erase(flying.begin() + static_cast<std::ptrdiff_t>(first));
    free_cores += done.run.cores;
    free_chunks += done.run.fast_chunks;
    const double seconds = now - done.start;
    result.most_stretch = std::max(result.most_stretch, seconds / done.alone);
    ledger.add(done.run, seconds);
    steps.finished(done.kind, done.run, seconds);
  }
  result.wall = now;
  return result;
}

}  // namespace cosched::bench
