// The OStrich real schedule R (seed 002, Sec. IV.A and VII; digest §2.2, §2.4) over the virtual schedule V of
// ostrich_virtual.cpp. Decisions where the paper leaves a choice:
//
// * Eligibility is strict (the worked example, digest §2.2 (a)): a campaign's jobs may start only once it has
//   started in V (σ̃ ≤ now) — a user never takes more than V grants, at the price of idle processors. Because no
//   release or completion marks that instant, the policy asks the engine to wake it at the next virtual completion
//   while a campaign is forming (next_wakeup).
// * Whenever processors are free, the eligible campaign with unstarted jobs and the smallest C̃ (the smallest V
//   level, the same order) starts its next job; ties go to the older campaign.
// * Inside a campaign, longest job first (LPT; ties: job index, i.e. release order). Every job of a campaign is
//   released by the time it is eligible, so release order would be arbitrary; LPT bounds the campaign's own
//   completion (Graham's 4/3) and leaves the short jobs to fill in at its end, where the last piece of Lemma 2 is.
// * Jobs run at their reference allocation; V counts a job's area on the first resource (processors × time: the
//   sequential time of a sequential job). A job that does not fit stops the dispatch until the next event (no
//   backfilling: it would give processors to a campaign V says is not due), so nothing is ever over-committed.
// * User "" (unknown) is one user.
#include <algorithm>
#include <queue>
#include <string>
#include <unordered_map>

#include "cosched/online/ostrich.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online {

namespace {

using policies::ReferenceJobs;

class OstrichPolicy final : public OnlinePolicy {
 public:
  explicit OstrichPolicy(const OnlineWorkload& workload)
      : jobs_(workload),
        virtual_(static_cast<double>(workload.instance.space().capacities().front())),
        campaign_of_(jobs_.size(), VirtualSchedule::kNone),
        started_(jobs_.size(), false) {}

  [[nodiscard]] std::string_view name() const override { return "ostrich"; }

  void released(std::size_t job, const OnlineState& state) override {
    virtual_.advance(state.now);
    adopt(job, state.now);
    queue_started();
  }

  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) override {
    virtual_.advance(state.now);
    if (state.pending.size() != waiting_) resynchronise(state);
    queue_started();
    std::vector<int> free(state.free.begin(), state.free.end());
    std::vector<Placement> placements;
    while (!due_.empty() && free.front() > 0) {
      const DueEntry top = due_.top();
      CampaignJobs& campaign = campaigns_[top.campaign];
      if (campaign.unstarted.empty() || top.level != virtual_.level(top.campaign)) {
        due_.pop();  // stale: exhausted, or re-queued at a new level
        continue;
      }
      const std::size_t job = campaign.unstarted.front().job;
      if (!policies::fits(jobs_.demand(job), free)) break;
      std::pop_heap(campaign.unstarted.begin(), campaign.unstarted.end());
      campaign.unstarted.pop_back();
      policies::take(free, jobs_.demand(job));
      started_[job] = true;
      --waiting_;
      placements.push_back(jobs_.placement(job, state.now));
    }
    return placements;
  }

  [[nodiscard]] std::optional<double> next_wakeup() const override {
    // A forming campaign becomes eligible when its user's running one completes in V.
    return virtual_.campaigns_forming() ? virtual_.next_completion() : std::nullopt;
  }

 private:
  struct QueuedJob {
    double time;
    std::size_t job;
    // A max-heap: the longest job on top, the earliest index first among equals.
    bool operator<(const QueuedJob& other) const {
      return time != other.time ? time < other.time : job > other.job;
    }
  };
  struct CampaignJobs {
    std::vector<QueuedJob> unstarted;  // a heap
  };
  struct DueEntry {
    double level;
    VirtualSchedule::Campaign campaign;
    bool operator>(const DueEntry& other) const {
      return level != other.level ? level > other.level : campaign > other.campaign;
    }
  };

  std::size_t user_index(const std::string& user) {
    return users_.try_emplace(user, users_.size()).first->second;
  }

  // `job` joins its user's campaign in V and waits in it.
  void adopt(std::size_t job, double now) {
    const double work = static_cast<double>(jobs_.demand(job).front()) * jobs_.time(job);
    const auto campaign = virtual_.submit(user_index(jobs_.workload().arrivals[job].user), work, now);
    campaign_of_[job] = campaign;
    if (campaign >= campaigns_.size()) campaigns_.resize(campaign + 1);
    enqueue(job);
    ++waiting_;
  }

  void enqueue(std::size_t job) {
    const auto campaign = campaign_of_[job];
    auto& unstarted = campaigns_[campaign].unstarted;
    unstarted.push_back({jobs_.time(job), job});
    std::push_heap(unstarted.begin(), unstarted.end());
    if (virtual_.started(campaign)) due_.push({virtual_.level(campaign), campaign});
  }

  // Campaigns that started in V (or changed level) are due in R from now on.
  void queue_started() {
    for (const auto campaign : virtual_.take_started()) {
      if (campaign < campaigns_.size() && !campaigns_[campaign].unstarted.empty()) {
        due_.push({virtual_.level(campaign), campaign});
      }
    }
  }

  // The pending jobs differ from this policy's view: jobs it never saw released (a resumed run; a state built by
  // hand) join their user's campaigns now, and jobs it started that the engine did not start wait again. Only
  // then is the O(pending) scan paid: the view is a subset of the pending jobs, so equal sizes mean equal sets.
  void resynchronise(const OnlineState& state) {
    for (const std::size_t job : state.pending) {
      if (campaign_of_[job] == VirtualSchedule::kNone) {
        adopt(job, state.now);
      } else if (started_[job]) {
        started_[job] = false;
        ++waiting_;
        enqueue(job);
      }
    }
  }

  ReferenceJobs jobs_;
  VirtualSchedule virtual_;
  std::unordered_map<std::string, std::size_t> users_;
  std::vector<VirtualSchedule::Campaign> campaign_of_;  // per job; kNone until released
  std::vector<bool> started_;                           // per job: this policy started it
  std::vector<CampaignJobs> campaigns_;                 // indexed like V's campaigns
  std::size_t waiting_ = 0;                             // released to this policy, not started by it
  std::priority_queue<DueEntry, std::vector<DueEntry>, std::greater<>> due_;  // eligible campaigns by level
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_ostrich(const OnlineWorkload& workload) {
  return std::make_unique<OstrichPolicy>(workload);
}

}  // namespace cosched::online
