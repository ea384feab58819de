#include "knowledge_study/recurring.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "cosched/common/error.hpp"
#include "cosched/knowledge/exploration.hpp"
#include "cosched/knowledge/strategy.hpp"
#include "cosched/sched/allocation.hpp"
#include "cosched/sched/generator.hpp"
#include "cosched/sim/exploration.hpp"
#include "cosched/sim/prediction.hpp"
#include "knowledge_study/launch_learning.hpp"
#include "knowledge_study/naive_ways.hpp"
#include "knowledge_study/packed_profiling.hpp"
#include "knowledge_study/simulated_launch.hpp"
#include "knowledge_study/study_plan.hpp"

namespace cosched::bench {

const std::vector<std::string>& recurring_rows() {
  static const std::vector<std::string> rows{"recurring", "no-explore", "unpriced", "run-budget", "budget-follows"};
  return rows;
}

const std::vector<std::string>& recurring_extra_rows() {
  static const std::vector<std::string> rows{"breadth-first", "breadth-run-budget", "packed", "packed-calm",
                                             "packed-half", "packed-narrow", "packed-widest",
                                             "naive-first", "first-short-one", "first-short-only", "uncapped",
                                             "new-in-budget", "learn-in-launch"};
  return rows;
}

namespace {

// What a row of the study does differently (recurring.hpp).
struct RowRules {
  bool explore = true;         // plans explore (cosched run; `--no-explore`: no)
  bool price_unknown = true;   // a kind never run is measured within the auto budget, priced at the guess
  bool budget_from_run_plan = false;  // the budget is a share of the planner's plan, not the learning planner's
  bool budget_follows_plan = false;   // the budget is set again from each re-plan's makespan as runs come in
  bool breadth_first = false;  // kinds ordered by how many core counts they ran at (0, 1, more), then by weight
  bool packed = false;         // profiling runs side by side, the budget in wall seconds (packed_profiling.hpp)
  bool disturbance = true;     // packed: co-running runs share the DDR bandwidth
  double budget_scale = 1.0;   // the budget is this times the auto budget's share
  double saturating_share = PackedOptions{}.saturating_share;  // packed: p_sat / the node's cores
  bool widest_first = false;   // a kind's run with the most cores is offered first, not the strategy's cheapest
  // nothing known: the first short runs of every kind whose short runs cost little (learning.cpp
  // choose_first_runs), then the plan and the budget; false: the naive way (`cosched run` before them)
  bool first_short_runs = true;
  bool first_short_all = true;  // every such kind's, not only the one with the most tasks (tried: row first-short-one)
  bool first_short_alone = false;  // a batch that had first short runs spends no budget (tried: first-short-only)
  // a kind never run gets its first short runs also when other kinds of the batch are known (false: only when
  // nothing is, and a new kind is measured within the budget: `cosched run` before, row new-in-budget)
  bool first_short_new = true;
  // every kind known: the budget at most what knowing more may save (the plan on every fit one sd up less the plan on
  // the medians; learning.cpp); false: the share alone (tried: uncapped, cosched run before 2026-11-29 evening)
  bool cap_at_saving = true;
  // the launch learns (launch_learning.hpp): a task whose kind had run at one core count only ends at another, and
  // the pending tasks are planned again (false: cosched run, whose launch re-plans only for kinds it guessed at)
  bool learn_in_launch = false;
};
RowRules rules_of(const std::string& row) {
  if (row == "no-explore") return {false, true, false};
  if (row == "unpriced") return {true, false, false};
  if (row == "run-budget") return {true, true, true, false};
  if (row == "budget-follows") return {true, true, false, true};
  if (row == "breadth-first") return {true, true, false, false, true};
  if (row == "breadth-run-budget") return {true, true, true, false, true};
  if (row == "packed") return {true, true, false, false, false, true, true};
  if (row == "packed-calm") return {true, true, false, false, false, true, false};
  if (row == "packed-half") return {true, true, false, false, false, true, true, 0.5};
  if (row == "packed-narrow") return {true, true, false, false, false, true, true, 1.0, 1.0 / 16.0};
  if (row == "packed-widest") return {true, true, false, false, false, true, true, 1.0, 0.25, true};
  if (row == "uncapped") {
    RowRules rules;
    rules.cap_at_saving = false;
    return rules;
  }
  if (row == "new-in-budget") {
    RowRules rules;
    rules.first_short_new = false;
    return rules;
  }
  if (row == "learn-in-launch") {
    RowRules rules;
    rules.learn_in_launch = true;
    return rules;
  }
  if (row == "first-short-only") {
    RowRules rules;
    rules.first_short_alone = true;
    return rules;
  }
  if (row == "naive-first" || row == "first-short-one") {
    RowRules rules;
    rules.first_short_runs = row == "first-short-one";
    rules.first_short_all = false;
    return rules;
  }
  return {};
}

// The planner `cosched run` re-plans with while it measures (profiler/src/learning/learning.cpp kLearningPlanner).
constexpr const char* kLearningPlanner = "t-list-lpt";

using Evidence = std::map<std::size_t, std::vector<knowledge::Measurement>>;  // by kind (the pool's program)

struct RecurringBatch {
  Batch batch;
  std::vector<std::size_t> kind;  // per batch program: its index in the pool
};

// The pool's programs, the batch's draw: see recurring.hpp.
RecurringBatch draw_recurring(const std::vector<TruthProgram>& pool, std::size_t first_programs, std::size_t index,
                              std::set<std::size_t>& seen, sched::Random& random, const StudyOptions& study,
                              const RecurringOptions& options) {
  std::vector<std::size_t> chosen;
  if (index == 0) {
    for (std::size_t k = 0; k < first_programs && k < pool.size(); ++k) chosen.push_back(k);
  } else {
    for (const std::size_t k : seen) {
      if (random.uniform01() < options.keep_share) chosen.push_back(k);
    }
    for (const std::size_t k : seen) {  // at least three programs a batch
      if (chosen.size() >= 3) break;
      if (std::find(chosen.begin(), chosen.end(), k) == chosen.end()) chosen.push_back(k);
    }
    if (random.uniform01() < options.new_share && seen.size() < pool.size()) chosen.push_back(seen.size());
  }
  RecurringBatch drawn;
  for (const std::size_t k : chosen) {
    seen.insert(k);
    drawn.kind.push_back(k);
    drawn.batch.programs.push_back(pool[k]);
    for (int copy = 0; copy < 3; ++copy) {
      const double factor = std::array{0.5, 1.0, 2.0}[random.index(3)];
      drawn.batch.tasks.push_back({fmt::format("k{}-{}-{}", k, pool[k].family, copy), drawn.batch.programs.size() - 1,
                                   factor * study.production_work});
    }
  }
  return drawn;
}

// What one node owner's cosched knows, and how it plans a batch with it (the mirror of profiler::learn_batch and
// workflow/src/batch_plan.cpp's plan_batch; the study has no process to run, so the loop is restated here with the
// library's strategy, fits and planners, and the file each rule comes from).
struct ExhaustiveReference {
  const Fits& fits;
  const sim::LaunchPlan& plan;  // on the truth
};

class Owner {
 public:
  Owner(const StudyOptions& study, const ProfilingSetup& setup, Planner& planner, RowRules rules)
      : study_(study), setup_(setup), planner_(planner), rules_(rules) {}

