#include "knowledge_study/study.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/makespan_interval.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/resource_kinds.hpp"
#include "cosched/sim/model_search.hpp"
#include "cosched/sim/algorithms.hpp"
#include "cosched/sim/prediction.hpp"
#include "knowledge_study/profiling.hpp"
#include "knowledge_study/study_plan.hpp"

namespace cosched::bench {

const std::vector<StudyNode>& study_nodes() {
  static const std::vector<StudyNode> nodes{{"node-16", {16, 8}, 6}, {"knl-64", {64, 16}, 8},
                                            {"xeon-max-56", {56, 16}, 8}};
  return nodes;
}

const std::vector<std::string>& study_strategies() {
  static const std::vector<std::string> names{"oracle",     "exhaustive", "reseeded", "sparse",
                                              "short-runs", "adaptive",   "learning"};
  return names;
}

namespace {

const std::vector<std::string> kPaperEight{"d-list-spt", "d-list-lpt", "d-pack-nf", "d-pack-ff",
                                           "t-list-spt", "t-list-lpt", "t-pack-nf", "t-pack-ff"};

Batch draw_batch(const StudyNode& node, const StudyOptions& options, std::size_t node_index, std::size_t batch) {
  Batch drawn;
  const std::vector<std::string>& families = truth_families();
  for (std::size_t k = 0; k < node.programs; ++k) {
    const std::string& family = families[(k + batch) % families.size()];
    const std::uint64_t seed = sched::instance_seed(options.seed, (node_index * 1000 + batch) * 100 + k);
    drawn.programs.push_back(draw_program(family, node.shape, options.production_work, seed));
    for (const double factor : {1.0, 1.0, 2.0}) {
      drawn.tasks.push_back({fmt::format("p{}-{}-{}", k, family, drawn.tasks.size() % 3),
                             k, factor * options.production_work});
    }
  }
  return drawn;
}

PlanSketch sketch(const sim::LaunchPlan& plan) {
  PlanSketch result;
  for (const sim::PlannedTask& task : plan.tasks) result.allocations.push_back({task.demand[0], task.demand[1]});
  result.predicted_makespan = makespan_of(plan);
  return result;
}

// Fills what a plan achieves on the truth, what it predicted, and how often its interval holds a noisy run.
void evaluate(StrategyOutcome& outcome, const sim::LaunchPlan& plan, const std::vector<double>& task_log_sd,
              const sched::Instance& truth, const StudyOptions& options, std::uint64_t seed) {
  const sim::LaunchPlan true_plan = on_truth(plan, truth);
  outcome.makespan = makespan_of(true_plan);
  const knowledge::MakespanDistribution interval = knowledge::makespan_distribution(
      plan, task_log_sd, {options.interval_samples, seed, options.launch_noise, {0.1, 0.9}, "auto", {}, {}});
  outcome.predicted = interval.nominal;
  outcome.low = interval.values[0];
  outcome.high = interval.values[1];
  knowledge::NormalDraws draws(seed ^ 0x5eedULL);
  std::size_t inside = 0;
  for (std::size_t r = 0; r < options.observed_runs; ++r) {
    sim::LaunchPlan observed = true_plan;
    // The node-wide factor slows the whole run, its memory pools too (a slower memory phase), as the interval
    // draws it (knowledge::makespan_distribution); each task's own noise moves its time alone.
    const double node = options.launch_noise * draws.next();
    for (auto& task : observed.tasks) task.predicted_duration *= std::exp(options.noise * draws.next());
    const double makespan = std::exp(node) * makespan_of(observed);
    inside += makespan >= outcome.low && makespan <= outcome.high ? 1 : 0;
  }
  outcome.coverage = static_cast<double>(inside) / static_cast<double>(std::max<std::size_t>(1, options.observed_runs));
  std::vector<double> errors;
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    errors.push_back(std::abs(std::log(plan.tasks[j].predicted_duration / true_plan.tasks[j].predicted_duration)));
  }
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(errors.size() / 2), errors.end());
  outcome.task_error = errors[errors.size() / 2];
}

std::vector<double> spread_of(const sim::LaunchPlan& plan, const Fits& fits) {
  std::vector<double> sd;
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    sd.push_back(fits[j]->interval_log_sd(plan.tasks[j].demand[0], plan.tasks[j].demand[1]));
  }
  return sd;
}

}  // namespace

void check_study_options(const StudyOptions& options) {
  for (const std::string& name : options.nodes) {
    if (std::none_of(study_nodes().begin(), study_nodes().end(), [&](const StudyNode& n) { return n.name == name; })) {
      throw UsageError("unknown study node \"" + name + "\" (known: node-16, knl-64, xeon-max-56)");
    }
  }
  if (options.batches == 0 || options.interval_samples == 0) throw UsageError("batches and samples must be >= 1");
  if (!(options.noise >= 0.0 && options.launch_noise >= 0.0 && options.budget_share > 0.0)) {
    throw UsageError("noise levels must be >= 0 and the budget share > 0");
  }
}

