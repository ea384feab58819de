#pragma once
// What cosched needs from Slurm, and nothing more (docs/cluster.md): the allocation a command runs in (job id,
// node names — expanded by `scontrol show hostnames`, never by a home-made hostlist parser —, CPUs per node), the
// step a launch runs in (for its journal header), the `srun` command of one node's step, and the sbatch script of
// a plan. Slurm allocates nodes and starts steps; inside a node cosched schedules cores and fast memory.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/common/reporter.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/launcher/journal/events.hpp"
#include "cosched/sched/cluster_manifest.hpp"

namespace cosched::launcher::slurm {

// A variable of the environment, nullopt when unset (tests pass their own).
using Environment = std::function<std::optional<std::string>(const char* name)>;
[[nodiscard]] Environment process_environment();

// SLURM_JOB_CPUS_PER_NODE ("2(x3),4": two CPUs on each of three nodes, then four) as one count per node.
// Throws InputError(where) for anything else, or a count that does not match `nodes`.
[[nodiscard]] std::vector<unsigned> parse_cpus_per_node(std::string_view text, std::size_t nodes,
                                                        const std::string& where);

// The node names of a Slurm hostlist ("n[1-3],gpu7"), in order: `scontrol show hostnames LIST`. Throws
// PlatformError when scontrol cannot be run or fails, InputError when it prints no name.
[[nodiscard]] std::vector<std::string> expand_hostnames(const std::string& hostlist,
                                                        const std::string& scontrol = "scontrol");

struct Allocation {
  std::string job_id;
  std::vector<std::string> nodes;  // in the allocation's order
  std::vector<unsigned> cpus;      // per node (SLURM_JOB_CPUS_PER_NODE)
};

// The allocation this process runs in. Throws UsageError when SLURM_JOB_ID or SLURM_JOB_NODELIST is unset (not
// inside salloc / sbatch), InputError for a malformed value.
[[nodiscard]] Allocation allocation_from_environment(const Environment& environment,
                                                     const std::string& scontrol = "scontrol");

// The cores a batch planned over `allocation` can count on at every node: the fewest CPUs Slurm gives a node
// (SLURM_JOB_CPUS_PER_NODE: without --exclusive or -c, one per node), and no more than `here`, the cores of the
// node the batch is profiled on. `asked` (0: none) is what a platform file plans per node: when a node gets fewer
// CPUs, a ResourceError — before any work — names the node and the salloc options that give it more.
[[nodiscard]] unsigned allocation_cores(const Allocation& allocation, unsigned here, unsigned asked);

// The node a batch planned over `allocation` is planned for (`cosched run --slurm`): `platform` with the cores
// allocation_cores gives every node — no more than this machine has for the platform's tier backend, and the
// platform's own cores as asked when they come from a platform file (`from_file`). When that is fewer cores than
// `platform` has, a note says so and how salloc gives more.
[[nodiscard]] config::PlatformConfig allocation_platform(config::PlatformConfig platform, bool from_file,
                                                         const Allocation& allocation, Reporter& reporter);

// The step this process runs in (SLURMD_NODENAME, SLURM_JOB_ID, SLURM_STEP_ID), nullopt outside Slurm (no
// SLURM_JOB_ID).
[[nodiscard]] std::optional<SlurmStep> step_from_environment(const Environment& environment);

// Plan node k runs on allocated node k. Throws ResourceError when the allocation has fewer nodes than the plan.
[[nodiscard]] std::vector<std::string> assign_nodes(std::size_t plan_nodes, const Allocation& allocation);

// srun --nodes=1 --ntasks=1 --exclusive --cpus-per-task=CPUS -w NODE --job-name=NAME <command...>: one step on one
// node with all of its allocated CPUs (a step gets one CPU per task unless told otherwise), so the step's cpuset
// — which the step's launch discovers through hwloc — is the node's share of the allocation.
[[nodiscard]] std::vector<std::string> srun_argv(const std::string& srun, const std::string& node, unsigned cpus,
                                                 const std::string& job_name,
                                                 const std::vector<std::string>& command);

// The sbatch script of a plan: #SBATCH --nodes, --exclusive, --time (time_limit_seconds), --job-name, then
// `cosched launch PLAN --slurm` (with `launch_options` appended) and the merged report.
struct ScriptOptions {
  std::filesystem::path cosched;  // the executable the script runs (absolute)
  std::filesystem::path plan;     // the plan folder (absolute)
  std::string job_name = "cosched";
  double margin = 1.5;            // --time = margin x predicted + slack, rounded up to a minute
  double slack_s = 300.0;
  std::vector<std::string> launch_options;
};
[[nodiscard]] double time_limit_seconds(double predicted_makespan, const ScriptOptions& options);
// "D-HH:MM:SS" (Slurm's --time syntax), rounded up to a whole minute.
[[nodiscard]] std::string format_time_limit(double seconds);
[[nodiscard]] std::string sbatch_script(const sched::ClusterManifest& manifest, const ScriptOptions& options);

// Where the script of `options.plan` may be written: not onto a file its jobs read or write — the plan's manifest,
// each node's schedule, instance, journal and step log, the platform file of launch_options (--platform FILE) or
// cosched itself — even with --force: the plan folder would lose its manifest or a node its schedule (issue #27).
// The same file by another name (a symbolic link, "plan/./manifest.json") counts. "-" (stdout) is always fine.
// Throws UsageError naming the file and suggesting PLAN/job.sbatch.
void check_script_output(const std::filesystem::path& output, const sched::ClusterManifest& manifest,
                         const ScriptOptions& options);

// A word for a POSIX shell, quoted when it needs to be.
[[nodiscard]] std::string shell_quote(std::string_view word);

}  // namespace cosched::launcher::slurm