  // Plans `drawn`, runs the plan on the truth with noise, keeps every task's observed time; fills the outcome.
  // `reference`: the exhaustive knowledge and its plan on the truth, for the diagnosis (null: none).
  void run_batch(const RecurringBatch& drawn, const sched::Instance& truth, std::uint64_t seed,
                 RecurringOutcome& outcome, const ExhaustiveReference* reference = nullptr) {
    const Batch& batch = drawn.batch;
    std::set<std::size_t> kinds(drawn.kind.begin(), drawn.kind.end());
    for (const std::size_t kind : kinds) outcome.new_kinds += evidence_[kind].empty() ? 1 : 0;
    outcome.tasks = batch.tasks.size();
    std::vector<std::shared_ptr<const knowledge::FittedTask>> fits = fit_all(drawn);
    knowledge::NormalDraws noise(seed + 17);
    ProfilingLedger ledger;
    runs_now_.clear();
    counts_before_.clear();
    for (const std::size_t kind : kinds) counts_before_[kind] = core_counts(kind);

    sched::Schedule schedule;
    first_runs_spent_ = 0.0;
    const bool nothing_known = outcome.new_kinds == kinds.size();
    if (rules_.first_short_runs && (nothing_known || rules_.first_short_new)) {
      first_short_runs(drawn, fits, noise, ledger);
    }
    if (std::none_of(fits.begin(), fits.end(), [](const auto& fit) { return fit != nullptr; })) {
      // batch_plan.cpp: nothing known, the naive way (its guessed times: one second each).
      schedule = naive_schedule(instance_of(drawn, fits), sched::file_order(batch.tasks.size()),
                                sched::naive_cores(setup_.node.cores, batch.tasks.size()));
      outcome.naive = true;
    } else {
      outcome.profiling_wall = first_runs_spent_;  // the first short runs, if any: one after the other
      const bool alone = rules_.first_short_alone && first_runs_spent_ > 0.0;
      if (!alone && (outcome.new_kinds == 0 || rules_.price_unknown)) {
        measure_within_budget(drawn, fits, noise, ledger, outcome);
      }
      schedule = chosen_plan(drawn, fits);
      // batch_plan.cpp: a list plan of predictions launches greedily; a pack plan keeps its packs.
      if (std::none_of(schedule.tasks.begin(), schedule.tasks.end(),
                       [](const sched::ScheduledTask& task) { return task.pack >= 0; })) {
        schedule.launch_rule = "greedy";
      }
    }
    if (rules_.explore) {
      const sched::Schedule unexplored = schedule;
      outcome.explored = explore(drawn, fits, schedule);
      if (outcome.explored > 0) {
        outcome.unexplored_makespan = makespan_of(on_truth(sim::plan_from_schedule(truth, unexplored), truth));
      }
    }
    const sim::LaunchPlan plan = sim::plan_from_schedule(truth, schedule);
    // What a run is observed to take over what it took: the launch's node noise and the run's own.
    knowledge::NormalDraws observed(seed + 29);
    const double node_factor = std::exp(study_.launch_noise * observed.next());
    std::vector<double> run_factor;
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) run_factor.push_back(std::exp(study_.noise * observed.next()));
    // What a run of task j at `alloc` is observed to take (from its time, not the clock's end - start, which differs
    // in the last bits).
    const auto observed_seconds = [&](std::size_t j, const std::vector<int>& alloc) {
      return truth.time(j, alloc) * node_factor * run_factor[j];
    };
    std::optional<LearningLaunch> learning;
    if (rules_.learn_in_launch && !outcome.naive) learning.emplace(launch_learning(drawn, fits, observed_seconds));
    const sim::EngineResult launched = launch_simulated(
        plan, [&](std::size_t j, const std::vector<int>& amounts) { return truth.time(j, amounts); },
        learning ? &*learning : nullptr);
    outcome.makespan = launched.observed_makespan;
    outcome.relearnt = learning ? learning->replans() : 0;
    outcome.runs = ledger.runs();
    outcome.profiling_serial = ledger.serial_seconds();
    if (reference != nullptr && !outcome.naive) diagnose(drawn, truth, fits, plan, *reference, outcome);

