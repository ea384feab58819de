#include "cosched/launcher/cluster/slurm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cosched/common/error.hpp"
#include "cluster/slurm_process.hpp"

namespace cosched::launcher::slurm {

namespace {

// A positive decimal count (no sign, no spaces), as Slurm writes them.
std::optional<unsigned> parse_count(std::string_view text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

std::string required(const Environment& environment, const char* name) {
  const auto value = environment(name);
  if (!value || value->empty()) {
    throw UsageError(fmt::format("{} is not set: --slurm runs inside a Slurm allocation (salloc -N N, or an sbatch "
                                 "script: see `cosched slurm-script`)",
                                 name));
  }
  return *value;
}

}  // namespace

Environment process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  };
}

std::vector<unsigned> parse_cpus_per_node(std::string_view text, std::size_t nodes, const std::string& where) {
  std::vector<unsigned> cpus;
  const auto bad = [&](std::string_view why) {
    return InputError(where, fmt::format("\"{}\" is not a list of CPU counts such as 2(x3),4: {}", text, why));
  };
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, comma - begin);
    const std::size_t open = item.find("(x");
    const auto count = parse_count(item.substr(0, open));
    if (!count) throw bad(fmt::format("\"{}\"", item));
    unsigned repeat = 1;
    if (open != std::string_view::npos) {
      if (item.back() != ')') throw bad(fmt::format("\"{}\"", item));
      const auto times = parse_count(item.substr(open + 2, item.size() - open - 3));
      if (!times) throw bad(fmt::format("\"{}\"", item));
      repeat = *times;
    }
    if (cpus.size() + repeat > nodes) throw bad(fmt::format("more counts than the {} nodes", nodes));
    cpus.insert(cpus.end(), repeat, *count);
    begin = comma + 1;
  }
  if (cpus.size() != nodes) throw bad(fmt::format("{} counts for {} nodes", cpus.size(), nodes));
  return cpus;
}

unsigned allocation_cores(const Allocation& allocation, unsigned here, unsigned asked) {
  const auto fewest = std::min_element(allocation.cpus.begin(), allocation.cpus.end());
  if (fewest == allocation.cpus.end()) throw InputError("SLURM_JOB_CPUS_PER_NODE", "no CPU count for any node");
  const auto node = static_cast<std::size_t>(fewest - allocation.cpus.begin());
  if (asked > *fewest) {
    throw ResourceError(fmt::format("the plan needs {} cores per node, but Slurm gives node {} only {} CPU(s) (job "
                                    "{}): allocate whole nodes with salloc --exclusive, or ask for the CPUs with "
                                    "salloc -c {}",
                                    asked, allocation.nodes.at(node), *fewest, allocation.job_id, asked));
  }
  return std::min(*fewest, here);
}

config::PlatformConfig allocation_platform(config::PlatformConfig platform, bool from_file,
                                           const Allocation& allocation, Reporter& reporter) {
  const unsigned here = config::this_machine_platform(platform.tier_backend).cores;
  const unsigned cores = allocation_cores(allocation, std::min(here, platform.cores), from_file ? platform.cores : 0);
  if (cores < platform.cores) {
    reporter.note(fmt::format("Slurm gives each node {} CPU(s) (job {}): planning for {} core(s) per node; salloc "
                              "--exclusive gives a run every CPU of its nodes",
                              cores, allocation.job_id, cores));
  }
  platform.cores = cores;
  return platform;
}

std::vector<std::string> expand_hostnames(const std::string& hostlist, const std::string& scontrol) {
  const std::string text = slurm_detail::capture_output({scontrol, "show", "hostnames", hostlist});
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) names.push_back(line);
  }
  if (names.empty()) throw InputError("SLURM_JOB_NODELIST", fmt::format("\"{}\" names no node", hostlist));
  return names;
}

Allocation allocation_from_environment(const Environment& environment, const std::string& scontrol) {
  Allocation allocation;
  allocation.job_id = required(environment, "SLURM_JOB_ID");
  allocation.nodes = expand_hostnames(required(environment, "SLURM_JOB_NODELIST"), scontrol);
  const auto cpus = environment("SLURM_JOB_CPUS_PER_NODE");
  // Without it (an old Slurm), each step is given one CPU per node and says so in its journal's resources.
  allocation.cpus = cpus ? parse_cpus_per_node(*cpus, allocation.nodes.size(), "SLURM_JOB_CPUS_PER_NODE")
                         : std::vector<unsigned>(allocation.nodes.size(), 1U);
  return allocation;
}

std::optional<SlurmStep> step_from_environment(const Environment& environment) {
  const auto job = environment("SLURM_JOB_ID");
  if (!job) return std::nullopt;
  return SlurmStep{environment("SLURMD_NODENAME").value_or(""), *job, environment("SLURM_STEP_ID").value_or("")};
}

