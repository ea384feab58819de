#pragma once
// Tables to tasks: a workload plus profile tables become the scheduling core's instance (sched::Instance, written
// as the Instance JSON by sched::instance_to_json; docs/formats.md):
//   {"resources": [{"name": "cores", "capacity": P1}, {"name": "fast_chunks", "capacity": P2}],
//    "tasks": [{"id": "triad-256MiB-0", "kernel": "triad", "footprint_bytes": ..., "passes": 1, "times": [...]}]}
// (the task fields as config::to_json writes them).
// `times` is dense over every allocation (p_cores, p_chunks), row-major (cores slowest), null where infeasible
// (no core). Grid points the profile lacks are filled by fill_monotone_grid (interpolation.hpp); the platform's
// chunks are converted to fast bytes capped at the footprint, so profiles measured with another chunk size
// still apply and chunks beyond the footprint give no benefit.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/profiler/profile.hpp"
#include "cosched/profiler/traffic.hpp"
#include "cosched/sched/model.hpp"

namespace cosched::profiler {

// Profile rows with the chunk size they were measured with (from each CSV's sidecar).
struct ProfileSet {
  struct Entry {
    ProfileRow row;
    double chunk_bytes = 0.0;
  };
  std::vector<Entry> entries;
  void add(const std::vector<ProfileRow>& rows, double chunk_bytes);
};

// Reads each CSV (read_profile_csv) and its JSON sidecar (read_profile_sidecar: chunk_bytes). Throws InputError
// for a missing sidecar, a malformed file, or a point present twice (naming both file:line).
[[nodiscard]] ProfileSet load_profile_set(const std::vector<std::filesystem::path>& csv_paths);

// Dense seconds of one task of (kernel, footprint) running `passes` passes on the platform, index
// p_cores * (P2 + 1) + p_chunks; +infinity for p_cores = 0. A profiled point gives fixed_s + passes x time_s
// (ProfileRow::run_time: a profile without fixed costs, passes x time_s). A STREAM footprint between two profiled
// ones is interpolated at equal fast fractions, linearly in the footprint: the fixed cost, and a pass's seconds
// per byte (each neighbour's passes scaled to this footprint, then blended). Throws InputError when the profile has
// no row for the kernel at that footprint and none on both sides of it, or only failed rows.
[[nodiscard]] std::vector<double> task_time_table(const ProfileSet& profiles, const std::string& kernel,
                                                  std::uint64_t footprint_bytes, const config::PlatformConfig& platform,
                                                  unsigned passes = 1);

// Resources "cores" and "fast_chunks" (the platform's capacities); per task the attributes config::to_json
// writes (kernel, footprint_bytes, passes); instance attributes "platform" {name, chunk_bytes} and "workload".
// Throws InputError for a command task (profiles time STREAM tasks only), when the profiles lack a kernel and
// footprint of the workload, or when the times exceed what an instance may hold (sched::check_serial_time).
// With `bandwidth` (the node's memory pools: `cosched instance --node`), the instance also carries the pools
// ("bandwidth") and every task's traffic at every allocation ("traffic_bytes", traffic.hpp).
[[nodiscard]] sched::Instance build_instance(const config::Workload& workload, const ProfileSet& profiles,
                                             const config::PlatformConfig& platform,
                                             const NodeBandwidth* bandwidth = nullptr);

// The STREAM kernels of `workload` (sorted, each once) whose profile rows carry no fixed cost per run
// (ProfileRow::fixed_s: an in-process `stream` profile, or a process profile at one pass count). Launched as
// processes (`cosched launch`, `cosched run`), such tasks also start, allocate, first-touch and validate, which
// their per-pass times do not hold: `cosched instance` says so, and how to profile for a launch.
[[nodiscard]] std::vector<std::string> kernels_without_fixed_cost(const config::Workload& workload,
                                                                  const ProfileSet& profiles);
// The one line `cosched instance` prints for those kernels (naming them, and how to profile for a launch); "" when
// every kernel's profile has its fixed cost.
[[nodiscard]] std::string fixed_cost_note(const config::Workload& workload, const ProfileSet& profiles);

// One line per command and per probed STREAM task kind of an instance build_instance made (its attributes
// "command_traffic" and "stream_traffic"): what its memory-demand probe measured and what the instance takes it to
// move (for a STREAM task, also the share of the bytes it counts), or why a command has no traffic.
[[nodiscard]] std::vector<std::string> probed_traffic_lines(const sched::Instance& instance);

// A task's traffic at every allocation, as an instance carries it: a STREAM task's counted bytes (task_traffic_table)
// corrected by its probe where it was probed; a command's bytes from its probe (`varies_chunks`: split by the fast
// fraction of its footprint), null when it was not probed (it then never contends). What the probe found goes to
// `found` under the task's key (the instance's "stream_traffic" / "command_traffic": probed_traffic_lines reads it).
[[nodiscard]] std::shared_ptr<const sched::TrafficTable> task_traffic(const config::WorkloadTask& task,
                                                                      const std::optional<PairedProbe>& probe,
                                                                      bool varies_chunks,
                                                                      const sched::BandwidthModel& model,
                                                                      const NodeBandwidth& bandwidth,
                                                                      const config::PlatformConfig& platform,
                                                                      nlohmann::json& found);

// A task's bytes per pool at every allocation (index p_cores * (P2 + 1) + p_chunks): all its passes and the
// set-up of its process (stream_setup_traffic).
[[nodiscard]] sched::TrafficTable task_traffic_table(const config::WorkloadTask& task, const NodeBandwidth& node,
                                                     const config::PlatformConfig& platform);

// The batch's instance from its tasks (build_instance, knowledge_instance): the platform and the workload named in
// its attributes with the traffic each command's and STREAM task's probe found (`command_traffic`,
// `stream_traffic`: objects, left out when empty), checked (sched::check_serial_time).
[[nodiscard]] sched::Instance assemble_batch_instance(std::vector<sched::Resource> resources,
                                                      std::vector<sched::Task> tasks,
                                                      const config::Workload& workload,
                                                      const config::PlatformConfig& platform,
                                                      const sched::BandwidthModel& model,
                                                      nlohmann::json command_traffic, nlohmann::json stream_traffic);

}  // namespace cosched::profiler
