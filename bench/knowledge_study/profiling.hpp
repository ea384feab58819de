#pragma once
// The study's profiling: each strategy (cosched/knowledge/strategy.hpp) asks for runs, the study times them on the
// ground truth with noise, and the runs' seconds become each task's fit — what the planner then plans with.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cosched/knowledge/random.hpp"
#include "cosched/knowledge/strategy.hpp"
#include "cosched/knowledge/task_fit.hpp"
#include "knowledge_study/ground_truth.hpp"

namespace cosched::bench {

struct BatchTask {
  std::string id;
  std::size_t program = 0;  // index into Batch::programs
  double work = 1.0;        // its production amount
};

struct Batch {
  std::vector<TruthProgram> programs;
  std::vector<BatchTask> tasks;
};

// Every profiling run: how many, their seconds one after the other, and side by side on the node.
class ProfilingLedger {
 public:
  void add(const knowledge::PlannedRun& run, double seconds);
  [[nodiscard]] std::size_t runs() const noexcept { return durations_.size(); }
  [[nodiscard]] double serial_seconds() const noexcept { return serial_; }
  // The runs as rigid tasks, longest first, list-scheduled on the node's cores and chunks (sched::list_schedule).
  [[nodiscard]] double packed_seconds(const knowledge::NodeShape& node) const;

 private:
  std::vector<int> demand_;  // cores, chunks per run
  std::vector<double> durations_;
  double serial_ = 0.0;
};

using Fits = std::vector<std::shared_ptr<const knowledge::FittedTask>>;  // one per batch task

// What a plan of the current fits says: each task's allocation and the predicted makespan (adaptive's rounds).
struct PlanSketch {
  std::vector<knowledge::PlannedAllocation> allocations;
  double predicted_makespan = 0.0;
};
using PlanFits = std::function<PlanSketch(const Fits&)>;

struct ProfilingSetup {
  knowledge::NodeShape node;
  double noise = 0.03;
  std::vector<double> profiling_work;
  double budget_share = 0.1;  // adaptive
  knowledge::TaskFitOptions fit;
};

// The runs a strategy measured, grouped as its fits use them: per distinct command (program, work) for the
// strategies that profile at full size, per program (work 0) for those that run short.
using Evidence = std::map<std::pair<std::size_t, double>, std::vector<knowledge::Measurement>>;

struct Knowledge {
  Fits fits;
  Evidence evidence;
  ProfilingLedger ledger;
  std::size_t rounds = 0;
};

// Profiles `batch` with the named strategy (exhaustive, sparse, short-runs, adaptive) and fits every task.
[[nodiscard]] Knowledge profile_batch(const std::string& strategy, const Batch& batch, const ProfilingSetup& setup,
                                      knowledge::NormalDraws& noise, const PlanFits& plan_fits);

// Every task's fit from `evidence` (the key its strategy filed it under).
[[nodiscard]] Fits fit_batch(const Batch& batch, const Evidence& evidence, const ProfilingSetup& setup);

// The evidence key of a task: its command for strategies at full size, its program for the others.
[[nodiscard]] std::pair<std::size_t, double> evidence_key(const Evidence& evidence, const BatchTask& task);

}  // namespace cosched::bench