    // workflow/src/batch_plan.cpp learn_from_launch: every task's observed time (here no co-runner slows it:
    // the truth has no contention, so de-contending is the identity) joins its kind's runs.
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      const std::vector<int>& ran = launched.runs[j].grant.amounts;
      evidence_[kind_of(drawn, j)].push_back({ran[0], ran[1], batch.tasks[j].work, observed_seconds(j, ran)});
    }
  }

 private:
  [[nodiscard]] std::size_t kind_of(const RecurringBatch& drawn, std::size_t task) const {
    return drawn.kind[drawn.batch.tasks[task].program];
  }

  [[nodiscard]] knowledge::TaskWork work_of(double amount) const {
    knowledge::TaskWork work{amount, {}};
    for (const double profiling : setup_.profiling_work) {
      if (profiling < amount) work.profiling.push_back(profiling);
    }
    return work;
  }

  // learning.cpp fit_kind: each task's fit at its amount from every run of its kind; none when it cannot be fitted.
  // A core count explored by one task was run at one amount of work: the fit carries it to this task's amount by
  // the fixed cost separated at other counts, or in proportion when none was (task_fit.hpp), less surely.
  // `learnt`: runs of its kind the launch observed, not yet kept (launch_learning.hpp).
  std::shared_ptr<const knowledge::FittedTask> fit_task(const RecurringBatch& drawn, std::size_t j,
                                                        const std::vector<knowledge::Measurement>& learnt = {}) {
    const std::vector<knowledge::Measurement>* kept = &evidence_[kind_of(drawn, j)];
    std::vector<knowledge::Measurement> with_learnt;  // a copy only when the launch learnt runs (rarely)
    if (!learnt.empty()) {
      with_learnt = *kept;
      with_learnt.insert(with_learnt.end(), learnt.begin(), learnt.end());
      kept = &with_learnt;
    }
    const std::vector<knowledge::Measurement>& runs = *kept;
    if (runs.empty()) return nullptr;
    try {
      return std::make_shared<const knowledge::FittedTask>(setup_.node, work_of(drawn.batch.tasks[j].work), runs,
                                                           setup_.fit);
    } catch (const InputError&) {
      return nullptr;  // no fit: the task runs on one core at the guess
    }
  }
  // The launch's learning (launch_learning.hpp) from the fits the plan was made from.
  LearningLaunch launch_learning(const RecurringBatch& drawn, const Fits& fits,
                                 std::function<double(std::size_t, const std::vector<int>&)> observed) {
    LaunchLearning setup;
    for (std::size_t j = 0; j < drawn.batch.tasks.size(); ++j) {
      setup.kind.push_back(kind_of(drawn, j));
      setup.work.push_back(drawn.batch.tasks[j].work);
    }
    setup.fits = fits;
    setup.observed = std::move(observed);
    setup.refit = [this, &drawn](std::size_t j, const std::vector<knowledge::Measurement>& learnt) {
      return fit_task(drawn, j, learnt);
    };
    setup.instance = [this, &drawn](const std::vector<std::size_t>& tasks, const Fits& some,
                                    const knowledge::TimeChoice& times) {
      RecurringBatch part{{drawn.batch.programs, {}}, drawn.kind};
      for (const std::size_t j : tasks) part.batch.tasks.push_back(drawn.batch.tasks[j]);
      return instance_of(part, some, times);
    };
    setup.plan = [this](const sched::Instance& instance) { return planner_.schedule(instance); };
    return LearningLaunch(std::move(setup));
  }
  std::vector<std::shared_ptr<const knowledge::FittedTask>> fit_all(const RecurringBatch& drawn) {
    std::vector<std::shared_ptr<const knowledge::FittedTask>> fits;
    for (std::size_t j = 0; j < drawn.batch.tasks.size(); ++j) fits.push_back(fit_task(drawn, j));
    return fits;
  }

