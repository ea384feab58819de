#include "knowledge_study/profiling.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "cosched/sched/rigid.hpp"

namespace cosched::bench {

void ProfilingLedger::add(const knowledge::PlannedRun& run, double seconds) {
  demand_.push_back(run.cores);
  demand_.push_back(run.fast_chunks);
  durations_.push_back(seconds);
  serial_ += seconds;
}

double ProfilingLedger::packed_seconds(const knowledge::NodeShape& node) const {
  if (durations_.empty()) return 0.0;
  sched::RigidTasks tasks{{node.cores, std::max(node.fast_chunks, 0)}, demand_, durations_};
  const sched::RigidSchedule schedule = sched::list_schedule(tasks, sched::ListOrder::longest_first);
  double end = 0.0;
  for (std::size_t k = 0; k < durations_.size(); ++k) end = std::max(end, schedule.start[k] + durations_[k]);
  return end;
}

namespace {

constexpr std::size_t kAdaptiveRounds = 3;

bool runs_short(const std::string& strategy) { return strategy == "short-runs" || strategy == "adaptive"; }

knowledge::TaskWork task_work(const BatchTask& task, const ProfilingSetup& setup, bool short_runs) {
  return {task.work, short_runs ? setup.profiling_work : std::vector<double>{}};
}

// One group of evidence: the tasks that share it and the amount the strategy is asked about (the smallest).
struct Group {
  std::pair<std::size_t, double> key;
  std::vector<std::size_t> tasks;
};

std::vector<Group> groups_of(const Batch& batch, bool short_runs) {
  std::vector<Group> groups;
  for (std::size_t j = 0; j < batch.tasks.size(); ++j) {
    const std::pair<std::size_t, double> key{batch.tasks[j].program, short_runs ? 0.0 : batch.tasks[j].work};
    auto found = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.key == key; });
    if (found == groups.end()) {
      groups.push_back({key, {}});
      found = groups.end() - 1;
    }
    found->tasks.push_back(j);
  }
  return groups;
}

void run_all(const Batch& batch, const Group& group, const std::vector<knowledge::PlannedRun>& runs,
             Knowledge& knowledge, knowledge::NormalDraws& noise, double noise_sd) {
  for (const knowledge::PlannedRun& run : runs) {
    const double seconds = measure(batch.programs[group.key.first], run, noise_sd, noise);
    knowledge.evidence[group.key].push_back({run.cores, run.fast_chunks, run.work, seconds});
    knowledge.ledger.add(run, seconds);
  }
}

}  // namespace

std::pair<std::size_t, double> evidence_key(const Evidence& evidence, const BatchTask& task) {
  const std::pair<std::size_t, double> per_program{task.program, 0.0};
  return evidence.count(per_program) != 0 ? per_program : std::pair{task.program, task.work};
}

Fits fit_batch(const Batch& batch, const Evidence& evidence, const ProfilingSetup& setup) {
  Fits fits;
  for (const BatchTask& task : batch.tasks) {
    const auto key = evidence_key(evidence, task);
    fits.push_back(std::make_shared<const knowledge::FittedTask>(
        setup.node, task_work(task, setup, key.second == 0.0), evidence.at(key), setup.fit));
  }
  return fits;
}

Knowledge profile_batch(const std::string& strategy_name, const Batch& batch, const ProfilingSetup& setup,
                        knowledge::NormalDraws& noise, const PlanFits& plan_fits) {
  const knowledge::MeasurementStrategy& strategy = knowledge::find_measurement_strategy(strategy_name);
  const bool short_runs = runs_short(strategy_name);
  const std::vector<Group> groups = groups_of(batch, short_runs);
  Knowledge knowledge;
  // First round: what each strategy asks for with nothing known (the group's smallest task stands for it), until
  // it asks for nothing more (exhaustive, sparse and short-runs need one round; adaptive's coarse points too).
  for (const Group& group : groups) {
    knowledge::StrategyInput input;
    input.node = setup.node;
    input.work = task_work(batch.tasks[group.tasks.front()], setup, short_runs);
    for (std::vector<knowledge::PlannedRun> runs = strategy.next_runs(input); !runs.empty();
         runs = strategy.next_runs(input)) {
      run_all(batch, group, runs, knowledge, noise, setup.noise);
      input.known = knowledge.evidence[group.key];
    }
  }
  knowledge.rounds = 1;
  knowledge.fits = fit_batch(batch, knowledge.evidence, setup);
  if (strategy_name != "adaptive") return knowledge;

  // Adaptive: plan, ask each task where the plan put it, measure cheapest first within the budget, fit again.
  for (std::size_t round = 0; round < kAdaptiveRounds; ++round) {
    const PlanSketch plan = plan_fits(knowledge.fits);
    const double budget = setup.budget_share * plan.predicted_makespan - knowledge.ledger.serial_seconds();
    std::vector<std::pair<const Group*, knowledge::PlannedRun>> wanted;
    for (const Group& group : groups) {
      std::set<std::tuple<int, int, double>> seen;
      for (const std::size_t j : group.tasks) {
        knowledge::StrategyInput input;
        input.node = setup.node;
        input.work = task_work(batch.tasks[j], setup, true);
        input.known = knowledge.evidence[group.key];
        input.fit = knowledge.fits[j].get();
        input.planned = plan.allocations[j];
        for (const knowledge::PlannedRun& run : strategy.next_runs(input)) {
          if (seen.insert({run.cores, run.fast_chunks, run.work}).second) wanted.emplace_back(&group, run);
        }
      }
    }
    std::stable_sort(wanted.begin(), wanted.end(), [](const auto& a, const auto& b) {
      return a.second.estimated_seconds < b.second.estimated_seconds;
    });
    double spent = 0.0;
    std::size_t taken = 0;
    for (const auto& [group, run] : wanted) {
      if (spent + run.estimated_seconds > budget) break;
      spent += run.estimated_seconds;
      run_all(batch, *group, {run}, knowledge, noise, setup.noise);
      ++taken;
    }
    if (taken == 0) break;
    ++knowledge.rounds;
    knowledge.fits = fit_batch(batch, knowledge.evidence, setup);
  }
  return knowledge;
}

}  // namespace cosched::bench
