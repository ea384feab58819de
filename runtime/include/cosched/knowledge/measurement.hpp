#pragma once
// What the knowledge library reasons about (issue 39): a node's shape, a task that may say how its work scales,
// the runs measured so far and the runs a strategy asks for next. Plain values; no process code anywhere in
// cosched::knowledge — a caller (cosched run, or the simulated study in bench/) times the runs and hands the
// seconds back.
#include <vector>

namespace cosched::knowledge {

// The resources a task is fitted over: cores 1..cores and fast-memory chunks 0..fast_chunks (0: no fast tier).
struct NodeShape {
  int cores = 1;
  int fast_chunks = 0;
};

// A task's work: the amount it runs in the batch (a step or iteration count, or 1 for "as given") and, when it
// says how its work scales, smaller amounts it can be profiled at (short runs). Its time is taken to be a fixed
// cost plus a cost per unit of work (work_scaling.hpp), as STREAM tasks are with passes.
struct TaskWork {
  double production = 1.0;          // > 0
  std::vector<double> profiling;    // ascending, each in (0, production); empty: only the production amount runs
};

// One timed run: `seconds` of wall time at `cores` cores and `fast_chunks` chunks running `work` units.
// Repetitions are several measurements of one point.
struct Measurement {
  int cores = 1;
  int fast_chunks = 0;
  double work = 1.0;
  double seconds = 0.0;
};

// A run a strategy asks for. estimated_seconds is what it should cost by what is known — a cautious estimate (the
// fitted time one standard deviation up, or a measured neighbour scaled as if the task sped up linearly) — or NaN
// when nothing about the task is known yet.
struct PlannedRun {
  int cores = 1;
  int fast_chunks = 0;
  double work = 1.0;
  double estimated_seconds = 0.0;
  friend bool operator==(const PlannedRun&, const PlannedRun&) = default;
};

// Two work amounts are the same amount within this relative tolerance (a profiling value read back from a file).
[[nodiscard]] bool same_work(double a, double b) noexcept;

// Throws InputError (naming `where`) unless the node has >= 1 core and >= 0 chunks, the work is valid (see
// TaskWork), and every measurement lies on the node, has work > 0 and finite seconds > 0.
void check_measurements(const NodeShape& node, const TaskWork& work, const std::vector<Measurement>& measurements,
                        const char* where);

}  // namespace cosched::knowledge
