#include "cosched/sim/online_report.hpp"

#include <fmt/core.h>

#include "cosched/online/swf.hpp"
#include "cosched/sim/online.hpp"

namespace cosched::sim {

namespace online = cosched::online;

online::OnlineMetrics online_run_metrics(const LaunchPlan& plan, const EngineResult& result,
                                         std::span<const std::size_t> campaign_of) {
  online::OnlineMetrics metrics = run_metrics(plan, result);
  if (!campaign_of.empty()) {
    online::add_campaign_metrics(metrics, *plan.online, job_outcomes(result), campaign_of);
  }
  return metrics;
}

nlohmann::json online_run_json(const online::OnlineMetrics& metrics, const online::OnlineWorkload& workload,
                               const OnlineRunInfo& info) {
  nlohmann::json root = online::to_json(metrics);
  root["policy"] = info.policy;
  root["workload"] = workload.source;
  root["clock"] = info.clock;
  root["replay"] = info.replay.mode;
  root["replay_followers"] = info.replay.followers;
  root["options"] = {{"rho", info.options.rho},
                     {"reserve", info.options.reserve},
                     {"threshold", info.options.threshold}};
  if (!info.campaign_rule.empty()) root["campaign_rule"] = info.campaign_rule;
  if (!info.from.empty()) root["from"] = info.from;
  if (!info.to.empty()) root["to"] = info.to;
  return root;
}

std::string format_online_run(const online::OnlineMetrics& metrics, const online::OnlineWorkload& workload,
                              const OnlineRunInfo& info) {
  const ReplaySummary& replay = info.replay;
  std::string text = fmt::format("{} ({} clock): {} jobs on {} {}, load {:.1f}; policy {}\n", workload.source,
                                 info.clock, metrics.jobs, metrics.procs, workload.instance.resources().front().name,
                                 metrics.load, info.policy);
  text += fmt::format("  completed       {}\n", metrics.completed);
  text += fmt::format("  replay          {}: {} jobs released after earlier work of their user, the rest as logged\n",
                      replay.mode, replay.followers);
  text += fmt::format("  max stretch     {:.4g}\n  mean stretch    {:.4g}\n", metrics.max_stretch,
                      metrics.mean_stretch);
  text += fmt::format("  max flow        {:.6g} s\n  mean flow       {:.6g} s\n", metrics.max_flow, metrics.mean_flow);
  text += fmt::format("  utilization     {:.3f}\n  makespan        {:.6g} s\n", metrics.utilization,
                      metrics.makespan);
  text += fmt::format("  scheduling      {:.3f} s over {} events ({:.1f} us per event, longest call {:.3f} ms)\n",
                      metrics.scheduling_seconds, metrics.events, metrics.scheduling_seconds_per_event * 1e6,
                      metrics.scheduling_max_seconds * 1e3);
  text += "  stretch > 1 by job size:";
  for (const auto& bin : metrics.fairness) {
    if (bin.jobs == 0) continue;
    const double percent = 100.0 * static_cast<double>(bin.stretched) / static_cast<double>(bin.jobs);
    text += fmt::format(" {} {:.1f}% of {}", bin.label, percent, bin.jobs);
  }
  text += fmt::format("\n  ({})\n", online::stretch_normalisation());
  if (metrics.campaigns == 0) return text;
  text += fmt::format(
      "  campaigns       {} of {} users: mean stretch {:.4g} ({:.4g} without the {} above {:g}), max {:.4g}; "
      "at 1 {:.1f}%, < 1.4 {:.1f}%, < 2.15 {:.1f}%; Jain's index over users {:.3f}\n  ({})\n",
      metrics.campaigns, metrics.users, metrics.mean_campaign_stretch, metrics.mean_campaign_stretch_without_outliers,
      metrics.campaign_outliers, online::kCampaignOutlierStretch, metrics.max_campaign_stretch,
      100.0 * metrics.campaigns_at_stretch_1, 100.0 * metrics.campaigns_below_1_4, 100.0 * metrics.campaigns_below_2_15,
      metrics.jain_fairness, online::campaign_stretch_normalisation());
  return text;
}

std::string online_schedule_swf(const std::vector<online::JobRecord>& records, const LaunchPlan& plan,
                                const OnlineRunInfo& info) {
  std::vector<std::string> header{
      fmt::format(" Note: the {} schedule of {} under the online policy {} ({} replay), written by cosched "
                  "online; job number k is row k of the jobs CSV (the workload's k-th job)",
                  info.clock, plan.online->source, info.policy, info.replay.mode)};
  return online::to_swf(online::swf_of_jobs(records, plan.capacities.front(), std::move(header)));
}

}  // namespace cosched::sim
