#include "cosched/sched/online/metrics.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

#include "cosched/sched/online/policy.hpp"

namespace cosched::sched::online {

namespace {

struct BinBound {
  std::string_view label;
  double below;
};

// Fig. 3(e)'s size classes.
constexpr std::array<BinBound, 5> kBins{{{"seconds", 60.0},
                                         {"minutes", 3600.0},
                                         {"hours", 86400.0},
                                         {"days", 7 * 86400.0},
                                         {"weeks", std::numeric_limits<double>::infinity()}}};

}  // namespace

std::string_view stretch_normalisation() noexcept {
  return "stretch = (completion - release) / reference time: the sequential time p_i,1 for sequential and moldable "
         "jobs (Saule et al., Sec. 5), the runtime at its processor count for a rigid job";
}

OnlineMetrics online_metrics(const OnlineWorkload& workload, std::span<const JobOutcome> outcomes) {
  assert(outcomes.size() == workload.arrivals.size());
  OnlineMetrics metrics;
  metrics.jobs = outcomes.size();
  metrics.procs = workload.instance.resources().front().capacity;
  metrics.load = workload_load(workload);
  for (const auto& bin : kBins) metrics.fairness.push_back({std::string(bin.label), bin.below, 0, 0});
  double first_release = std::numeric_limits<double>::infinity();
  double last_end = 0.0;
  double busy = 0.0;
  double stretch_sum = 0.0;
  double flow_sum = 0.0;
  for (std::size_t j = 0; j < outcomes.size(); ++j) {
    const JobOutcome& outcome = outcomes[j];
    first_release = std::min(first_release, outcome.release);
    if (!outcome.completed) continue;
    ++metrics.completed;
    const double flow = outcome.end - outcome.release;
    const double stretch = flow / workload.reference_time[j];
    metrics.max_stretch = std::max(metrics.max_stretch, stretch);
    metrics.max_flow = std::max(metrics.max_flow, flow);
    stretch_sum += stretch;
    flow_sum += flow;
    last_end = std::max(last_end, outcome.end);
    busy += static_cast<double>(outcome.alloc.front()) * (outcome.end - outcome.start);
    const auto bin = std::find_if(metrics.fairness.begin(), metrics.fairness.end(), [&](const FairnessBin& b) {
      return workload.reference_time[j] < b.reference_below;
    });
    ++bin->jobs;
    if (stretch > 1.0) ++bin->stretched;
  }
  if (metrics.completed == 0) return metrics;
  const auto completed = static_cast<double>(metrics.completed);
  metrics.mean_stretch = stretch_sum / completed;
  metrics.mean_flow = flow_sum / completed;
  metrics.makespan = last_end - first_release;
  if (metrics.makespan > 0.0) metrics.utilization = busy / (metrics.procs * metrics.makespan);
  return metrics;
}

nlohmann::json to_json(const OnlineMetrics& metrics) {
  nlohmann::json fairness = nlohmann::json::array();
  for (const FairnessBin& bin : metrics.fairness) {
    fairness.push_back({{"bin", bin.label},
                        {"jobs", bin.jobs},
                        {"stretch_above_1", bin.stretched},
                        {"share", bin.jobs > 0 ? static_cast<double>(bin.stretched) / static_cast<double>(bin.jobs)
                                               : 0.0}});
  }
  nlohmann::json root{{"jobs", metrics.jobs},
                      {"completed", metrics.completed},
                      {"procs", metrics.procs},
                      {"load", metrics.load},
                      {"max_stretch", metrics.max_stretch},
                      {"mean_stretch", metrics.mean_stretch},
                      {"max_flow", metrics.max_flow},
                      {"mean_flow", metrics.mean_flow},
                      {"utilization", metrics.utilization},
                      {"makespan", metrics.makespan},
                      {"fairness", fairness},
                      {"stretch_normalisation", stretch_normalisation()},
                      {"scheduling_seconds", metrics.scheduling_seconds},
                      {"scheduling_seconds_per_event", metrics.scheduling_seconds_per_event},
                      {"scheduling_max_seconds", metrics.scheduling_max_seconds},
                      {"events", metrics.events}};
  if (metrics.campaigns == 0) return root;
  nlohmann::json per_user = nlohmann::json::array();
  for (const UserCampaignStretch& user : metrics.per_user) {
    per_user.push_back({{"user", user.user},
                        {"campaigns", user.campaigns},
                        {"mean_campaign_stretch", user.mean_stretch},
                        {"max_campaign_stretch", user.max_stretch},
                        {"median_campaign_stretch", user.median_stretch}});
  }
  root["campaigns"] = metrics.campaigns;
  root["users"] = metrics.users;
  root["mean_campaign_stretch"] = metrics.mean_campaign_stretch;
  root["max_campaign_stretch"] = metrics.max_campaign_stretch;
  root["campaigns_at_stretch_1"] = metrics.campaigns_at_stretch_1;
  root["campaigns_below_1_4"] = metrics.campaigns_below_1_4;
  root["campaigns_below_2_15"] = metrics.campaigns_below_2_15;
  root["jain_fairness"] = metrics.jain_fairness;
  root["mean_campaign_stretch_without_outliers"] = metrics.mean_campaign_stretch_without_outliers;
  root["campaign_outliers"] = metrics.campaign_outliers;
  root["campaign_outlier_stretch"] = kCampaignOutlierStretch;
  root["campaign_stretch_percentiles"] = metrics.campaign_stretch_percentiles;
  root["per_user"] = per_user;
  root["campaign_stretch_normalisation"] = campaign_stretch_normalisation();
  return root;
}

}  // namespace cosched::sched::online
