#pragma once
// What an online run achieved (seed 000, Sec. 4 and 7): max and mean stretch — flow time over the job's reference
// time, which for moldable jobs is the *sequential* time p_{i,1} (OnlineWorkload::reference_time), so a stretch can
// be below 1 — max and mean flow time, utilisation of the first resource, the workload's load, and the fairness
// histogram of Fig. 3(e): the share of jobs with stretch > 1 in each size bin (seconds ... weeks, by reference
// time); with campaigns (seed 002), the campaign stretch and its fairness between users. One record, one JSON
// writer, shared by `cosched online` and the bench scripts.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "cosched/online/workload.hpp"

namespace cosched::online {

struct JobOutcome {
  bool completed = false;
  // When the job was released in the run: its arrival's release in an open-loop replay, earlier or later in a
  // closed-loop one (flow and stretch count from it).
  double release = 0.0;
  double start = 0.0;
  double end = 0.0;
  std::vector<int> alloc;
};

struct FairnessBin {
  std::string label;            // "seconds", "minutes", "hours", "days", "weeks"
  double reference_below = 0;   // the bin holds reference times in [previous bound, this)
  std::size_t jobs = 0;
  std::size_t stretched = 0;    // jobs with stretch > 1
};

// One user's campaigns (seed 002): how many completed, their mean, median (the paper's Fig. 9) and largest
// campaign stretch.
struct UserCampaignStretch {
  std::string user;  // "" for jobs without a user
  std::size_t campaigns = 0;
  double mean_stretch = 0.0;
  double max_stretch = 0.0;
  double median_stretch = 0.0;
};

struct OnlineMetrics {
  std::size_t jobs = 0;
  std::size_t completed = 0;
  int procs = 0;                 // capacity of the first resource
  double load = 0.0;             // workload_load
  double max_stretch = 0.0;
  double mean_stretch = 0.0;
  double max_flow = 0.0;
  double mean_flow = 0.0;
  double utilization = 0.0;      // busy first-resource time / (procs x (last end - first release))
  double makespan = 0.0;         // last end - first release
  std::vector<FairnessBin> fairness;
  // Filled by the caller, who timed the policy: seconds in the policy over the run, per event, and the longest call.
  double scheduling_seconds = 0.0;
  double scheduling_seconds_per_event = 0.0;
  double scheduling_max_seconds = 0.0;
  std::size_t events = 0;
  // Campaigns (seed 002), filled by add_campaign_metrics; all 0 / empty when no campaigns were given. Over the
  // campaigns whose jobs all completed (campaign_stretch_normalisation says how a campaign's stretch is computed).
  std::size_t campaigns = 0;
  std::size_t users = 0;                      // users with at least one such campaign
  double mean_campaign_stretch = 0.0;
  double max_campaign_stretch = 0.0;
  double campaigns_at_stretch_1 = 0.0;        // share with stretch == 1 (within 1e-9)
  double campaigns_below_1_4 = 0.0;           // share with stretch < 1.4
  double campaigns_below_2_15 = 0.0;          // share with stretch < 2.15
  double jain_fairness = 0.0;                 // Jain's index over the users' mean campaign stretch
  // The paper's headline mean (seed 002, Sec. VI): over the campaigns with stretch <= kCampaignOutlierStretch, and
  // how many were left out.
  double mean_campaign_stretch_without_outliers = 0.0;
  std::size_t campaign_outliers = 0;
  // The campaign stretch at 0, 1, ..., 100 % of the campaigns (its distribution, Fig. 5/6).
  std::vector<double> campaign_stretch_percentiles;
  std::vector<UserCampaignStretch> per_user;  // by user name
};

// Metrics over the completed jobs (outcomes indexed like the workload's jobs): an OnlineMetricsFold fed every
// outcome in job order.
[[nodiscard]] OnlineMetrics online_metrics(const OnlineWorkload& workload, std::span<const JobOutcome> outcomes);

// The metrics folded one job at a time, in job order, without a vector of outcomes: at 10^7 jobs that vector alone
// was ~90 bytes per job of fresh memory (issue 25). Every sum is accumulated in the same order as online_metrics
// accumulates it, so both give the same metrics to the bit (online_metrics is this fold).
class OnlineMetricsFold {
 public:
  explicit OnlineMetricsFold(const OnlineWorkload& workload);
  // The next job (job = 0, 1, ... in turn) did not complete; it was released at `release` in the run.
  void not_completed(std::size_t job, double release);
  // The next job completed: released at `release`, ran from `start` to `end` on `first_resource` units of the
  // first resource.
  void completed(std::size_t job, double release, double start, double end, int first_resource);
  // The metrics once every job was folded (checks that every job was).
  [[nodiscard]] OnlineMetrics finish();

 private:
  void next(std::size_t job, double release);

  const OnlineWorkload& workload_;
  OnlineMetrics metrics_;
  std::size_t next_job_ = 0;
  double first_release_;
  double last_end_ = 0.0;
  double busy_ = 0.0;
  double stretch_sum_ = 0.0;
  double flow_sum_ = 0.0;
};

// The sentence every output carries about how stretch is normalised.
[[nodiscard]] std::string_view stretch_normalisation() noexcept;

// The campaign metrics of `metrics` from the outcomes, `campaign_of` giving each job's campaign (indexed like the
// workload's jobs; campaigns.hpp). Jain's index of x_1..x_n is (sum x)^2 / (n sum x^2): 1 when every user has the
// same mean campaign stretch, 1/n when one user has it all.
void add_campaign_metrics(OnlineMetrics& metrics, const OnlineWorkload& workload,
                          std::span<const JobOutcome> outcomes, std::span<const std::size_t> campaign_of);

// Seed 002 removes campaigns with stretch > 1000 from its means ("outliers", < 4 % of the campaigns).
inline constexpr double kCampaignOutlierStretch = 1000.0;

// The sentence outputs with campaigns carry about how a campaign's stretch is normalised.
[[nodiscard]] std::string_view campaign_stretch_normalisation() noexcept;

[[nodiscard]] nlohmann::json to_json(const OnlineMetrics& metrics);

}  // namespace cosched::online