  // learning.cpp knowledge_instance: a fitted task at its fit's medians; one never measured on one core only, at
  // the median of the fitted tasks' one-core times (one second when none is fitted).
  static double guess_of(const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits) {
    std::vector<double> known;
    for (const auto& fit : fits) {
      if (fit) known.push_back(fit->at(1, 0).seconds);
    }
    if (known.empty()) return 1.0;
    std::nth_element(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(known.size() / 2), known.end());
    return known[known.size() / 2];
  }
  sched::Instance instance_of(const RecurringBatch& drawn,
                              const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits,
                              const knowledge::TimeChoice& choice = knowledge::kMedianTimes) const {
    const double guess = guess_of(fits);
    const sched::AllocationSpace space({setup_.node.cores, setup_.node.fast_chunks});
    std::vector<std::shared_ptr<const sched::TimeProfile>> profiles;
    for (const auto& fit : fits) {
      if (fit) {
        profiles.push_back(fit->profile(choice));
        continue;
      }
      std::vector<double> times(space.size(), std::numeric_limits<double>::infinity());
      for (const int cores : {1, sched::naive_cores(setup_.node.cores, drawn.batch.tasks.size())}) {
        times[space.index_of(std::vector<int>{cores, 0})] = guess;  // learning.cpp knowledge_instance
      }
      profiles.push_back(std::make_shared<const sched::DenseTimeTable>(space, std::move(times)));
    }
    return bench::instance_of(drawn.batch, setup_.node, profiles);
  }

  // batch_plan.cpp: a plan chosen on the fits' expected times, predicted on their medians.
  sched::Schedule chosen_plan(const RecurringBatch& drawn, const Fits& fits,
                              const std::string& algorithm = "model-search") {
    return sched::retimed(instance_of(drawn, fits),
                          planner_.schedule(instance_of(drawn, fits, knowledge::kExpectedTimes), algorithm));
  }
  // learning.cpp plan_known: that plan's makespan on the medians as it launches (greedily: its starts were planned
  // on the longer times).
  double predicted_makespan(const RecurringBatch& drawn, const Fits& fits, sched::Schedule schedule) {
    schedule.launch_rule = "greedy";
    return sim::predict(sim::plan_from_schedule(instance_of(drawn, fits), schedule), "auto").observed_makespan;
  }

  struct KnownPlan {
    double makespan = 0.0;
    std::map<std::size_t, knowledge::PlannedAllocation> allocation;  // by kind: where its largest task is
  };
  // learning.cpp plan_known.
  KnownPlan plan_known(const RecurringBatch& drawn,
                       const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits) {
    const sched::Schedule schedule = chosen_plan(drawn, fits, kLearningPlanner);
    KnownPlan known{predicted_makespan(drawn, fits, schedule), {}};
    std::map<std::size_t, double> largest;
    for (std::size_t j = 0; j < drawn.batch.tasks.size(); ++j) {
      const std::size_t kind = kind_of(drawn, j);
      if (drawn.batch.tasks[j].work <= largest[kind]) continue;
      largest[kind] = drawn.batch.tasks[j].work;
      known.allocation[kind] = {schedule.tasks[j].alloc[0], schedule.tasks[j].alloc[1]};
    }
    return known;
  }

  // learning.cpp learn_batch's loop, step by step: the strategy's runs, the kinds that weigh most (one-core time of
  // their tasks) first, each run only when its cost fits what is left of the budget (10 % of the predicted
  // makespan, once every kind is known), at most `repetitions` runs of one point; re-planned when a kind's runs
  // come in pairs. measure_within_budget takes the steps one run after the other (as cosched run profiles);
  // profile_packed (packed_profiling.hpp) side by side.
  class BudgetLearner final : public LearningSteps {
   public:
    BudgetLearner(Owner& owner, const RecurringBatch& drawn, Fits& fits)
        : owner_(owner), drawn_(drawn), fits_(fits), kinds_(drawn.kind), plan_(owner.plan_known(drawn, fits)),
          done_(kinds_.size(), false), measured_now_(kinds_.size(), 0) {
      budget_ = share() * (owner_.rules_.budget_from_run_plan
                               ? owner_.predicted_makespan(drawn, fits, owner_.chosen_plan(drawn, fits))
                               : plan_.makespan);
      const bool all_known = std::all_of(fits.begin(), fits.end(), [](const auto& fit) { return fit != nullptr; });
      for (std::size_t k = 0; k < kinds_.size(); ++k) known_before_.push_back(fits_[tasks_of(k).front()] != nullptr);
      if (owner_.rules_.cap_at_saving) {
        const double cautious =
            owner_.planner_.schedule(owner_.instance_of(drawn, fits, knowledge::cautious_times(1.0)), kLearningPlanner)
                .makespan;
        const double may_save = std::max(0.0, cautious - plan_.makespan);
        // learning.cpp: with every kind known the budget; beside kinds never run, what the known kinds' runs spend.
        if (all_known) budget_ = std::min(budget_, may_save);
        else known_cap_ = may_save;
      }
    }

    [[nodiscard]] std::size_t kinds() const override { return kinds_.size(); }
    [[nodiscard]] double budget() const override { return budget_; }
    [[nodiscard]] const TruthProgram& program(std::size_t k) const override {
      return drawn_.batch.programs[drawn_.batch.tasks[tasks_of(k).front()].program];
    }

