// `cosched online`: jobs that arrive over time (seed 000), scheduled by an online policy as they are released and
// complete — a trace or the paper's synthetic workload replayed on the simulated clock at full scale, or a node
// workload predicted (simulated clock) or run for real (--launch: wall clock, pinned, journaled, resumable).
// The flags fill the library's OnlineRunOptions (cosched/workflow/online_run.hpp: the released plan, the prediction,
// the files a run writes); this file checks how they combine, launches a node workload and prints the metrics.
#include <fmt/core.h>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "command_registry.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/online/campaigns.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/source.hpp"
#include "cosched/online/synthetic.hpp"
#include "cosched/sim/replay.hpp"
#include "cosched/workflow/online_run.hpp"
#include "launch_options.hpp"

namespace {

namespace launcher = cosched::launcher;
namespace sim = cosched::sim;
namespace online = cosched::online;
namespace workflow = cosched::workflow;

// The library's options (the policy and its options, the source, campaigns, replay, output files) and the flags
// that choose what runs.
struct OnlineFlags : workflow::OnlineRunOptions {
  std::vector<std::string_view> policy_options_given;  // "--rho", "--reserve", "--threshold" when set
  bool synthetic = false;
  std::string workload;
  bool launch = false;
  bool json = false;
  cosched::cli::LaunchFlags run;
};

void check_flag_combination(const OnlineFlags& flags) {
  const auto& source = flags.source;
  const int sources = static_cast<int>(!source.trace.empty()) + static_cast<int>(flags.synthetic) +
                      static_cast<int>(!flags.workload.empty());
  if (sources != 1) throw cosched::UsageError("give exactly one of --trace FILE, --synthetic, --workload FILE");
  if (flags.launch && flags.workload.empty()) {
    throw cosched::UsageError("--launch runs a node workload: it needs --workload FILE (an Instance JSON)");
  }
  if (!flags.workload.empty() && source.procs) {
    throw cosched::UsageError("--procs is for traces and synthetic workloads: a node workload's resources come "
                              "from its Instance JSON");
  }
  if (source.downey_seed && source.trace.empty()) throw cosched::UsageError("--downey-seed needs --trace");
  online::check_online_policy_options(flags.policy, flags.policy_options_given);
  if (source.trace.empty() && (!flags.campaigns.empty() || !source.from.empty() || !source.to.empty())) {
    throw cosched::UsageError("--campaigns, --from and --to read a trace: add --trace FILE (a node workload gives "
                              "its campaigns as the task attribute \"campaign\")");
  }
  if (!flags.campaigns.empty()) (void)online::campaign_rule(flags.campaigns);
  const auto& run = flags.run;
  if (!flags.launch && (!run.journal.empty() || !run.resume.empty() || !run.platform.empty() ||
                        !run.tier_backend.empty() || !run.log_dir.empty() || run.timeout_s || run.fail_fast)) {
    throw cosched::UsageError("--journal, --resume, --platform, --tier-backend, --log-dir, --timeout and "
                              "--fail-fast are for a run on this node: add --launch");
  }
}

// --json prints the metrics JSON (what --output writes), else they are printed as text.
void print_metrics(const OnlineFlags& flags, const workflow::OnlineRunReport& report) {
  fmt::print("{}", flags.json ? report.json() : report.text());
}

void run_on_node(const OnlineFlags& flags, const workflow::OnlineNodeWorkload& workload,
                 const cosched::cli::LaunchNode& node) {
  sim::ReplaySummary replay;
  const sim::LaunchPlan plan = workflow::online_replay_plan(flags, workload.jobs, replay);
  launcher::LaunchSettings settings = cosched::cli::launch_settings(
      flags.run, node.node, std::filesystem::path(flags.workload).replace_extension(".online.journal.jsonl"));
  settings.policy = flags.policy;
  settings.schedule_source = "online policy " + flags.policy;
  settings.workload_source = flags.workload;
  if (!flags.metrics_out.empty()) {
    cosched::check_output_path(flags.metrics_out, flags.overwrite, "online metrics");
  }
  fmt::print("running {} jobs of {} as they are released ({} policy) on {}; journal {}\n", plan.tasks.size(),
             flags.workload, flags.policy, launcher::describe_node(node.node, settings.tier),
             settings.journal.string());
  cosched::flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(plan, workload.commands, settings);
  print_metrics(flags, workflow::record_online_run(flags, summary.plan, summary.observed, "wall", replay));
  cosched::cli::report_launch(summary, settings);
}

void run_online(const OnlineFlags& flags) {
  check_flag_combination(flags);
  if (!flags.launch && !flags.metrics_out.empty()) {
    cosched::check_output_path(flags.metrics_out, flags.overwrite, "online metrics");
  }
  if (!flags.jobs_out.empty()) cosched::check_output_path(flags.jobs_out, flags.overwrite, "jobs CSV");
  if (!flags.swf_out.empty()) cosched::check_output_path(flags.swf_out, flags.overwrite, "SWF schedule");
  if (!flags.workload.empty()) {
    const cosched::cli::LaunchNode node = cosched::cli::launch_node(flags.run);
    const workflow::OnlineNodeWorkload workload =
        workflow::read_online_node_workload(flags.workload, node.platform_file);
    if (flags.launch) return run_on_node(flags, workload, node);
    print_metrics(flags, workflow::simulate_online_run(flags, workload.jobs));
    return;
  }
  auto workload = std::make_shared<const online::OnlineWorkload>(online::workload_from_source(flags.source));
  print_metrics(flags, workflow::simulate_online_run(flags, std::move(workload)));
}

std::string replay_help() {
  std::string text = "How a trace's jobs are released (docs/online.md, Replay):";
  for (const auto& mode : sim::replay_modes()) text += fmt::format("\n  {:<8} {}", mode.name, mode.summary);
  return text;
}

std::string policy_help() {
  std::string text = "Online policy:";
  for (const auto& info : online::online_policies()) text += fmt::format("\n  {:<20} {}", info.name, info.summary);
  return text;
}

const cosched::cli::CommandRegistration online_registration{"online", [](CLI::App& app) {
  auto* sub = app.add_subcommand("online", "Schedule jobs as they arrive (seed 000: FCFS, EASY, DASEDF, DBOS, ...): "
                                           "replay a trace or synthetic workload, or run a node workload");
  auto flags = std::make_shared<OnlineFlags>();
  sub->add_option("--policy", flags->policy, policy_help())->required();
  sub->add_option("--rho", flags->options.rho, "dbos: online factor (>= 1); split: number of groups (>= 2)")
      ->check(cosched::app::finite_range(1.0, 1e6))
      ->capture_default_str();
  sub->add_option("--reserve", flags->options.reserve, "fcfs-reservation, dasedf-reservation: X auxiliary processors")
      ->check(CLI::Range(0, 1 << 24));
  sub->add_option("--threshold", flags->options.threshold, "fcfs-reservation, dasedf-reservation: stretch threshold T")
      ->check(cosched::app::finite_range(0.0, 1e9));
  sub->add_option("--procs", flags->source.procs, "Processors m (trace: default its MaxProcs; synthetic: default 300)")
      ->check(CLI::Range(1, 1 << 20));
  sub->add_option("--trace", flags->source.trace, "SWF trace (plain or gzip)");
  sub->add_option("--jobs", flags->source.jobs, "Trace: the first N usable jobs; synthetic: N jobs (default 20000)")
      ->check(CLI::Range(std::size_t{1}, online::kMaxSyntheticJobs));
  sub->add_option("--downey-seed", flags->source.downey_seed, "Trace: moldable jobs by the Downey model, with this seed")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--campaigns", flags->campaigns,
                  "Trace: detect users' campaigns (last, arrival, max: seed 002) and report the campaign stretch");
  sub->add_option("--from", flags->source.from, "Trace: only jobs submitted from this date (YYYY-MM-DD, 00:00 UTC)");
  sub->add_option("--to", flags->source.to, "Trace: only jobs submitted up to this date, inclusive (YYYY-MM-DD, UTC)");
  sub->add_flag("--synthetic", flags->synthetic, "The paper's synthetic sequential workload (Sec. 4)");
  sub->add_option("--delta", flags->source.delta, "Synthetic: ratio of the largest to the smallest job size (Delta)")
      ->check(cosched::app::finite_range(1.0, online::kMaxSyntheticDelta))
      ->capture_default_str();
  sub->add_option("--load", flags->source.load, "Synthetic: target load (processors' worth of work per unit time)")
      ->check(cosched::app::finite_positive(online::kMaxSyntheticLoad))
      ->capture_default_str();
  sub->add_option("--seed", flags->source.seed, "Synthetic: seed (runs are deterministic)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--workload", flags->workload, "Node workload: Instance JSON whose tasks carry release_s");
  sub->add_flag("--launch", flags->launch, "Run the node workload for real on this node (wall clock, journaled)");
  std::vector<std::string> replay_names;
  for (const auto& mode : sim::replay_modes()) replay_names.emplace_back(mode.name);
  sub->add_option("--replay", flags->replay, replay_help())->check(CLI::IsMember(replay_names))->capture_default_str();
  sub->add_option("--jobs-out", flags->jobs_out,
                  "Write one row per job to this CSV, in Batsim's _jobs.csv columns (evalys reads it); --force "
                  "replaces an existing file");
  sub->add_option("--swf-out", flags->swf_out,
                  "Write the schedule as an SWF log (submit, wait and run times as run); --force replaces an existing "
                  "file");
  sub->add_flag("--json", flags->json, "Print the metrics as JSON");
  sub->add_option("--output", flags->metrics_out, "Write the metrics JSON to this file (- : stdout; --force replaces an existing one)");
  cosched::cli::add_launch_flags(*sub, flags->run);
  sub->callback([flags, sub] {
    // Which policy options the user set (their defaults cannot tell): a policy that does not read one refuses it.
    for (const std::string_view option : {"--rho", "--reserve", "--threshold"}) {
      if (sub->get_option(std::string(option))->count() > 0) flags->policy_options_given.push_back(option);
    }
    flags->overwrite = cosched::overwrite_if_forced(flags->run.force);
    run_online(*flags);
  });
}};

}  // namespace
