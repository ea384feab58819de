// `cosched online`: jobs that arrive over time (seed 000), scheduled by an online policy as they are released and
// complete — a trace or the paper's synthetic workload replayed on the simulated clock at full scale, or a node
// workload predicted (simulated clock) or run for real (--launch: wall clock, pinned, journaled, resumable).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "command_registry.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/launcher/launch.hpp"
#include "cosched/sim/online.hpp"
#include "cosched/sim/prediction.hpp"
#include "cosched/sched/online/campaigns.hpp"
#include "cosched/sched/online/metrics.hpp"
#include "cosched/sched/online/policy.hpp"
#include "cosched/sched/online/swf.hpp"
#include "cosched/sched/online/swf_window.hpp"
#include "cosched/sched/online/synthetic.hpp"
#include "launch_options.hpp"
#include "cosched/app/run_main.hpp"
#include "cosched/exec/workload_file.hpp"

namespace {

namespace launcher = cosched::launcher;
namespace sim = cosched::sim;
namespace online = cosched::sched::online;

struct OnlineFlags {
  std::string policy;
  online::OnlineOptions options;
  std::vector<std::string_view> policy_options_given;  // "--rho", "--reserve", "--threshold" when set
  std::optional<int> procs;
  std::string trace;
  std::optional<std::size_t> jobs;
  std::optional<std::uint64_t> downey_seed;
  std::string campaigns;  // a campaign rule (campaigns.hpp); trace only
  std::string from;       // YYYY-MM-DD; trace only
  std::string to;
  bool synthetic = false;
  double delta = 10.0;
  double load = 270.0;
  std::uint64_t seed = 1;
  std::string workload;
  bool launch = false;
  bool json = false;
  std::string output;
  cosched::cli::LaunchFlags run;
  [[nodiscard]] cosched::Overwrite overwrite() const {
    return cosched::overwrite_if_forced(run.force);
  }
};

void check_flag_combination(const OnlineFlags& flags) {
  const int sources = static_cast<int>(!flags.trace.empty()) + static_cast<int>(flags.synthetic) +
                      static_cast<int>(!flags.workload.empty());
  if (sources != 1) throw cosched::UsageError("give exactly one of --trace FILE, --synthetic, --workload FILE");
  if (flags.launch && flags.workload.empty()) {
    throw cosched::UsageError("--launch runs a node workload: it needs --workload FILE (an Instance JSON)");
  }
  if (!flags.workload.empty() && flags.procs) {
    throw cosched::UsageError("--procs is for traces and synthetic workloads: a node workload's resources come "
                              "from its Instance JSON");
  }
  if (flags.downey_seed && flags.trace.empty()) throw cosched::UsageError("--downey-seed needs --trace");
  online::check_online_policy_options(flags.policy, flags.policy_options_given);
  if (flags.trace.empty() && (!flags.campaigns.empty() || !flags.from.empty() || !flags.to.empty())) {
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

// The Unix time of a --from / --to date; `day_after` moves it to the end of that day (--to is inclusive).
std::optional<std::int64_t> date_flag(const std::string& text, std::string_view flag, bool day_after) {
  if (text.empty()) return std::nullopt;
  const auto date = online::parse_utc_date(text);
  if (!date) throw cosched::UsageError(fmt::format("{}: '{}' is not a date YYYY-MM-DD (year >= 1970)", flag, text));
  return day_after ? *date + 86400 : *date;
}

online::SwfTrace trace_in_window(const OnlineFlags& flags) {
  const auto from = date_flag(flags.from, "--from", false);
  const auto to = date_flag(flags.to, "--to", true);
  if (from && to && *from >= *to) {
    throw cosched::UsageError(fmt::format("--from {} is after --to {}", flags.from, flags.to));
  }
  online::SwfTrace trace = online::load_swf(flags.trace);
  if (!from && !to) return trace;
  return online::swf_window(trace, from, to);
}

online::OnlineWorkload simulated_workload(const OnlineFlags& flags) {
  if (!flags.trace.empty()) {
    online::SwfOptions options;
    options.procs = flags.procs;
    options.max_jobs = flags.jobs;
    options.downey_seed = flags.downey_seed;
    return online::workload_from_swf(trace_in_window(flags), options);
  }
  online::SyntheticOptions options;
  options.jobs = flags.jobs.value_or(options.jobs);
  options.procs = flags.procs.value_or(options.procs);
  options.delta = flags.delta;
  options.load = flags.load;
  options.seed = flags.seed;
  return online::make_synthetic_workload(options);
}

void print_metrics(const OnlineFlags& flags, const online::OnlineWorkload& workload,
                   const online::OnlineMetrics& metrics, std::string_view clock) {
  if (!flags.output.empty() || flags.json) {
    nlohmann::json root = online::to_json(metrics);
    root["policy"] = flags.policy;
    root["workload"] = workload.source;
    root["clock"] = clock;
    root["options"] = {{"rho", flags.options.rho},
                       {"reserve", flags.options.reserve},
                       {"threshold", flags.options.threshold}};
    if (!flags.campaigns.empty()) root["campaign_rule"] = flags.campaigns;
    if (!flags.from.empty()) root["from"] = flags.from;
    if (!flags.to.empty()) root["to"] = flags.to;
    const std::string text = root.dump(2) + "\n";
    if (!flags.output.empty()) cosched::write_text_file(flags.output, text, flags.overwrite(), "online metrics");
    if (flags.json) {
      fmt::print("{}", text);
      return;
    }
  }
  fmt::print("{} ({} clock): {} jobs on {} {}, load {:.1f}; policy {}\n", workload.source, clock, metrics.jobs,
             metrics.procs, workload.instance.resources().front().name, metrics.load, flags.policy);
  fmt::print("  completed       {}\n", metrics.completed);
  fmt::print("  max stretch     {:.4g}\n  mean stretch    {:.4g}\n", metrics.max_stretch, metrics.mean_stretch);
  fmt::print("  max flow        {:.6g} s\n  mean flow       {:.6g} s\n", metrics.max_flow, metrics.mean_flow);
  fmt::print("  utilization     {:.3f}\n  makespan        {:.6g} s\n", metrics.utilization, metrics.makespan);
  fmt::print("  scheduling      {:.3f} s over {} events ({:.1f} us per event, longest call {:.3f} ms)\n",
             metrics.scheduling_seconds, metrics.events, metrics.scheduling_seconds_per_event * 1e6,
             metrics.scheduling_max_seconds * 1e3);
  fmt::print("  stretch > 1 by job size:");
  for (const auto& bin : metrics.fairness) {
    if (bin.jobs == 0) continue;
    const double percent = 100.0 * static_cast<double>(bin.stretched) / static_cast<double>(bin.jobs);
    fmt::print(" {} {:.1f}% of {}", bin.label, percent, bin.jobs);
  }
  fmt::print("\n  ({})\n", online::stretch_normalisation());
  if (metrics.campaigns == 0) return;
  fmt::print("  campaigns       {} of {} users: mean stretch {:.4g} ({:.4g} without the {} above {:g}), max {:.4g}; "
             "at 1 {:.1f}%, < 1.4 {:.1f}%, < 2.15 {:.1f}%; Jain's index over users {:.3f}\n  ({})\n",
             metrics.campaigns, metrics.users, metrics.mean_campaign_stretch,
             metrics.mean_campaign_stretch_without_outliers, metrics.campaign_outliers, online::kCampaignOutlierStretch,
             metrics.max_campaign_stretch,
             100.0 * metrics.campaigns_at_stretch_1, 100.0 * metrics.campaigns_below_1_4,
             100.0 * metrics.campaigns_below_2_15, metrics.jain_fairness, online::campaign_stretch_normalisation());
}

// The campaigns of a run: detected in a trace by --campaigns, given by a node workload's tasks, else none.
std::vector<std::size_t> campaigns_of(const OnlineFlags& flags, const online::OnlineWorkload& workload) {
  if (!flags.campaigns.empty()) return online::detect_campaigns(workload, online::campaign_rule(flags.campaigns));
  return online::given_campaigns(workload);
}

// The metrics of an engine run, with the campaigns' when there are campaigns.
online::OnlineMetrics metrics_of(const OnlineFlags& flags, const sim::LaunchPlan& plan,
                                 const sim::EngineResult& result) {
  online::OnlineMetrics metrics = sim::run_metrics(plan, result);
  const online::OnlineWorkload& workload = *plan.online;
  const std::vector<std::size_t> campaigns = campaigns_of(flags, workload);
  if (!campaigns.empty()) {
    online::add_campaign_metrics(metrics, workload, sim::job_outcomes(result), campaigns);
  }
  return metrics;
}

void run_on_node(const OnlineFlags& flags, const std::shared_ptr<const online::OnlineWorkload>& workload,
                 const cosched::config::Workload& commands, const cosched::cli::LaunchNode& node) {
  const sim::LaunchPlan plan = sim::online_plan(workload, flags.options);
  launcher::LaunchSettings settings = cosched::cli::launch_settings(
      flags.run, node.node, std::filesystem::path(flags.workload).replace_extension(".online.journal.jsonl"));
  settings.policy = flags.policy;
  settings.schedule_source = "online policy " + flags.policy;
  settings.workload_source = flags.workload;
  if (!flags.output.empty()) cosched::check_output_path(flags.output, flags.overwrite(), "online metrics");
  fmt::print("running {} jobs of {} as they are released ({} policy) on {} cores{}, tier backend {}{}; journal {}\n",
             plan.tasks.size(), flags.workload, flags.policy, node.node.cores,
             node.node.fast_chunks > 0 ? fmt::format(" + {} fast chunks", node.node.fast_chunks) : std::string(),
             settings.tier.backend, settings.tier.emulated() ? " (EMULATED fast tier)" : "", settings.journal.string());
  cosched::flush_standard_output();
  const launcher::LaunchSummary summary = launcher::launch(plan, commands, settings);
  print_metrics(flags, *summary.plan.online, metrics_of(flags, summary.plan, summary.observed), "wall");
  cosched::cli::report_launch(summary, settings);
}

void run_online(const OnlineFlags& flags) {
  check_flag_combination(flags);
  if (!flags.launch && !flags.output.empty()) {
    cosched::check_output_path(flags.output, flags.overwrite(), "online metrics");
  }
  if (!flags.workload.empty()) {
    const cosched::cli::LaunchNode node = cosched::cli::launch_node(flags.run);
    const cosched::exec::WorkloadFile file = cosched::exec::read_workload_file(flags.workload, node.platform_file);
    if (!file.instance) {
      throw cosched::UsageError(fmt::format("--workload {}: an online node workload is an Instance JSON (`cosched "
                                            "instance` of a profiled workload whose tasks carry release_s)",
                                            flags.workload));
    }
    auto workload = std::make_shared<const online::OnlineWorkload>(
        online::online_workload_from_instance(*file.instance, flags.workload));
    if (flags.launch) return run_on_node(flags, workload, file.workload, node);
    const sim::LaunchPlan plan = sim::online_plan(workload, flags.options);
    print_metrics(flags, *workload, metrics_of(flags, plan, sim::predict(plan, flags.policy)), "simulated");
    return;
  }
  auto workload = std::make_shared<const online::OnlineWorkload>(simulated_workload(flags));
  const sim::LaunchPlan plan = sim::online_plan(workload, flags.options);
  print_metrics(flags, *workload, metrics_of(flags, plan, sim::predict(plan, flags.policy)), "simulated");
}

std::string policy_help() {
  std::string text = "Online policy:";
  for (const auto& info : online::online_policies()) text += fmt::format("\n  {:<20} {}", info.name, info.summary);
  return text;
}

const cosched::cli::CommandRegistration registration{"online", [](CLI::App& app) {
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
  sub->add_option("--procs", flags->procs, "Processors m (trace: default its MaxProcs; synthetic: default 300)")
      ->check(CLI::Range(1, 1 << 20));
  sub->add_option("--trace", flags->trace, "SWF trace (plain or gzip)");
  sub->add_option("--jobs", flags->jobs, "Trace: the first N usable jobs; synthetic: N jobs (default 20000)")
      ->check(CLI::Range(std::size_t{1}, online::kMaxSyntheticJobs));
  sub->add_option("--downey-seed", flags->downey_seed, "Trace: moldable jobs by the Downey model, with this seed")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--campaigns", flags->campaigns,
                  "Trace: detect users' campaigns (last, arrival, max: seed 002) and report the campaign stretch");
  sub->add_option("--from", flags->from, "Trace: only jobs submitted from this date (YYYY-MM-DD, 00:00 UTC)");
  sub->add_option("--to", flags->to, "Trace: only jobs submitted up to this date, inclusive (YYYY-MM-DD, UTC)");
  sub->add_flag("--synthetic", flags->synthetic, "The paper's synthetic sequential workload (Sec. 4)");
  sub->add_option("--delta", flags->delta, "Synthetic: ratio of the largest to the smallest job size (Delta)")
      ->check(cosched::app::finite_range(1.0, online::kMaxSyntheticDelta))
      ->capture_default_str();
  sub->add_option("--load", flags->load, "Synthetic: target load (processors' worth of work per unit time)")
      ->check(cosched::app::finite_positive(online::kMaxSyntheticLoad))
      ->capture_default_str();
  sub->add_option("--seed", flags->seed, "Synthetic: seed (runs are deterministic)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--workload", flags->workload, "Node workload: Instance JSON whose tasks carry release_s");
  sub->add_flag("--launch", flags->launch, "Run the node workload for real on this node (wall clock, journaled)");
  sub->add_flag("--json", flags->json, "Print the metrics as JSON");
  sub->add_option("--output", flags->output, "Write the metrics JSON to this file (- : stdout; --force replaces an existing one)");
  cosched::cli::add_launch_flags(*sub, flags->run);
  sub->callback([flags, sub] {
    // Which policy options the user set (their defaults cannot tell): a policy that does not read one refuses it.
    for (const std::string_view option : {"--rho", "--reserve", "--threshold"}) {
      if (sub->get_option(std::string(option))->count() > 0) flags->policy_options_given.push_back(option);
    }
    run_online(*flags);
  });
}};

}  // namespace