    [[nodiscard]] std::vector<std::size_t> order() override {
      std::vector<std::size_t> order(kinds_.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      if (owner_.rules_.breadth_first) {
        // A kind's speed-up first: never run, then run at one core count (its fit over cores a guess), then by weight.
        const auto rank = [&](std::size_t k) { return std::min<std::size_t>(owner_.core_counts(kinds_[k]), 2); };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
          const std::size_t ra = rank(a), rb = rank(b);
          if (ra != rb) return ra < rb;
          return weight(a) > weight(b);
        });
      } else {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weight(a) > weight(b); });
      }
      return order;
    }

    [[nodiscard]] std::optional<knowledge::PlannedRun> next_run(std::size_t k) override {
      if (done_[k]) return std::nullopt;
      const std::vector<std::size_t> tasks = tasks_of(k);
      std::size_t largest = tasks.front();
      for (const std::size_t j : tasks) largest = drawn_.batch.tasks[j].work > drawn_.batch.tasks[largest].work ? j : largest;
      knowledge::StrategyInput input;
      input.node = owner_.setup_.node;
      input.work = owner_.work_of(drawn_.batch.tasks[largest].work);
      input.known = owner_.evidence_[kinds_[k]];
      input.fit = fits_[largest].get();
      input.planned = plan_.allocation.at(kinds_[k]);
      input.options = strategy_options_;
      const std::vector<knowledge::PlannedRun> runs = strategy_.next_runs(input);
      if (runs.empty()) {
        done_[k] = true;
        return std::nullopt;
      }
      knowledge::PlannedRun run = runs.front();
      if (owner_.rules_.widest_first) {
        // Packed, a whole-node run waits for the node to empty: offered first, it runs before the node fills, and
        // a kind the budget leaves half measured has its widest point rather than only its narrow ones.
        run = *std::max_element(runs.begin(), runs.end(),
                                [](const knowledge::PlannedRun& a, const knowledge::PlannedRun& b) {
                                  return a.cores < b.cores;
                                });
      }
      if (std::isnan(run.estimated_seconds) && owner_.rules_.price_unknown) {
        // learning.cpp: a kind never run is priced as one more task of the batch (the guess of
        // knowledge_instance), its run's share of the work of its largest task — a short run of a kind that
        // says how its work scales costs a small part of a production run whatever its speed-up.
        run.estimated_seconds = guess_of(fits_) * run.work / drawn_.batch.tasks[largest].work;
      }
      if (repeats_[{k, run.cores, run.fast_chunks, run.work}] >= std::max(1, strategy_options_.repetitions)) {
        done_[k] = true;
        return std::nullopt;
      }
      if (known_before_[k] && run.estimated_seconds > known_cap_ - spent_on_known_) {
        run.estimated_seconds = std::numeric_limits<double>::infinity();  // more than the known kinds may spend
      }
      return run;
    }

    void started(std::size_t k, const knowledge::PlannedRun& run) override {
      ++repeats_[{k, run.cores, run.fast_chunks, run.work}];
    }

    void finished(std::size_t k, const knowledge::PlannedRun& run, double seconds) override {
      if (known_before_[k]) spent_on_known_ += seconds;
      owner_.runs_now_.push_back({kinds_[k], run.cores, run.fast_chunks, run.work, seconds, false});
      owner_.evidence_[kinds_[k]].push_back({run.cores, run.fast_chunks, run.work, seconds});
      ++measured_now_[k];
      const std::vector<std::size_t> tasks = tasks_of(k);
      const bool was_known = fits_[tasks.front()] != nullptr;
      for (const std::size_t j : tasks) fits_[j] = owner_.fit_task(drawn_, j);
      if (!was_known || measured_now_[k] % 2 == 0) {
        plan_ = owner_.plan_known(drawn_, fits_);
        if (owner_.rules_.budget_follows_plan) budget_ = share() * plan_.makespan;
      }
    }

   private:
    [[nodiscard]] double share() const { return owner_.setup_.budget_share * owner_.rules_.budget_scale; }
    [[nodiscard]] std::vector<std::size_t> tasks_of(std::size_t k) const {
      std::vector<std::size_t> tasks;
      for (std::size_t j = 0; j < drawn_.batch.tasks.size(); ++j) {
        if (owner_.kind_of(drawn_, j) == kinds_[k]) tasks.push_back(j);
      }
      return tasks;
    }
    [[nodiscard]] double weight(std::size_t k) const {
      double total = 0.0;
      // learning.cpp: a kind never run comes first (weighed as its guessed tasks, it came after the known kinds
      // had spent the budget, and its tasks still ran on one core: the study's first try).
      const double unknown = owner_.rules_.price_unknown ? std::numeric_limits<double>::infinity() : 0.0;
      for (const std::size_t j : tasks_of(k)) total += fits_[j] ? fits_[j]->at(1, 0).seconds : unknown;
      return total;
    }

    Owner& owner_;
    const RecurringBatch& drawn_;
    Fits& fits_;
    const knowledge::MeasurementStrategy& strategy_ = knowledge::find_measurement_strategy("adaptive");
    const knowledge::StrategyOptions strategy_options_;
    std::vector<std::size_t> kinds_;
    KnownPlan plan_;
    double budget_ = 0.0;
    std::vector<bool> known_before_;  // kinds with a fit when the budget was set
    double known_cap_ = std::numeric_limits<double>::infinity();  // what their runs may spend
    double spent_on_known_ = 0.0;
    std::vector<bool> done_;
    std::vector<int> measured_now_;
    std::map<std::tuple<std::size_t, int, int, double>, int> repeats_;
  };

  // learning.cpp choose_first_runs: each kind never run whose first short runs (knowledge::first_short_runs) take
  // at most kFirstRunsShare of its tasks' work is measured by them, the kinds with the most tasks first
  // (first_short_all false: only the first of them); the batch then has a plan, and its budget a scale (what they
  // cost is spent from it).
  static constexpr double kFirstRunsShare = 0.05;  // profiler::ProfileBudget::first_runs_share
  void first_short_runs(const RecurringBatch& drawn, Fits& fits, knowledge::NormalDraws& noise,
                        ProfilingLedger& ledger) {
    struct Chosen {
      std::size_t program;
      std::vector<knowledge::PlannedRun> runs;
      std::size_t tasks;
    };
    std::vector<Chosen> chosen;
    for (std::size_t p = 0; p < drawn.batch.programs.size(); ++p) {
      double total = 0.0, largest = 0.0;
      std::size_t tasks = 0;
      bool known = false;  // learning.cpp: a kind with a fit is known
      for (std::size_t j = 0; j < drawn.batch.tasks.size(); ++j) {
        const BatchTask& task = drawn.batch.tasks[j];
        if (task.program != p) continue;
        known = known || fits[j] != nullptr;
        total += task.work;
        largest = std::max(largest, task.work);
        ++tasks;
      }
      if (known) continue;
      knowledge::StrategyInput input;
      input.node = setup_.node;
      input.work = work_of(largest);
      std::vector<knowledge::PlannedRun> runs =
          knowledge::first_short_runs(knowledge::find_measurement_strategy("adaptive"), input);
      if (runs.empty() || runs[0].work + runs[1].work > kFirstRunsShare * total) continue;
      chosen.push_back({p, std::move(runs), tasks});
    }
    std::stable_sort(chosen.begin(), chosen.end(), [](const Chosen& a, const Chosen& b) { return a.tasks > b.tasks; });
    const std::size_t measured = rules_.first_short_all ? chosen.size() : std::min<std::size_t>(chosen.size(), 1);
    for (std::size_t i = 0; i < measured; ++i) {
      const std::size_t kind = drawn.kind[chosen[i].program];
      for (const knowledge::PlannedRun& run : chosen[i].runs) {
        const double seconds = measure(drawn.batch.programs[chosen[i].program], run, setup_.noise, noise);
        ledger.add(run, seconds);
        first_runs_spent_ += seconds;
        runs_now_.push_back({kind, run.cores, run.fast_chunks, run.work, seconds, false});
        evidence_[kind].push_back({run.cores, run.fast_chunks, run.work, seconds});
      }
    }
    fits = fit_all(drawn);
  }

  // The budget's runs: side by side for the packed rows (the budget in wall seconds), else one after the other,
  // each run's observed seconds spent from the budget.
  void measure_within_budget(const RecurringBatch& drawn, Fits& fits, knowledge::NormalDraws& noise,
                             ProfilingLedger& ledger, RecurringOutcome& outcome) {
    BudgetLearner learner(*this, drawn, fits);
    outcome.budget = learner.budget();
    if (rules_.packed) {
      const PackedProfiling packed =
          profile_packed(learner, setup_.node, {rules_.disturbance, rules_.saturating_share}, setup_.noise,
                         noise, ledger);
      outcome.profiling_wall = first_runs_spent_ + packed.wall;  // (its budget does not count the first short runs)
      outcome.most_stretch = packed.most_stretch;
      outcome.peak_demand = packed.peak_demand;
      return;
    }
    double spent = first_runs_spent_;
    while (learner.budget() - spent > 0.0) {
      const double remaining = learner.budget() - spent;
      std::optional<std::pair<std::size_t, knowledge::PlannedRun>> next;
      for (const std::size_t k : learner.order()) {
        const std::optional<knowledge::PlannedRun> run = learner.next_run(k);
        if (!run || std::isnan(run->estimated_seconds) || run->estimated_seconds > remaining) continue;
        next.emplace(k, *run);
        break;
      }
      if (!next) break;
      const auto& [k, run] = *next;
      learner.started(k, run);
      const double seconds = measure(learner.program(k), run, setup_.noise, noise);
      spent += seconds;
      ledger.add(run, seconds);
      learner.finished(k, run, seconds);
    }
    outcome.profiling_wall = spent;
  }

  // The exploring rows: cosched run's rule (knowledge::explorable_task, sim::slack_exploration_options and
  // sim::explore_in_slack, as profiler::exploration_options calls them with its store; the study does not link the
  // profiler) — per task of a fitted kind, more fast chunks at its planned cores, and more cores at its planned fast
  // chunks while its fit over cores stands on one core count, to amounts its kind never ran at, each at its fit's
  // time one predictive sd up. A move is taken when the plan's predicted makespan holds on those cautious times.
  std::size_t explore(const RecurringBatch& drawn, const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits,
                      sched::Schedule& schedule) {
    const sched::Instance instance = instance_of(drawn, fits);
    std::vector<sim::ExplorableTask> tasks;
    for (std::size_t j = 0; j < drawn.batch.tasks.size(); ++j) {
      if (!fits[j]) continue;  // a kind never run: a guess on one core, nothing to weigh a move with
      const std::size_t kind = kind_of(drawn, j);
      const auto ran_at = [this, kind](int cores, int chunks) {
        const std::vector<knowledge::Measurement>& runs = evidence_[kind];
        return std::any_of(runs.begin(), runs.end(), [&](const knowledge::Measurement& m) {
          return m.cores == cores && m.fast_chunks == chunks;
        });
      };
      tasks.push_back(knowledge::explorable_task(j, kind, *fits[j], instance.dimensions() > 1, ran_at));
    }
    return sim::explore_in_slack(instance, schedule, sim::slack_exploration_options(instance, schedule, tasks))
        .steps.size();
  }

  // The plan run_batch makes from `fits` (not the naive one), on the truth.
  double makespan_planned_with(const RecurringBatch& drawn, const sched::Instance& truth,
                               const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits) {
    sched::Schedule schedule = chosen_plan(drawn, fits);
    if (std::none_of(schedule.tasks.begin(), schedule.tasks.end(),
                     [](const sched::ScheduledTask& task) { return task.pack >= 0; })) {
      schedule.launch_rule = "greedy";
    }
    if (rules_.explore) explore(drawn, fits, schedule);
    return makespan_of(on_truth(sim::plan_from_schedule(truth, schedule), truth));
  }

  void diagnose(const RecurringBatch& drawn, const sched::Instance& truth,
                const std::vector<std::shared_ptr<const knowledge::FittedTask>>& fits, const sim::LaunchPlan& plan,
                const ExhaustiveReference& reference, RecurringOutcome& outcome) {
    const sim::LaunchPlan ran = on_truth(plan, truth);
    const sim::EngineResult timeline = sim::predict_contention(ran, "auto");
    const double guess = guess_of(fits);
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      TaskDiagnosis d;
      d.task = j;
      d.kind = kind_of(drawn, j);
      d.family = drawn.batch.programs[drawn.batch.tasks[j].program].family;
      d.work = drawn.batch.tasks[j].work;
      d.guessed = fits[j] == nullptr;
      d.cores = plan.tasks[j].demand[0];
      d.chunks = plan.tasks[j].demand[1];
      const double nan = std::numeric_limits<double>::quiet_NaN();
      const knowledge::CurvePoint at_plan =
          fits[j] ? fits[j]->at(d.cores, d.chunks) : knowledge::CurvePoint{guess, nan};
      d.predicted = at_plan.seconds;
      d.predicted_log_sd = at_plan.log_sd;
      d.truth = truth.time(j, plan.tasks[j].demand);
      d.exhaustive_cores = reference.plan.tasks[j].demand[0];
      d.exhaustive_chunks = reference.plan.tasks[j].demand[1];
      d.exhaustive_truth = truth.time(j, reference.plan.tasks[j].demand);
      const knowledge::CurvePoint at_exhaustive =
          fits[j] ? fits[j]->at(d.exhaustive_cores, d.exhaustive_chunks) : knowledge::CurvePoint{nan, nan};
      d.fit_at_exhaustive = at_exhaustive.seconds;
      d.fit_at_exhaustive_log_sd = at_exhaustive.log_sd;
      d.start = timeline.runs.size() > j ? timeline.runs[j].launch.start : 0.0;
      d.counts_before = counts_before_[d.kind];
      d.counts_planned = core_counts(d.kind);
      outcome.task_diagnosis.push_back(d);
    }
    for (RunDiagnosis run : runs_now_) {
      for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
        run.used = run.used || (kind_of(drawn, j) == run.kind && plan.tasks[j].demand[0] == run.cores &&
                                plan.tasks[j].demand[1] == run.chunks);
      }
      outcome.profiling.push_back(run);
    }
    std::set<std::size_t> kinds(drawn.kind.begin(), drawn.kind.end());
    std::vector<std::shared_ptr<const knowledge::FittedTask>> all = fits;
    for (const std::size_t kind : kinds) {
      std::vector<std::shared_ptr<const knowledge::FittedTask>> swapped = fits;
      std::string family;
      for (std::size_t j = 0; j < swapped.size(); ++j) {
        if (kind_of(drawn, j) != kind) continue;
        swapped[j] = reference.fits[j];
        all[j] = reference.fits[j];
        family = drawn.batch.programs[drawn.batch.tasks[j].program].family;
      }
      outcome.kinds.push_back({kind, family, makespan_planned_with(drawn, truth, swapped)});
    }
    outcome.makespan_all_exhaustive = makespan_planned_with(drawn, truth, all);
    const sched::Instance medians = instance_of(drawn, fits);
    const sched::Instance expected = instance_of(drawn, fits, knowledge::kExpectedTimes);
    outcome.plan_on_fits = makespan_of(on_truth(plan, medians));
    outcome.exhaustive_plan_on_fits = makespan_of(on_truth(reference.plan, medians));
    outcome.plan_on_expected = makespan_of(on_truth(plan, expected));
    outcome.exhaustive_plan_on_expected = makespan_of(on_truth(reference.plan, expected));
  }

  [[nodiscard]] std::size_t core_counts(std::size_t kind) {
    std::set<int> counts;
    for (const knowledge::Measurement& m : evidence_[kind]) {
      if (m.fast_chunks == 0) counts.insert(m.cores);
    }
    return counts.size();
  }

  std::vector<RunDiagnosis> runs_now_;
  std::map<std::size_t, std::size_t> counts_before_;
  const StudyOptions& study_;
  const ProfilingSetup& setup_;
  Planner& planner_;
  RowRules rules_;
  Evidence evidence_;
  double first_runs_spent_ = 0.0;  // the first short runs of the batch's kinds never run, spent from its budget
};

}  // namespace

