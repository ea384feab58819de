#include "cosched/sim/engine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <cstdint>
#include <deque>
#include <stdexcept>

#include "cosched/common/error.hpp"
#include "cosched/common/invariant.hpp"
#include "sim/release_queue.hpp"

namespace cosched::sim {

std::string_view to_string(TaskStatus status) noexcept {
  switch (status) {
    case TaskStatus::ok: return "ok";
    case TaskStatus::failed: return "failed";
    case TaskStatus::timeout: return "timeout";
    case TaskStatus::killed: return "killed";
  }
  return "failed";
}

std::optional<TaskStatus> parse_task_status(std::string_view text) noexcept {
  for (TaskStatus status : {TaskStatus::ok, TaskStatus::failed, TaskStatus::timeout, TaskStatus::killed}) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

namespace {

// The run of one batch: the ledger of what runs on which resources, and the event handlers.
class EngineRun {
 public:
  EngineRun(const LaunchPlan& plan, Policy& policy, Clock& clock, sim::ResourcePool& pool, EngineObserver* observer,
            const EngineOptions& options)
      : plan_(plan),
        policy_(policy),
        clock_(clock),
        pool_(pool),
        observer_(observer),
        options_(options),
        releases_(plan) {
    result_.runs.resize(plan.tasks.size());
    result_.peak_in_use.assign(plan.dimensions(), 0);
    in_use_.assign(plan.dimensions(), 0);
    available_ = pool_.available();
    if (pool_.capacities() != plan.capacities) {
      throw UsageError(fmt::format("the resource pool has capacities [{}], the plan [{}]",
                                   fmt::join(pool_.capacities(), ", "), fmt::join(plan.capacities, ", ")));
    }
    // Every task waits until its release has come (ReleaseQueue: in release order, ties in plan order).
    for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
      result_.runs[j].state = TaskState::waiting;
      result_.runs[j].release = plan.tasks[j].release;
    }
    waiting_ = plan.tasks.size();
  }

  EngineResult run() {
    std::size_t unfinished = plan_.tasks.size();
    while (unfinished > 0) {
      // One time for the whole round: on the wall clock time moves between two reads, and a policy asked what to
      // start at one moment and when to wake at a later one could see a planned start come in between — neither
      // "start it now" nor "wake me then": the batch would be taken for stuck (it happened to a demo run).
      now_ = clock_.now();
      if (clock_.stop_requested() && !halted_) {
        result_.interrupted = true;
        halt();
        drain();
      }
      if (!halted_) release_due();
      bool refused = false;
      // A task that fails to launch ends at once and frees its resources: ask the policy again.
      for (std::size_t ended = SIZE_MAX; !halted_ && ended != finished_;) {
        ended = finished_;
        refused = start_selected();
      }
      std::optional<double> wake_at;
      if (!halted_) {
        wake_at = policy_.next_wakeup(view());
        if (const auto release = next_release(); release && (!wake_at || *release < *wake_at)) wake_at = release;
      }
      if (running_ == 0) {
        if (halted_ || pending_ + waiting_ == 0) break;
        if (!wake_at) {
          throw RuntimeFailure(fmt::format(
              "{} tasks pending, none running and the '{}' policy starts none{}: the plan cannot finish", pending_,
              policy_.name(), refused ? " (its choices did not fit the free resources)" : ""));
        }
      }
      for (const Completion& completion : clock_.wait(wake_at)) queue_.push_back(completion);
      drain();
      unfinished = running_ + (halted_ ? 0 : pending_ + waiting_);
    }
    result_.not_started = pending_ + waiting_;
    return std::move(result_);
  }

 private:
  [[nodiscard]] EngineView view() { return EngineView{plan_, result_.runs, available_, now_}; }

  // Times one call into the policy (what `cosched online` reports as the scheduling time).
  template <typename Call>
  auto timed(Call&& call) {
    const auto begin = std::chrono::steady_clock::now();
    auto finally = [&] {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      result_.policy_seconds += seconds;
      result_.policy_max_seconds = std::max(result_.policy_max_seconds, seconds);
    };
    if constexpr (std::is_void_v<decltype(call())>) {
      call();
      finally();
    } else {
      auto value = call();
      finally();
      return value;
    }
  }

  // Shows the policy every task whose release has come (up to the rounding of has_come in policies/fits.hpp).
  void release_due() {
    while (const auto due = releases_.take_due(now_)) {
      TaskRun& run = result_.runs[due->task];
      run.state = TaskState::pending;
      run.release = due->release;
      --waiting_;
      ++pending_;
      ++result_.events;
      timed([&] { policy_.released(due->task, view()); });
    }
  }

  [[nodiscard]] std::optional<double> next_release() const { return releases_.next(); }

  // Starts what the policy selects; returns true when one of its choices was refused.
  bool start_selected() {
    bool refused = false;
    for (const StartChoice& choice : timed([&] { return policy_.select(view()); })) {
      // Checked in Release too: a task started twice would leave the pending count wrapped, and the loop that waits
      // for it to reach zero would never end.
      check_invariant(choice.task < result_.runs.size() && result_.runs[choice.task].state == TaskState::pending,
                      "a policy selected a task that is not pending");
      if (!start(choice.task, choice.demand)) refused = true;
      drain();  // a launch that failed at once ends at once
      if (halted_) break;
    }
    return refused;
  }

  bool start(std::size_t task, const std::vector<int>& demand) {
    TaskRun& run = result_.runs[task];
    if (demand.size() != plan_.dimensions()) {
      throw std::logic_error(fmt::format("policy '{}' chose {} amounts for task {} on {} resource types",
                                         policy_.name(), demand.size(), plan_.tasks[task].id, plan_.dimensions()));
    }
    try {
      run.grant = pool_.acquire(demand);
    } catch (const ResourceError& e) {
      const std::string why = fmt::format("task {}: {}", plan_.tasks[task].id, e.what());
      result_.overcommit_refusals.push_back(why);
      if (observer_ != nullptr) observer_->overcommit_refused(task, why);
      return false;
    }
    for (std::size_t i = 0; i < demand.size(); ++i) {
      in_use_[i] += demand[i];
      // The pool granted, so the engine's own ledger must agree; if not, the pool over-committed: a bug that
      // must not go unnoticed in a release build either.
      if (in_use_[i] > plan_.capacities[i]) {
        throw std::logic_error(fmt::format("over-commit: {} {} in use, capacity {} (task {})", in_use_[i],
                                           plan_.resource_names[i], plan_.capacities[i], plan_.tasks[task].id));
      }
      result_.peak_in_use[i] = std::max(result_.peak_in_use[i], in_use_[i]);
    }
    available_ = pool_.available();
    run.state = TaskState::running;
    --pending_;
    ++running_;
    run.launch = clock_.launch(task, run.grant);
    policy_.started(task, run);
    if (observer_ != nullptr) observer_->task_started(task, run);
    if (run.launch.error) {
      queue_.push_back(Completion{task, run.launch.start, TaskStatus::failed, -1, 0, *run.launch.error});
    }
    return true;
  }

  void drain() {
    while (!queue_.empty()) {
      const Completion completion = queue_.front();
      queue_.pop_front();
      finish(completion);
    }
  }

  void finish(const Completion& completion) {
    TaskRun& run = result_.runs[completion.task];
    check_invariant(run.state == TaskState::running, "a completion for a task that is not running");
    run.completion = completion;
    run.state = TaskState::done;
    --running_;
    ++finished_;
    ++result_.events;
    pool_.release(run.grant);
    const auto& demand = run.grant.amounts;
    for (std::size_t i = 0; i < demand.size(); ++i) in_use_[i] -= demand[i];
    available_ = pool_.available();
    result_.observed_makespan = std::max(result_.observed_makespan, completion.end);
    releases_.ended(completion.task, completion.end);
    switch (completion.status) {
      case TaskStatus::ok: ++result_.completed; break;
      case TaskStatus::failed:
      case TaskStatus::timeout: ++result_.failed; break;
      case TaskStatus::killed: ++result_.killed; break;
    }
    policy_.ended(completion.task, run);
    if (observer_ != nullptr) observer_->task_ended(completion.task, run);
    const bool failed = completion.status == TaskStatus::failed || completion.status == TaskStatus::timeout;
    if (failed && options_.fail_fast && !halted_) {
      result_.stopped_by_failure = true;
      halt();
    }
  }

  // Stops the batch: nothing new starts, running tasks are ended (their completions are queued).
  void halt() {
    halted_ = true;
    for (const Completion& completion : clock_.stop_running()) queue_.push_back(completion);
  }

  const LaunchPlan& plan_;
  Policy& policy_;
  Clock& clock_;
  sim::ResourcePool& pool_;
  EngineObserver* observer_;
  EngineOptions options_;
  EngineResult result_;
  std::vector<int> in_use_;
  std::vector<int> available_;
  std::deque<Completion> queue_;
  ReleaseQueue releases_;
  std::size_t waiting_ = 0;        // not released yet
  std::size_t pending_ = 0;        // released, not started
  std::size_t running_ = 0;
  std::size_t finished_ = 0;
  bool halted_ = false;
  double now_ = 0.0;  // the round's time: one read of the clock per round of run()
};

}  // namespace

EngineResult run_engine(const LaunchPlan& plan, Policy& policy, Clock& clock, sim::ResourcePool& pool,
                        EngineObserver* observer, const EngineOptions& options) {
  return EngineRun(plan, policy, clock, pool, observer, options).run();
}

}  // namespace cosched::sim
