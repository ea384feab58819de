#include "first_run_study/first_run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <tuple>

#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/exec/task_command.hpp"
#include "cosched/profiler/launch_replanner.hpp"
#include "cosched/profiler/learning.hpp"
#include "cosched/profiler/profile_cache.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sim/default_planner.hpp"
#include "cosched/sim/model_search.hpp"
#include "first_run_study/batch.hpp"
#include "first_run_study/observed.hpp"
#include "knowledge_study/naive_ways.hpp"

namespace cosched::bench {

const std::vector<FirstRunNode>& first_run_nodes() {
  static const std::vector<FirstRunNode> nodes{{"node-16", 16}, {"xeon-max-56", 56}, {"knl-64", 64}};
  return nodes;
}

void check_first_run_options(const FirstRunOptions& options) {
  for (const std::string& name : options.nodes) {
    if (std::none_of(first_run_nodes().begin(), first_run_nodes().end(),
                     [&](const FirstRunNode& node) { return node.name == name; })) {
      throw UsageError("unknown node \"" + name + "\" (known: node-16, xeon-max-56, knl-64)");
    }
  }
  if (options.seeds == 0 || options.sizes.empty()) throw UsageError("--seeds and --sizes must not be empty or 0");
  for (const double size : options.sizes) {
    if (!(size > 0.0 && size <= 64.0)) {
      throw UsageError(fmt::format("a batch size of {} x the cores: not in (0, 64]", size));
    }
  }
  if (!(options.noise >= 0.0 && options.production_work > 0.0 && options.oracle_evaluations > 0)) {
    throw UsageError("the noise must be >= 0, the work and the oracle's evaluations > 0");
  }
}

namespace {

// A store that knows nothing: a fresh folder of this process, removed when the study ends.
class ScratchStore {
 public:
  ScratchStore()
      : root_(std::filesystem::temp_directory_path() / fmt::format("cosched-first-run-study-{}", ::getpid())),
        cache_(root_, profiler::NodeFingerprint{"first-run-study", "simulated", 1, "none", 0.0}) {}
  ScratchStore(const ScratchStore&) = delete;
  ScratchStore& operator=(const ScratchStore&) = delete;
  ~ScratchStore() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  [[nodiscard]] const profiler::ProfileCache& cache() const { return cache_; }

 private:
  std::filesystem::path root_;
  profiler::ProfileCache cache_;
};

config::PlatformConfig cores_only_platform(const FirstRunNode& node) {
  config::PlatformConfig platform;
  platform.name = node.name;
  platform.cores = static_cast<unsigned>(node.cores);
  platform.tier_backend = "none";
  return platform;
}

FirstRunOutcome run_batch(const FirstRunNode& node, double size, std::size_t batch, const FirstRunOptions& options,
                          const ScratchStore& store, Reporter* notes) {
  const std::size_t tasks = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(size * node.cores)));
  const std::uint64_t seed =
      sched::instance_seed(sched::instance_seed(options.seed, static_cast<std::uint64_t>(node.cores)),
                           static_cast<std::uint64_t>(std::lround(size * 1000.0)) * 1000 + batch);
  DrawnBatch drawn = draw_batch(tasks, node.cores, options.production_work, seed);
  const NoisyTruth truth(drawn, options.noise, seed + 1);

  // What `cosched run` does with nothing known (workflow/src/batch_plan.cpp): nothing to measure, the naive plan.
  SilentReporter silent;
  profiler::LearningOptions learning;
  learning.launched.platform = cores_only_platform(node);
  learning.launched.tier = exec::TierSetup{};
  learning.launched.reporter = &silent;
  const profiler::BatchKnowledge known = profiler::learn_batch(drawn.workload, store.cache(), learning);
  if (known.unknown_kinds() != known.kinds.size()) throw std::logic_error("the study's store knew a kind");
  const profiler::KnowledgeInstance made =
      profiler::knowledge_instance(drawn.workload, known, learning.launched.platform, nullptr, false);
  const sim::LaunchPlan plan = sim::plan_from_schedule(made.instance, profiler::naive_schedule(made.instance));

