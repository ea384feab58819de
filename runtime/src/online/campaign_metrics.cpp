// Campaign stretch and fairness between users (seed 002, OStrich).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "cosched/common/stats.hpp"
#include "cosched/online/metrics.hpp"

namespace cosched::online {

namespace {

constexpr double kExactlyOne = 1e-9;

// What a campaign's jobs add up to: its first release, last completion, work, and the earliest its last job could
// end (at the jobs' reference allocations, so the normalisation does not depend on the policy).
struct CampaignTotals {
  std::string user;
  bool complete = true;
  double first_release = std::numeric_limits<double>::infinity();
  double last_end = 0.0;
  double work = 0.0;     // first-resource x seconds
  double latest_ready = 0.0;  // max over the jobs of release + reference time
};

double jain_index(const std::vector<double>& values) {
  double sum = 0.0;
  double squares = 0.0;
  for (const double value : values) {
    sum += value;
    squares += value * value;
  }
  if (values.empty() || !(squares > 0.0)) return 0.0;
  return sum * sum / (static_cast<double>(values.size()) * squares);
}

}  // namespace

std::string_view campaign_stretch_normalisation() noexcept {
  return "campaign stretch = (last completion - first release) / max(max over its jobs of (release + time) - first "
         "release, W / m): W the campaign's work (first-resource units x seconds at each job's reference "
         "allocation), m the first resource's capacity; with every job released together the first term is the "
         "longest job (the normalisation OStrich's proofs support); 1 = as fast as the whole machine could run it";
}

void add_campaign_metrics(OnlineMetrics& metrics, const OnlineWorkload& workload,
                          std::span<const JobOutcome> outcomes, std::span<const std::size_t> campaign_of) {
  assert(outcomes.size() == workload.arrivals.size() && campaign_of.size() == outcomes.size());
  const std::size_t count = campaign_of.empty() ? 0 : *std::max_element(campaign_of.begin(), campaign_of.end()) + 1;
  std::vector<CampaignTotals> totals(count);
  std::vector<int> alloc(workload.instance.space().dimensions());
  for (std::size_t j = 0; j < outcomes.size(); ++j) {
    CampaignTotals& campaign = totals[campaign_of[j]];
    campaign.user = workload.arrivals[j].user;
    campaign.complete = campaign.complete && outcomes[j].completed;
    campaign.first_release = std::min(campaign.first_release, outcomes[j].release);
    campaign.last_end = std::max(campaign.last_end, outcomes[j].end);
    workload.instance.space().decode(workload.reference_alloc[j], alloc);
    campaign.work += static_cast<double>(alloc.front()) * workload.reference_time[j];
    campaign.latest_ready = std::max(campaign.latest_ready, outcomes[j].release + workload.reference_time[j]);
  }
  const double procs = workload.instance.resources().front().capacity;
  std::map<std::string, std::vector<double>> by_user;
  std::size_t at_one = 0;
  std::size_t below_1_4 = 0;
  std::size_t below_2_15 = 0;
  double sum = 0.0;
  metrics.max_campaign_stretch = 0.0;
  for (const CampaignTotals& campaign : totals) {
    if (!campaign.complete || campaign.latest_ready <= 0.0) continue;  // unfinished (or an id no job uses)
    // Both terms bound the campaign's flow from below: its last-ready job cannot end before it is released and has
    // run, and its work needs W/m on the whole machine. Releases spread by the user are not the scheduler's doing.
    const double ideal = std::max(campaign.latest_ready - campaign.first_release, campaign.work / procs);
    const double stretch = (campaign.last_end - campaign.first_release) / ideal;
    by_user[campaign.user].push_back(stretch);
    sum += stretch;
    metrics.max_campaign_stretch = std::max(metrics.max_campaign_stretch, stretch);
    if (std::abs(stretch - 1.0) <= kExactlyOne) ++at_one;
    if (stretch < 1.4) ++below_1_4;
    if (stretch < 2.15) ++below_2_15;
  }
  std::size_t measured = 0;
  for (const auto& [user, stretches] : by_user) measured += stretches.size();
  metrics.campaigns = measured;
  metrics.users = by_user.size();
  metrics.per_user.clear();
  if (measured == 0) return;
  const auto share = [&](std::size_t n) { return static_cast<double>(n) / static_cast<double>(measured); };
  metrics.mean_campaign_stretch = sum / static_cast<double>(measured);
  metrics.campaigns_at_stretch_1 = share(at_one);
  metrics.campaigns_below_1_4 = share(below_1_4);
  metrics.campaigns_below_2_15 = share(below_2_15);
  std::vector<double> user_means;
  for (const auto& [user, stretches] : by_user) {
    const double mean = std::accumulate(stretches.begin(), stretches.end(), 0.0) / static_cast<double>(stretches.size());
    user_means.push_back(mean);
    metrics.per_user.push_back(
        {user, stretches.size(), mean, *std::max_element(stretches.begin(), stretches.end()), median(stretches)});
  }
  metrics.jain_fairness = jain_index(user_means);

  std::vector<double> all;
  for (const auto& [user, stretches] : by_user) all.insert(all.end(), stretches.begin(), stretches.end());
  std::sort(all.begin(), all.end());
  const auto kept = std::upper_bound(all.begin(), all.end(), kCampaignOutlierStretch);
  metrics.campaign_outliers = static_cast<std::size_t>(all.end() - kept);
  if (kept != all.begin()) {
    metrics.mean_campaign_stretch_without_outliers =
        std::accumulate(all.begin(), kept, 0.0) / static_cast<double>(kept - all.begin());
  }
  // Nearest rank: the percentile p is the value below which p % of the campaigns lie.
  metrics.campaign_stretch_percentiles.clear();
  for (int percent = 0; percent <= 100; ++percent) {
    const auto rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * static_cast<double>(all.size())));
    metrics.campaign_stretch_percentiles.push_back(all[rank == 0 ? 0 : rank - 1]);
  }
}

}  // namespace cosched::online
