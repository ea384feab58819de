#pragma once
// The programs of the simulated knowledge study (docs/knowledge.md): what a task really takes, at any cores, fast
// chunks and amount of work — known to the study, never to the fits, which only see noisy runs of it.
//
// A program's time is  t(p, c, w) = fixed + unit * effective(w) * g(p) * m(p, c)  with
//   g(p)      its speedup over cores (g(1) = 1), one of eight families below;
//   m(p, c)   fast memory: a share b(p) = b_max p / (p + p_half) of its time is bound on memory bandwidth (more
//             with more cores), and the part of its footprint in fast memory, min(1, c / chunks_needed), runs that
//             share 4 x faster (MCDRAM / HBM against DDR) — so the gain of fast memory depends on the cores, which
//             the fits assume it does not;
//   effective(w) = w + (warmup_factor - 1) min(w, warmup_units): the first units cost more (caches, JIT) — a cost
//             per unit that is not constant, which the work-scaling fit assumes it is.
// Families: the paper's laws (seed 003 Sec. 5.4, drawn with sched::draw_parameters: amdahl, power), three shaped
// like measured programs (memory-bound: bandwidth saturates at p_sat cores; mpi-like: communication grows as
// log2 p; dense linear algebra: nearly linear), and three that break the usual forms (plateau: no gain past p0;
// slowdown: slower past p0; cache-jump: 40 % less per unit from p_c cores on, when the working set fits the
// aggregate cache).
#include <cstdint>
#include <string>
#include <vector>

#include "cosched/knowledge/measurement.hpp"
#include "cosched/knowledge/random.hpp"

namespace cosched::bench {

struct TruthProgram {
  std::string family;
  double fixed_seconds = 1.0;
  double unit_seconds = 1.0;      // per unit of work at 1 core without fast memory
  std::vector<double> shape;      // the family's parameters (ground_truth.cpp)
  double bandwidth_share = 0.3;   // b_max
  double half_cores = 8.0;        // p_half
  int chunks_needed = 8;
  double warmup_units = 0.0;
  double warmup_factor = 1.0;

  [[nodiscard]] double core_factor(int cores) const;  // g(p)
  [[nodiscard]] double seconds(int cores, int chunks, double work) const;
  // The part of seconds() bound on the slow memory's (DDR's) bandwidth: b(p) of the work's time, less the part of
  // the footprint in fast memory (packed_profiling.hpp stretches it when runs share the node).
  [[nodiscard]] double slow_memory_seconds(int cores, int chunks, double work) const;
};

[[nodiscard]] const std::vector<std::string>& truth_families();

// A program of `family` for a node of `node` (its scale: core counts where shapes change, chunks its footprint
// needs), whose production run of `production_work` units takes 300-3000 s on one core.
[[nodiscard]] TruthProgram draw_program(const std::string& family, const knowledge::NodeShape& node,
                                        double production_work, std::uint64_t seed);

// One timed run: the truth times a lognormal factor of sd `noise` (the run-to-run noise of a node).
[[nodiscard]] double measure(const TruthProgram& program, const knowledge::PlannedRun& run, double noise,
                             knowledge::NormalDraws& draws);

}  // namespace cosched::bench
