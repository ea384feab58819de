// `cosched online`'s runs (cosched/workflow/online_run.hpp): the node workload, the released plan, the outputs.
#include "cosched/workflow/online_run.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "cosched/common/error.hpp"
#include "cosched/exec/workload_file.hpp"
#include "cosched/online/jobs_csv.hpp"
#include "cosched/online/workload.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/launcher/run_report.hpp"

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

namespace {

void report_metrics(const OnlineCommandOptions& options, const OnlineRunReport& report, Reporter& reporter) {
  reporter.result({"online-metrics", options.json ? report.json() : report.text(),
                   sim::online_run_json(report.metrics, *report.workload, report.info)});
}

void run_on_node(const OnlineCommandOptions& options, const OnlineNodeWorkload& workload, const RunNode& node,
                 Reporter& reporter) {
  sim::ReplaySummary replay;
  const sim::LaunchPlan plan = online_replay_plan(options, workload.jobs, replay);
  launcher::LaunchSettings settings = launch_settings(
      options.run, node, std::filesystem::path(options.workload).replace_extension(".online.journal.jsonl"));
  settings.policy = options.policy;
  settings.schedule_source = fmt::format("online policy {}, replay {}", options.policy, options.replay);
  settings.workload_source = options.workload;
  if (!options.metrics_out.empty()) check_output_path(options.metrics_out, options.overwrite, "online metrics");
  reporter.note(fmt::format("running {} jobs of {} as they are released ({} policy) on {}; journal {}",
                            plan.tasks.size(), options.workload, options.policy, node.description(),
                            settings.journal.string()));
  const launcher::LaunchSummary summary = launch_on_node(plan, workload.commands, settings, &reporter);
  report_metrics(options, record_online_run(options, summary.plan, summary.observed, "wall", replay), reporter);
  reporter.result({"launch-summary", launcher::format_summary(summary), launcher::run_comparison_json(summary)});
  require_completed(summary, {"resume with --resume " + settings.journal.string(),
                              fmt::format(" (see {})", settings.journal.string())});
}

}  // namespace

void run_online(const OnlineCommandOptions& options, Reporter& reporter) {
  std::vector<CommandOutput> outputs;
  if (!options.metrics_out.empty()) outputs.push_back({options.metrics_out, "online metrics"});
  if (!options.jobs_out.empty()) outputs.push_back({options.jobs_out, "jobs CSV"});
  if (!options.swf_out.empty()) outputs.push_back({options.swf_out, "SWF schedule"});
  check_output_paths(outputs, options.overwrite);
  if (!options.workload.empty()) {
    const RunNode node = run_node(options.run);
    const OnlineNodeWorkload workload = read_online_node_workload(options.workload, node.platform_file);
    if (options.launch) return run_on_node(options, workload, node, reporter);
    report_metrics(options, simulate_online_run(options, workload.jobs), reporter);
    return;
  }
  auto workload = std::make_shared<const online::OnlineWorkload>(online::workload_from_source(options.source));
  report_metrics(options, simulate_online_run(options, std::move(workload)), reporter);
}

}  // namespace cosched::workflow
