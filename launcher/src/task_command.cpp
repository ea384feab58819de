#include "cosched/launcher/task_command.hpp"

#include <numaif.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "cosched/platform/topology.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::launcher {

namespace {

void replace_all(std::string& text, const std::string& key, const std::string& value) {
  for (std::size_t pos = text.find(key); pos != std::string::npos; pos = text.find(key, pos + value.size())) {
    text.replace(pos, key.size(), value);
  }
}

std::size_t granted_fast_bytes(const Grant& grant, const TierSetup& tier, std::uint64_t cap) {
  const double bytes = std::floor(static_cast<double>(grant.fast_chunks) * tier.chunk_bytes);
  const auto granted = static_cast<std::size_t>(bytes);
  return cap > 0 ? std::min<std::size_t>(granted, cap) : granted;
}

std::vector<std::string> stream_argv(const config::WorkloadTask& task, const Grant& grant, const TierSetup& tier,
                                     const std::filesystem::path& stream_bench, std::size_t fast_bytes) {
  const auto& kernel = stream::find_kernel(task.kernel);
  const double array_mib = static_cast<double>(task.footprint_bytes) /
                           static_cast<double>(kernel.touched().size()) / (1024.0 * 1024.0);
  std::vector<std::string> argv{stream_bench.string(),
                                "--kernel", task.kernel,
                                // No --cores: the child is bound to exactly its granted cores before exec, and
                                // stream_bench numbers cores within its own affinity, so "the first N" are they.
                                "--threads", std::to_string(grant.cores.size()),
                                "--size-mib", fmt::format("{}", array_mib),
                                "--reps", std::to_string(task.passes),
                                "--warmup", "0",
                                "--json"};
  if (tier.backend != "none") {
    const double fraction = std::min(1.0, static_cast<double>(fast_bytes) / static_cast<double>(task.footprint_bytes));
    argv.insert(argv.end(), {"--fast-fraction", fmt::format("{}", fraction), "--tier-backend", tier.backend});
    if (tier.emulated()) argv.insert(argv.end(), {"--emulation-ratio", fmt::format("{}", tier.emulation_ratio)});
  }
  return argv;
}

// A command's fast share through a NUMA policy where the backend has real nodes (docs/launcher.md).
std::string apply_command_policy(const TierSetup& tier, std::size_t fast_bytes, MemoryPolicy& policy) {
  if (tier.backend == "none") return "tier left to the system (no memory policy)";
  if (tier.emulated()) {
    return fmt::format("not applied: the emulated tier cannot slow an arbitrary program; it is told "
                       "{{fast_bytes}}={}", fast_bytes);
  }
  if (tier.fast_nodes.empty() || tier.slow_nodes.empty()) {
    throw ResourceError(fmt::format("backend {} without fast and slow NUMA nodes cannot place a command", tier.backend));
  }
  if (fast_bytes == 0) {
    policy = {MPOL_BIND, tier.slow_nodes};
    return fmt::format("set_mempolicy(MPOL_BIND, slow nodes {})", fmt::join(tier.slow_nodes, ","));
  }
  policy = {MPOL_PREFERRED, {tier.fast_nodes.front()}};
  return fmt::format("set_mempolicy(MPOL_PREFERRED, fast node {}): up to its {} fast bytes only if it honours "
                     "{{fast_bytes}}",
                     tier.fast_nodes.front(), fast_bytes);
}

}  // namespace

std::string substitute_placeholders(const std::string& arg, const Grant& grant, std::size_t fast_bytes) {
  std::string text = arg;
  replace_all(text, "{threads}", std::to_string(grant.cores.size()));
  replace_all(text, "{cpuset}", platform::to_range_text(grant.cores.all_pus()));
  replace_all(text, "{cores}", fmt::format("{}", fmt::join(grant.cores.cores, ",")));
  replace_all(text, "{fast_bytes}", std::to_string(fast_bytes));
  return text;
}

TaskLaunch build_task_launch(const config::WorkloadTask& task, const Grant& grant, const TierSetup& tier,
                             const std::filesystem::path& stream_bench, const std::filesystem::path& log_dir) {
  TaskLaunch launch;
  launch.timeout_s = task.timeout_s;
  launch.spec.pus = grant.cores.all_pus();
  if (!log_dir.empty()) {
    launch.spec.stdout_path = log_dir / (task.id + ".out");
    launch.spec.stderr_path = log_dir / (task.id + ".err");
  }
  if (task.is_stream()) {
    launch.fast_bytes = tier.backend == "none" ? 0 : granted_fast_bytes(grant, tier, task.footprint_bytes);
    launch.spec.argv = stream_argv(task, grant, tier, stream_bench, launch.fast_bytes);
    launch.placement = tier.backend == "none"
                           ? std::string("tier left to the system (stream_bench --tier-backend none)")
                           : fmt::format("stream_bench --tier-backend {}{}", tier.backend,
                                         tier.emulated() ? " (EMULATED fast tier)" : "");
    return launch;
  }
  launch.fast_bytes = tier.backend == "none" ? 0 : granted_fast_bytes(grant, tier, 0);
  for (const auto& arg : task.command) launch.spec.argv.push_back(substitute_placeholders(arg, grant, launch.fast_bytes));
  launch.placement = apply_command_policy(tier, launch.fast_bytes, launch.spec.memory);
  return launch;
}

TierSetup make_tier_setup(const std::string& backend, double emulation_ratio, double chunk_bytes) {
  platform::TierOptions options;
  options.backend = backend;
  options.emulation_ratio = emulation_ratio;
  TierSetup tier;
  tier.backend = platform::resolve_tier_backend_name(options);
  tier.emulation_ratio = emulation_ratio;
  tier.chunk_bytes = chunk_bytes;
  if (tier.backend == "numa" || tier.backend == "memkind") {
    const auto topology = platform::Topology::this_system();
    tier.fast_nodes = topology.fast_nodes();
    tier.slow_nodes = topology.slow_nodes();
  }
  return tier;
}

std::filesystem::path default_stream_bench_path() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const auto sibling = self.parent_path() / "stream_bench";
    if (::access(sibling.c_str(), X_OK) == 0) return sibling;
  }
  return resolve_executable("stream_bench");
}

}  // namespace cosched::launcher
