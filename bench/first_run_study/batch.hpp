#pragma once
// A batch of first_run_study (first_run.hpp): programs of the ground truth, each one kind of command, their tasks
// in the file's order — and launches of any plan of it on its noisy truth.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replanning.hpp"
#include "knowledge_study/ground_truth.hpp"

namespace cosched::bench {

struct DrawnBatch {
  std::vector<TruthProgram> programs;
  std::vector<std::size_t> program;  // per task
  std::vector<double> work;          // per task
  config::Workload workload;         // the same tasks as `cosched run` reads them
};

// Programs of random families, 1-4 tasks each at 0.5, 1 or 2 x `production_work`, until the batch has `tasks`
// (the last program's tasks cut to fit); then the file's order shuffled. Each program is one kind of command: the
// same argv with {work} (an existing program, so that its kind can be formed; nothing runs it).
[[nodiscard]] DrawnBatch draw_batch(std::size_t tasks, int node_cores, double production_work, std::uint64_t seed);

// The batch's true times at every core count of the node, over cores only (the naive plan's resources).
[[nodiscard]] sched::Instance truth_instance(const DrawnBatch& drawn, int node_cores);

// Launches of one batch on its noisy truth: task j at p cores takes truth(j, p) x exp(noise z), z drawn from
// (seed, j, p) alone, whichever plan starts it there.
class NoisyTruth {
 public:
  NoisyTruth(const DrawnBatch& drawn, double noise, std::uint64_t seed);

  [[nodiscard]] std::size_t task_index(const std::string& id) const { return index_of_.at(id); }
  [[nodiscard]] double seconds(std::size_t task, int cores) const;
  // `plan`'s tasks are the batch's (by id), launched with its own rule; `replanner`: null for none. Throws
  // std::logic_error unless every task ends well.
  [[nodiscard]] sim::EngineResult launch(const sim::LaunchPlan& plan, sim::Replanner* replanner = nullptr) const;
  [[nodiscard]] double makespan(const sim::LaunchPlan& plan) const { return launch(plan).observed_makespan; }

 private:
  const DrawnBatch& drawn_;
  double noise_;
  std::uint64_t seed_;
  std::map<std::string, std::size_t> index_of_;
};

}  // namespace cosched::bench
