#include "cosched/online/metrics.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>
#include <utility>

#include "cosched/common/invariant.hpp"
#include "cosched/online/policy.hpp"

namespace cosched::online {

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

OnlineMetricsFold::OnlineMetricsFold(const OnlineWorkload& workload)
    : workload_(workload), first_release_(std::numeric_limits<double>::infinity()) {
  metrics_.jobs = workload.arrivals.size();
  metrics_.procs = workload.instance.resources().front().capacity;
  metrics_.load = workload_load(workload);
  for (const auto& bin : kBins) metrics_.fairness.push_back({std::string(bin.label), bin.below, 0, 0});
}

void OnlineMetricsFold::next(std::size_t job, double release) {
  // Formatted only when it fails: this runs once per job.
  if (job != next_job_ || job >= metrics_.jobs) [[unlikely]] {
    check_invariant(false, fmt::format("metrics folded job {} where job {} of {} was due", job, next_job_,
                                       metrics_.jobs));
  }
  ++next_job_;
  first_release_ = std::min(first_release_, release);
}

void OnlineMetricsFold::not_completed(std::size_t job, double release) { next(job, release); }

void OnlineMetricsFold::completed(std::size_t job, double release, double start, double end, int first_resource) {
  next(job, release);
  ++metrics_.completed;
  const double reference = workload_.reference_time[job];
  const double flow = end - release;
  const double stretch = flow / reference;
  metrics_.max_stretch = std::max(metrics_.max_stretch, stretch);
  metrics_.max_flow = std::max(metrics_.max_flow, flow);
  stretch_sum_ += stretch;
  flow_sum_ += flow;
  last_end_ = std::max(last_end_, end);
  busy_ += static_cast<double>(first_resource) * (end - start);
  const auto bin = std::find_if(metrics_.fairness.begin(), metrics_.fairness.end(),
                                [&](const FairnessBin& b) { return reference < b.reference_below; });
  ++bin->jobs;
  if (stretch > 1.0) ++bin->stretched;
}

OnlineMetrics OnlineMetricsFold::finish() {
  check_invariant(next_job_ == metrics_.jobs,
                  fmt::format("metrics finished after {} of {} jobs", next_job_, metrics_.jobs));
  OnlineMetrics metrics = std::move(metrics_);
  if (metrics.completed == 0) return metrics;
  const auto completed = static_cast<double>(metrics.completed);
  metrics.mean_stretch = stretch_sum_ / completed;
  metrics.mean_flow = flow_sum_ / completed;
  metrics.makespan = last_end_ - first_release_;
  if (metrics.makespan > 0.0) metrics.utilization = busy_ / (metrics.procs * metrics.makespan);
  return metrics;
}

OnlineMetrics online_metrics(const OnlineWorkload& workload, std::span<const JobOutcome> outcomes) {
  assert(outcomes.size() == workload.arrivals.size());
  OnlineMetricsFold fold(workload);
  for (std::size_t j = 0; j < outcomes.size(); ++j) {
    const JobOutcome& outcome = outcomes[j];
    if (outcome.completed) {
      fold.completed(j, outcome.release, outcome.start, outcome.end, outcome.alloc.front());
    } else {
      fold.not_completed(j, outcome.release);
    }
  }
  return fold.finish();
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

}  // namespace cosched::online