  if (notes != nullptr) {
    notes->note(fmt::format("-- {} x {:g} cores, batch {}: {} tasks", node.name, size, batch, tasks));
  }
  FirstRunOutcome outcome;
  outcome.node = node.name;
  outcome.cores = node.cores;
  outcome.size = size;
  outcome.batch = batch;
  outcome.tasks = tasks;
  outcome.kinds = drawn.programs.size();
  outcome.naive_cores = sched::naive_cores(node.cores, tasks);
  const sim::EngineResult naive = truth.launch(plan);
  outcome.naive = naive.observed_makespan;

  // The same plan launched as `cosched run` does by default (run_batch.cpp), with its planner (kDefaultPlanner).
  static_assert(sim::kDefaultPlanner == sim::kModelSearchName, "the study observes the default planner's searches");
  const ObservedModelSearch planner(options.replan_evaluations);
  profiler::LaunchReplanner replanner(drawn.workload, plan, profiler::guessed_tasks(made.instance, "the study's plan"),
                                      known, learning, std::nullopt, planner,
                                      notes != nullptr ? notes : &silent);
  TimedReplanner timed(replanner);
  const sim::EngineResult replanned = truth.launch(plan, &timed);
  outcome.replan = replanned.observed_makespan;
  std::vector<std::size_t> kind;  // per plan task
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    outcome.widened += replanned.runs[j].grant.amounts.front() > plan.tasks[j].demand.front() ? 1 : 0;
    kind.push_back(drawn.program[truth.task_index(plan.tasks[j].id)]);
  }
  outcome.naive_idle_core_s = idle_while_waiting(naive, node.cores);
  outcome.replan_idle_core_s = idle_while_waiting(replanned, node.cores);
  outcome.replans = replanner.replans();
  outcome.replan_seconds = timed.seconds();
  outcome.longest_replan_seconds = timed.longest();
  outcome.searches = planner.seen().searches;
  outcome.search_evaluations = planner.seen().evaluations;
  outcome.searches_stopped_by_budget = planner.seen().stopped_by_budget;
  outcome.search_budget_ms = planner.seen().budget_ms;
  count_start_shifts(kind, naive, replanned, outcome.known_kind, outcome.unknown_kind);

  const sched::Instance true_times = truth_instance(drawn, node.cores);
  std::tie(outcome.best_naive, outcome.best_naive_way) =
      best_naive(true_times, [&](const sim::LaunchPlan& way) { return truth.makespan(way); });
  const sim::SearchOutcome oracle =
      sim::model_search(true_times, {kGenerousBudgetMs, seed, options.oracle_evaluations});
  outcome.oracle = truth.makespan(sim::plan_from_schedule(true_times, oracle.schedule));
  return outcome;
}

}  // namespace

std::vector<FirstRunOutcome> run_first_runs(const FirstRunOptions& options,
                                            const std::function<void(const std::string&)>& progress,
                                            Reporter* notes) {
  check_first_run_options(options);
  const ScratchStore store;
  std::vector<FirstRunOutcome> outcomes;
  for (const FirstRunNode& node : first_run_nodes()) {
    if (!options.nodes.empty() &&
        std::find(options.nodes.begin(), options.nodes.end(), node.name) == options.nodes.end()) {
      continue;
    }
    for (const double size : options.sizes) {
      const auto begin = std::chrono::steady_clock::now();
      for (std::size_t batch = 0; batch < options.seeds; ++batch) {
        outcomes.push_back(run_batch(node, size, batch, options, store, notes));
      }
      if (progress) {
        progress(fmt::format("{} x {:g} cores: {} batch(es) in {:.1f} s", node.name, size, options.seeds,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count()));
      }
    }
  }
  return outcomes;
}

}  // namespace cosched::bench