StudyResults run_study(const StudyOptions& options, const std::function<void(const std::string&)>& progress) {
  check_study_options(options);
  StudyResults results;
  Planner planner{options};
  for (std::size_t n = 0; n < study_nodes().size(); ++n) {
    const StudyNode& node = study_nodes()[n];
    const auto& wanted = options.nodes;
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), node.name) == wanted.end()) continue;
    const ProfilingSetup setup{node.shape, options.noise, options.profiling_work, options.budget_share, {}};
    for (std::size_t b = 0; b < options.batches; ++b) {
      const Batch batch = draw_batch(node, options, n, b);
      const sched::Instance truth = true_instance(batch, node.shape);
      const std::uint64_t seed = sched::instance_seed(options.seed, n * 1000 + b);
      const double lower_bound = sched::lower_bound(truth);
      for (const std::string& algorithm : kPaperEight) {
        const double makespan = makespan_of(on_truth(planner.plan(truth, algorithm), truth));
        results.algorithms.push_back({node.name, b, algorithm, makespan, lower_bound});
      }
      const sim::LaunchPlan oracle_plan = planner.plan(truth);
      results.algorithms.push_back(
          {node.name, b, std::string(sim::kModelSearchName), makespan_of(oracle_plan), lower_bound});

      std::vector<StrategyOutcome> rows;
      StrategyOutcome oracle{node.name, b, "oracle"};
      evaluate(oracle, oracle_plan, std::vector<double>(batch.tasks.size(), options.noise), truth, options, seed);
      rows.push_back(oracle);
      const PlanFits plan_fits = [&](const Fits& fits) {
        return sketch(plan_of(planner, batch, node.shape, fits, options.plan_times));
      };
      for (const std::string strategy : {"exhaustive", "sparse", "short-runs", "adaptive"}) {
        knowledge::NormalDraws noise(seed + 17);  // every strategy measures the same noise stream
        Knowledge known = profile_batch(strategy, batch, setup, noise, plan_fits);
        const sim::LaunchPlan plan = plan_of(planner, batch, node.shape, known.fits, options.plan_times);
        StrategyOutcome row{node.name, b, strategy, known.ledger.runs(), known.ledger.serial_seconds(),
                            known.ledger.packed_seconds(node.shape)};
        evaluate(row, plan, spread_of(plan, known.fits), truth, options, seed);
        rows.push_back(row);
        if (strategy == std::string("exhaustive")) {
          // The planner's own noise: the same knowledge planned with other seeds.
          StrategyOutcome reseeded = row;
          reseeded.strategy = "reseeded";
          const std::uint64_t seed_before = planner.seed_offset;
          planner.seed_offset = 1000;
          const sim::LaunchPlan again = plan_of(planner, batch, node.shape, known.fits, options.plan_times);
          planner.seed_offset = seed_before;
          evaluate(reseeded, again, spread_of(again, known.fits), truth, options, seed);
          rows.push_back(reseeded);
        }
        if (strategy == std::string("adaptive")) {
          // Learning: the batch runs once with the cheapest knowledge's plan; its observed times join the evidence.
          knowledge::NormalDraws observed(seed + 29);
          const double node_factor = std::exp(options.launch_noise * observed.next());
          for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
            const auto& demand = plan.tasks[j].demand;
            const double seconds = truth.time(j, demand) * node_factor * std::exp(options.noise * observed.next());
            known.evidence[evidence_key(known.evidence, batch.tasks[j])].push_back(
                {demand[0], demand[1], batch.tasks[j].work, seconds});
          }
          const Fits learnt = fit_batch(batch, known.evidence, setup);
          const sim::LaunchPlan second = plan_of(planner, batch, node.shape, learnt, options.plan_times);
          StrategyOutcome learning = row;
          learning.strategy = "learning";
          evaluate(learning, second, spread_of(second, learnt), truth, options, seed);
          rows.push_back(learning);
        }
      }
      const double exhaustive = rows[1].makespan;  // rows: oracle, exhaustive, reseeded, ...
      for (StrategyOutcome& row : rows) {
        row.exhaustive_makespan = exhaustive;
        row.oracle_makespan = rows[0].makespan;
        results.strategies.push_back(row);
      }
      if (progress) progress(fmt::format("{} batch {}/{} done", node.name, b + 1, options.batches));
    }
  }
  if (progress) {
    progress(fmt::format("model-search: {} plans, {} candidates evaluated in {:.1f} s", planner.searches,
                         planner.evaluations, planner.seconds));
  }
  if (progress && planner.stopped_by_budget > 0) {
    progress(fmt::format("note: {} of {} model-search plans stopped at the planner budget (--planner-budget-ms): "
                         "those are not reproducible bit for bit",
                         planner.stopped_by_budget, planner.searches));
  }
  return results;
}

}  // namespace cosched::bench
