// `cosched online`: jobs that arrive over time (seed 000), scheduled by an online policy as they are released and
// complete — a trace or the paper's synthetic workload replayed on the simulated clock at full scale, or a node
// workload predicted (simulated clock) or run for real (--launch: wall clock, pinned, journaled, resumable).
// The flags fill the pipeline's OnlineCommandOptions (cosched/workflow/online_run.hpp); this file checks how they
// combine.
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
#include "cosched/online/campaigns.hpp"
#include "cosched/online/policy.hpp"
#include "cosched/online/source.hpp"
#include "cosched/online/synthetic.hpp"
#include "cosched/sim/replay.hpp"
#include "cosched/workflow/online_run.hpp"
#include "launch_options.hpp"
#include "reporting.hpp"

namespace {

namespace sim = cosched::sim;
namespace online = cosched::online;
namespace workflow = cosched::workflow;

// The pipeline's options and the flags that only say how they were given.
struct OnlineFlags : workflow::OnlineCommandOptions {
  std::vector<std::string_view> policy_options_given;  // "--rho", "--reserve", "--threshold" when set
  bool synthetic = false;
  cosched::cli::LaunchFlags launch_flags;
  std::string progress = "console";
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
  const auto& run = flags.launch_flags.options;
  if (!flags.launch && (!run.journal.empty() || !flags.launch_flags.resume.empty() || !run.platform.empty() ||
                        !run.tier_backend.empty() || !run.log_dir.empty() || run.timeout_s || run.fail_fast)) {
    throw cosched::UsageError("--journal, --resume, --platform, --tier-backend, --log-dir, --timeout and "
                              "--fail-fast are for a run on this node: add --launch");
  }
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
      ->check(cosched::app::seed_value())
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
  cosched::cli::add_launch_flags(*sub, flags->launch_flags);
  cosched::cli::add_progress_option(*sub, flags->progress);
  sub->callback([flags, sub] {
    // Which policy options the user set (their defaults cannot tell): a policy that does not read one refuses it.
    for (const std::string_view option : {"--rho", "--reserve", "--threshold"}) {
      if (sub->get_option(std::string(option))->count() > 0) flags->policy_options_given.push_back(option);
    }
    flags->overwrite = cosched::overwrite_if_forced(flags->launch_flags.options.force);
    check_flag_combination(*flags);
    // The launch flags with a default (their values cannot tell whether they were given) apply to --launch only.
    cosched::app::refuse_unless_applies(*sub, {"--max-wait", "--containment", "--kill-grace", "--memory-warm-up",
                                               "--placement", "--chunks"},
                                        flags->launch, "only for a run on this node: add --launch");
    flags->run = cosched::cli::launch_options(flags->launch_flags);
    const auto reporter = cosched::cli::command_reporter(flags->progress, {nullptr, stdout, stdout},
                                                         flags->metrics_out == "-");
    workflow::run_online(*flags, *reporter);
  });
}};

}  // namespace