std::vector<std::string> assign_nodes(std::size_t plan_nodes, const Allocation& allocation) {
  if (allocation.nodes.size() < plan_nodes) {
    throw ResourceError(fmt::format("the plan needs {} nodes, the allocation (job {}) has {}: allocate at least {} "
                                    "(salloc -N {}), or plan for {} nodes",
                                    plan_nodes, allocation.job_id, allocation.nodes.size(), plan_nodes, plan_nodes,
                                    allocation.nodes.size()));
  }
  return {allocation.nodes.begin(), allocation.nodes.begin() + static_cast<std::ptrdiff_t>(plan_nodes)};
}

std::vector<std::string> srun_argv(const std::string& srun, const std::string& node, unsigned cpus,
                                   const std::string& job_name, const std::vector<std::string>& command) {
  std::vector<std::string> argv{srun,
                                "--nodes=1",
                                "--ntasks=1",
                                "--exclusive",
                                fmt::format("--cpus-per-task={}", cpus),
                                "-w",
                                node,
                                fmt::format("--job-name={}", job_name)};
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

double time_limit_seconds(double predicted_makespan, const ScriptOptions& options) {
  return options.margin * predicted_makespan + options.slack_s;
}

std::string format_time_limit(double seconds) {
  const auto minutes = static_cast<long long>(std::ceil(std::max(seconds, 60.0) / 60.0));
  return fmt::format("{}-{:02}:{:02}:00", minutes / (24 * 60), minutes / 60 % 24, minutes % 60);
}

std::string shell_quote(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                              "0123456789_+-=.,/:@%") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string quoted(1, '\'');
  for (const char c : word) {
    if (c == '\'') {
      quoted.append("'\\''");
    } else {
      quoted.push_back(c);
    }
  }
  quoted.push_back('\'');
  return quoted;
}

std::string sbatch_script(const sched::ClusterManifest& manifest, const ScriptOptions& options) {
  std::size_t tasks = 0;
  for (const auto& node : manifest.nodes) tasks += node.tasks.size();
  const double limit = time_limit_seconds(manifest.predicted_makespan, options);
  std::string launch = fmt::format("{} launch {} --slurm", shell_quote(options.cosched.string()),
                                   shell_quote(options.plan.string()));
  for (const auto& word : options.launch_options) launch.append(" ").append(shell_quote(word));
  return fmt::format(
      "#!/bin/sh\n"
      "# cosched cluster plan {plan}: {tasks} tasks of {algorithm} on {nodes} nodes.\n"
      "# Predicted makespan {predicted:.6g} s (cluster lower bound {bound:.6g} s); --time = {margin} x predicted + "
      "{slack:.0f} s.\n"
      "# Submit: sbatch <this file>. After a lost step, resume the unfinished tasks inside a new allocation with\n"
      "#   cosched launch {plan} --slurm --resume\n"
      "#SBATCH --job-name={name}\n"
      "#SBATCH --nodes={nodes}\n"
      "#SBATCH --exclusive\n"
      "#SBATCH --time={time}\n"
      "status=0\n"
      "{launch} || status=$?\n"
      "{cosched} report {plan} || true\n"
      "exit $status\n",
      fmt::arg("plan", shell_quote(options.plan.string())), fmt::arg("tasks", tasks),
      fmt::arg("algorithm", manifest.algorithm), fmt::arg("nodes", manifest.nodes.size()),
      fmt::arg("predicted", manifest.predicted_makespan), fmt::arg("bound", manifest.lower_bound),
      fmt::arg("margin", options.margin), fmt::arg("slack", options.slack_s), fmt::arg("name", options.job_name),
      fmt::arg("time", format_time_limit(limit)), fmt::arg("launch", launch),
      fmt::arg("cosched", shell_quote(options.cosched.string())));
}

void check_script_output(const std::filesystem::path& output, const sched::ClusterManifest& manifest,
                         const ScriptOptions& options) {
  if (output == "-") return;
  namespace fs = std::filesystem;
  const fs::path& plan = options.plan;
  std::vector<fs::path> used{plan / "manifest.json", options.cosched};
  for (std::size_t k = 0; k < manifest.nodes.size(); ++k) {
    const auto& node = manifest.nodes[k];
    for (const auto& name : {node.schedule, node.instance, node.journal, sched::node_file_name(k, ".step.log")}) {
      used.push_back(plan / name);
    }
  }
  if (options.launch_options.size() == 2) used.emplace_back(options.launch_options[1]);  // --platform FILE
  // weakly_canonical: a symbolic link or a "plan/./manifest.json" names the same file.
  std::error_code target_error;
  const fs::path target = fs::weakly_canonical(fs::absolute(output), target_error);
  for (const auto& file : used) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(file, error);
    if (!target_error && !error && canonical == target) {
      throw UsageError(fmt::format("{}: is {}, which the script's jobs use; --force does not replace it: "
                                   "write the script elsewhere (e.g. {})",
                                   output.string(), file.string(), (plan / "job.sbatch").string()));
    }
  }
}

}  // namespace cosched::launcher::slurm
