#include "cosched/workflow/node_launch.hpp"

#include <fmt/format.h>

#include <optional>

#include "cosched/common/error.hpp"
#include "cosched/launcher/cluster/slurm.hpp"
#include "cosched/launcher/run_report.hpp"

namespace cosched::workflow {

std::string RunNode::description() const { return launcher::describe_node(platform, tier); }

RunNode run_node(const LaunchOptions& options) {
  config::RunPlatform chosen = config::run_platform(options.platform, options.tier_backend, options.chunks);
  RunNode node = run_node(chosen.node, options.placement);
  node.platform_file = std::move(chosen.platform_file);
  return node;
}

RunNode run_node(const config::PlatformConfig& platform, const std::string& placement) {
  return {platform, std::nullopt, exec::make_tier_setup(platform, placement)};
}

launcher::LaunchSettings launch_settings(const LaunchOptions& options, const RunNode& node,
                                         const std::filesystem::path& default_journal) {
  launcher::LaunchSettings settings;
  settings.journal = options.journal.empty() ? default_journal : std::filesystem::path(options.journal);
  settings.resume = options.resume;
  settings.force = options.force;
  settings.engine.fail_fast = options.fail_fast;
  settings.clock.timeout_s = options.timeout_s;
  settings.clock.kill_grace_s = options.kill_grace_s;
  settings.tier = node.tier;
  settings.log_dir = options.log_dir;
  settings.max_wait_s = options.max_wait_s;
  settings.containment = options.containment;
  settings.memory_warm_up = launcher::parse_memory_warm_up_mode(options.memory_warm_up);
  settings.slurm = launcher::slurm::step_from_environment(launcher::slurm::process_environment());
  return settings;
}

launcher::LaunchSummary launch_on_node(const sim::LaunchPlan& plan, const config::Workload& workload,
                                       const launcher::LaunchSettings& settings, Reporter* progress) {
  if (progress == nullptr) return launcher::launch(plan, workload, settings);
  // Before any task runs: output that cannot be written (stdout on a full disk) fails the launch, not after it.
  progress->flush();
  launcher::LaunchProgress observer(*progress);
  launcher::LaunchSettings observed = settings;
  observed.observer = &observer;
  launcher::LaunchSummary summary = launcher::launch(plan, workload, observed);
  observer.finish();
  return summary;
}

void require_completed(const launcher::LaunchSummary& summary, const UnfinishedLaunch& unfinished) {
  if (summary.observed.interrupted) throw RuntimeFailure("interrupted: " + unfinished.continue_how);
  if (summary.observed.failed > 0 && !unfinished.failed_where.empty()) {
    throw RuntimeFailure(fmt::format("{} task(s) failed{}", summary.observed.failed, unfinished.failed_where));
  }
}

}  // namespace cosched::workflow
