// `cosched online`'s runs (cosched/workflow/online_run.hpp): the node workload, the released plan, the outputs.
#include "cosched/workflow/online_run.hpp"

#include <fmt/core.h>

#include <utility>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/workload.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"

namespace cosched::workflow {

namespace online = cosched::online;

OnlineNodeWorkload read_online_node_workload(const std::string& path,
                                             const std::optional<config::PlatformConfig>& platform_file) {
  const exec::WorkloadFile file = exec::read_workload_file(path, platform_file);
  if (!file.instance) {
    throw UsageError(fmt::format("--workload {}: an online node workload is an Instance JSON (`cosched instance` of a "
                                 "profiled workload whose tasks carry release_s)",
                                 path));
  }
  return {std::make_shared<const online::OnlineWorkload>(online::online_workload_from_instance(*file.instance, path)),
          file.workload};
}

sim::LaunchPlan online_replay_plan(const OnlineRunOptions& options,
                                   std::shared_ptr<const online::OnlineWorkload> workload,
                                   sim::ReplaySummary& replay) {
  const std::vector<std::size_t> campaigns = online::campaigns_of(*workload, options.campaigns);
  sim::LaunchPlan plan = sim::online_plan(std::move(workload), options.options);
  replay = sim::apply_replay(plan, options.replay, campaigns);
  return plan;
}

std::string OnlineRunReport::json() const { return sim::online_run_json(metrics, *workload, info).dump(2) + "\n"; }

std::string OnlineRunReport::text() const { return sim::format_online_run(metrics, *workload, info); }

OnlineRunReport record_online_run(const OnlineRunOptions& options, const sim::LaunchPlan& plan,
                                  const sim::EngineResult& result, std::string_view clock,
                                  const sim::ReplaySummary& replay) {
  const std::vector<std::size_t> campaigns = online::campaigns_of(*plan.online, options.campaigns);
  OnlineRunReport report{plan.online,
                         sim::online_run_metrics(plan, result, campaigns),
                         {options.policy, options.options, std::string(clock), replay, options.campaigns,
                          options.source.from, options.source.to}};
  if (!options.jobs_out.empty() || !options.swf_out.empty()) {
    const std::vector<online::JobRecord> records = sim::job_records(plan, result, campaigns);
    if (!options.jobs_out.empty()) {
      write_text_file(options.jobs_out, online::to_jobs_csv(records), options.overwrite, "jobs CSV");
    }
    if (!options.swf_out.empty()) {
      write_text_file(options.swf_out, sim::online_schedule_swf(records, plan, report.info), options.overwrite,
                      "SWF schedule");
    }
  }
  if (!options.metrics_out.empty()) {
    write_text_file(options.metrics_out, report.json(), options.overwrite, "online metrics");
  }
  return report;
}

OnlineRunReport simulate_online_run(const OnlineRunOptions& options,
                                    std::shared_ptr<const online::OnlineWorkload> workload) {
  sim::ReplaySummary replay;
  const sim::LaunchPlan plan = online_replay_plan(options, std::move(workload), replay);
  return record_online_run(options, plan, sim::predict(plan, options.policy), "simulated", replay);
}

}  // namespace cosched::workflow
