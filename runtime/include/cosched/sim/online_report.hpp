#pragma once
// What an online run reports (`cosched online`, docs/online.md): its metrics — with the campaigns' when there are
// campaigns — as the online metrics JSON with the run's context, as the text a person reads, and its schedule as an
// SWF log. The command line prints or writes these; a library user gets the same outputs.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/metrics.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replay.hpp"

namespace cosched::sim {

// The context of a run, as the outputs name it.
struct OnlineRunInfo {
  std::string policy;
  online::OnlineOptions options;
  std::string clock;  // "simulated" (a prediction or a trace replay) or "wall" (a run on this node)
  ReplaySummary replay;
  std::string campaign_rule;  // as given (--campaigns); empty: none
  std::string from;           // the trace window's dates as given (--from, --to); empty: no edge
  std::string to;
};

// run_metrics, with add_campaign_metrics when `campaign_of` (one campaign id per job) is not empty.
[[nodiscard]] online::OnlineMetrics online_run_metrics(const LaunchPlan& plan, const EngineResult& result,
                                                              std::span<const std::size_t> campaign_of);

// The online metrics JSON (online::to_json) with the policy, workload, clock, replay, the policy options and
// the campaign rule and dates when given.
[[nodiscard]] nlohmann::json online_run_json(const online::OnlineMetrics& metrics,
                                             const online::OnlineWorkload& workload, const OnlineRunInfo& info);

// The metrics as lines for a person: jobs, stretch, flow, utilization, scheduling time, fairness by job size and,
// with campaigns, the campaign stretch.
[[nodiscard]] std::string format_online_run(const online::OnlineMetrics& metrics,
                                            const online::OnlineWorkload& workload, const OnlineRunInfo& info);

// The schedule of an online plan's run as an SWF log (online::swf_of_jobs, to_swf) with a header note that
// says which run it is; job number k is the k-th record.
[[nodiscard]] std::string online_schedule_swf(const std::vector<online::JobRecord>& records,
                                              const LaunchPlan& plan, const OnlineRunInfo& info);

}  // namespace cosched::sim
