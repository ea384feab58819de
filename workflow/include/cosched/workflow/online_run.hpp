#pragma once
// `cosched online`'s runs (seed 000, docs/online.md): jobs released over time and scheduled by an online policy —
// a trace or the paper's synthetic workload replayed on the simulated clock, a node workload predicted (simulated
// clock) or run for real on the launcher's wall clock. Here is what a run does besides printing: the node
// workload read, the plan released as the replay mode says, the prediction, and the files a run writes (metrics
// JSON, jobs CSV, SWF schedule) and, as one call, the whole run of `cosched online` (run_online).
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cosched/common/reporter.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/online/metrics.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/source.hpp"
#include "cosched/sim/engine.hpp"
#include "cosched/sim/online_report.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/sim/replay.hpp"
#include "cosched/workflow/node_launch.hpp"

namespace cosched::workflow {

struct OnlineRunOptions {
  std::string policy;                      // a registered online policy (online::online_policies)
  online::OnlineOptions options;    // its parameters (rho, reserve, threshold)
  online::OnlineSource source;      // a trace (with its window) or the synthetic workload
  std::string campaigns;                   // a campaign rule (online/campaigns.hpp); trace only
  std::string replay = "open";             // how jobs are released (sim::replay_modes)
  std::string metrics_out;                 // the metrics JSON to this file ("-": stdout); empty: not written
  std::string jobs_out;                    // one row per job, Batsim's _jobs.csv columns; empty: not written
  std::string swf_out;                     // the schedule as an SWF log; empty: not written
  Overwrite overwrite = Overwrite::refuse;  // whether those files replace existing ones
};

// A node workload: an Instance JSON whose tasks carry release_s, as online jobs, and what each task runs.
struct OnlineNodeWorkload {
  std::shared_ptr<const online::OnlineWorkload> jobs;
  config::Workload commands;
};

// Reads a node workload (exec::read_workload_file, with the platform file the run uses). Throws UsageError when
// the file is a workload TOML or JSON rather than an Instance JSON: an online node workload needs the profiled
// times.
[[nodiscard]] OnlineNodeWorkload read_online_node_workload(const std::string& path,
                                                           const std::optional<config::PlatformConfig>& platform_file);

// The online plan of `workload`, released as options.replay says (campaigns: the units a closed loop releases);
// `replay` receives what the release did, for the outputs.
[[nodiscard]] sim::LaunchPlan online_replay_plan(const OnlineRunOptions& options,
                                                 std::shared_ptr<const online::OnlineWorkload> workload,
                                                 sim::ReplaySummary& replay);

// A finished run as its outputs see it: the metrics (with the campaigns' when there are campaigns) and the run's
// context they are named with.
struct OnlineRunReport {
  std::shared_ptr<const online::OnlineWorkload> workload;  // the plan's
  online::OnlineMetrics metrics;
  sim::OnlineRunInfo info;
  // The metrics JSON, as OnlineRunOptions::metrics_out receives it.
  [[nodiscard]] std::string json() const;
  // The metrics as text, for a terminal.
  [[nodiscard]] std::string text() const;
};

// The report of `plan` run as `result` on `clock` ("simulated" or "wall"); writes the files `options` asks for,
// the jobs CSV and SWF schedule first, then the metrics JSON.
[[nodiscard]] OnlineRunReport record_online_run(const OnlineRunOptions& options, const sim::LaunchPlan& plan,
                                                const sim::EngineResult& result, std::string_view clock,
                                                const sim::ReplaySummary& replay);

// `workload` released as options.replay says, predicted on the simulated clock with options.policy, recorded.
[[nodiscard]] OnlineRunReport simulate_online_run(const OnlineRunOptions& options,
                                                  std::shared_ptr<const online::OnlineWorkload> workload);

// `cosched online` as a whole: a trace or the synthetic workload replayed (simulated clock), or a node workload
// predicted or, with `launch`, run for real on this node.
struct OnlineCommandOptions : OnlineRunOptions {
  std::string workload;  // a node workload (an Instance JSON whose tasks carry release_s); empty: the source's jobs
  bool launch = false;   // run the node workload for real (wall clock, journaled: `run`)
  bool json = false;     // report the metrics as JSON (what metrics_out receives) rather than as text
  LaunchOptions run;     // the node (its platform sizes the workload's footprints) and, with `launch`, the launch
};

// Checks the output files, runs, writes the files asked for and reports the metrics; with `launch`, also the
// launch's summary, then throws RuntimeFailure (exit 6) when the launch was interrupted or a task failed.
void run_online(const OnlineCommandOptions& options, Reporter& reporter);

}  // namespace cosched::workflow