std::vector<RecurringOutcome> run_recurring(const StudyOptions& study, const RecurringOptions& options,
                                            const std::function<void(const std::string&)>& progress) {
  check_study_options(study);
  if (options.sequences == 0 || options.batches == 0) throw UsageError("sequences and batches must be >= 1");
  for (const std::string& row : options.rows) {
    const auto named = [&](const std::vector<std::string>& rows) {
      return std::find(rows.begin(), rows.end(), row) != rows.end();
    };
    if (!named(recurring_rows()) && !named(recurring_extra_rows())) {
      throw UsageError(fmt::format("unknown recurring row '{}' (rows: {}, {})", row, fmt::join(recurring_rows(), ", "),
                                   fmt::join(recurring_extra_rows(), ", ")));
    }
  }
  std::vector<RecurringOutcome> outcomes;
  Planner planner{study};
  for (std::size_t n = 0; n < study_nodes().size(); ++n) {
    const StudyNode& node = study_nodes()[n];
    if (!study.nodes.empty() && std::find(study.nodes.begin(), study.nodes.end(), node.name) == study.nodes.end()) {
      continue;
    }
    const ProfilingSetup setup{node.shape, study.noise, study.profiling_work, study.budget_share, {}};
    for (std::size_t s = 0; s < options.sequences; ++s) {
      const std::uint64_t owner_seed = sched::instance_seed(study.seed, 50000 + n * 1000 + s);
      std::vector<TruthProgram> pool;
      for (std::size_t k = 0; k < node.programs + options.batches; ++k) {
        const std::string& family = truth_families()[(k + s) % truth_families().size()];
        pool.push_back(draw_program(family, node.shape, study.production_work, sched::instance_seed(owner_seed, k)));
      }
      sched::Random random(owner_seed);
      std::set<std::size_t> seen;
      std::vector<Owner> owners;
      const std::vector<std::string>& rows = options.rows.empty() ? recurring_rows() : options.rows;
      for (const std::string& row : rows) owners.emplace_back(study, setup, planner, rules_of(row));
      for (std::size_t b = 0; b < options.batches; ++b) {
        const RecurringBatch drawn = draw_recurring(pool, node.programs, b, seen, random, study, options);
        const sched::Instance truth = true_instance(drawn.batch, node.shape);
        const std::uint64_t seed = sched::instance_seed(owner_seed, 1000 + b);
        const double oracle = makespan_of(on_truth(planner.plan(truth), truth));
        knowledge::NormalDraws noise(seed + 41);
        const Knowledge exhaustive = profile_batch("exhaustive", drawn.batch, setup, noise, {});
        const sim::LaunchPlan exhaustive_plan =
            on_truth(plan_of(planner, drawn.batch, node.shape, exhaustive.fits, knowledge::kExpectedTimes), truth);
        const double exhaustive_makespan = makespan_of(exhaustive_plan);
        const ExhaustiveReference reference{exhaustive.fits, exhaustive_plan};
        const auto [naive_makespan, naive_way] = best_naive(truth, makespan_of);
        for (std::size_t r = 0; r < owners.size(); ++r) {
          RecurringOutcome outcome;
          outcome.node = node.name;
          outcome.sequence = s;
          outcome.batch = b;
          outcome.row = rows[r];
          owners[r].run_batch(drawn, truth, seed, outcome, options.diagnose ? &reference : nullptr);
          outcome.exhaustive_makespan = exhaustive_makespan;
          outcome.oracle_makespan = oracle;
          outcome.naive_makespan = naive_makespan;
          outcome.naive_way = naive_way;
          outcomes.push_back(outcome);
        }
        if (progress) {
          progress(fmt::format("{} owner {}/{} batch {}/{} done", node.name, s + 1, options.sequences, b + 1,
                               options.batches));
        }
      }
    }
  }
  if (progress && planner.stopped_by_budget > 0) {
    progress(fmt::format("note: {} of {} model-search plans stopped at the planner budget (--planner-budget-ms): "
                         "those are not reproducible bit for bit",
                         planner.stopped_by_budget, planner.searches));
  }
  return outcomes;
}

}  // namespace cosched::bench
