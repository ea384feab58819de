// The log's own schedule (seed 002, Sec. VI: OStrich is compared with the schedule the trace records, not with a
// simulated FCFS). Every job starts at its logged start — submit + wait in the SWF log — at its reference
// allocation (shifted by as much as its release moved, in a closed-loop replay); when the machine given is smaller
// than the log's, or a job ran longer in the replay than logged, a job whose logged start has passed starts as soon
// as it fits, in logged-start order. On the log's own machine the replay reproduces the log: its flows are the
// logged wait + run times, and a closed-loop replay releases every job at its logged time.
#include <fmt/format.h>

#include <queue>
#include <set>
#include <utility>

#include "cosched/common/error.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online::policies {

namespace {

using LoggedStart = std::pair<double, std::size_t>;  // (logged start, job): ordered by start, then job index

class LoggedPolicy final : public OnlinePolicy {
 public:
  explicit LoggedPolicy(SharedJobs jobs) : jobs_(std::move(jobs)) {}
  [[nodiscard]] std::string_view name() const override { return "logged"; }

  // A job released later than logged (a closed-loop replay) starts as much later: it keeps its logged wait.
  void released(std::size_t job, const OnlineState& state) override {
    const JobArrival& arrival = jobs_->workload().arrivals[job];
    upcoming_.emplace(*arrival.logged_start + (state.release(job) - arrival.release), job);
  }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    while (!upcoming_.empty() && upcoming_.top().first <= state.now) {
      due_.insert(upcoming_.top());
      upcoming_.pop();
    }
    std::vector<int> free(state.free.begin(), state.free.end());
    std::vector<Placement> placements;
    for (auto it = due_.begin(); it != due_.end();) {
      const std::size_t job = it->second;
      if (!fits(jobs_->demand(job), free)) {
        ++it;
        continue;
      }
      take(free, jobs_->demand(job));
      placements.push_back(jobs_->placement(job, state.now));
      it = due_.erase(it);
    }
    return placements;
  }

  [[nodiscard]] std::optional<double> next_wakeup() const override {
    if (upcoming_.empty()) return std::nullopt;
    return upcoming_.top().first;
  }

 private:
  SharedJobs jobs_;
  // Released jobs whose logged start is still ahead, earliest first; and those whose logged start has passed but
  // that did not fit yet.
  std::priority_queue<LoggedStart, std::vector<LoggedStart>, std::greater<>> upcoming_;
  std::set<LoggedStart> due_;
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_logged(SharedJobs jobs) {
  const OnlineWorkload& workload = jobs->workload();
  for (std::size_t job = 0; job < workload.arrivals.size(); ++job) {
    if (!workload.arrivals[job].logged_start) {
      throw UsageError(fmt::format(
          "the policy logged replays the start times a trace records, and job \"{}\" of {} has no logged start (an "
          "SWF log with wait times is needed)",
          workload.instance.tasks()[job].id, workload.source));
    }
  }
  return std::make_unique<LoggedPolicy>(std::move(jobs));
}

}  // namespace cosched::online::policies
