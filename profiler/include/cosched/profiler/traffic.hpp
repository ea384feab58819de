#pragma once
// Traffic per task (issue 10): the bytes a STREAM task moves from each memory pool at every allocation, so that
// the instance knows each task's bandwidth demand (traffic / time) and the fluid model can share the pools.
//
// One pass of kernel K over a footprint F moves B = K.bytes_per_pass(F) bytes (STREAM counting, the kernel table).
// With f = fast_fraction(F, chunks) of it in the fast tier, the pass moves f*B bytes from the fast tier and
// (1 - f)*B*s from the slow tier, s the backend's slow pass factor: 1 on a real node, the emulation ratio for the
// emulated tier, whose kernels re-stream the slow part s times (docs/emulation.md). A task of P passes moves P
// times that, and a launched task — a stream_bench process — moves its set-up bytes besides (below).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/config/workload.hpp"
#include "cosched/sched/bandwidth.hpp"
#include "cosched/sched/model.hpp"
#include <nlohmann/json.hpp>

namespace cosched::profiler {

struct TierTraffic {
  double fast_bytes = 0.0;
  double slow_bytes = 0.0;
};

// Bytes one pass of `kernel` moves from each tier with `chunks` fast chunks on `platform` (its tier backend's
// slow pass factor). Throws UsageError for an unknown kernel.
[[nodiscard]] TierTraffic stream_traffic_per_pass(const std::string& kernel, std::uint64_t footprint_bytes,
                                                  unsigned chunks, const config::PlatformConfig& platform);

// What a stream_bench process moves besides its passes (issue 23, docs/fidelity.md): first touch writes every
// array once (the OS zeroes each fresh page just before, a 2 MiB huge page at a time, and the zeroed lines are
// still in the last-level cache when the initial values overwrite them: one write of the footprint reaches memory),
// and the full validation of the fresh arrays after the last pass reads every array once. So 2 F bytes, split
// between the tiers by the fast fraction and never re-streamed (the emulated tier re-streams kernel passes only).
// Before issue 23 these bytes were left out, and a process's set-up counted as time that never contends.
inline constexpr double kSetupFootprints = 2.0;
[[nodiscard]] TierTraffic stream_setup_traffic(std::uint64_t footprint_bytes, unsigned chunks,
                                               const config::PlatformConfig& platform);

// The node's memory pools and which one serves each tier (the same one for an emulated tier: one DRAM).
struct NodeBandwidth {
  sched::BandwidthModel model;  // each pool's curve as the node file gives it (calibrate: the median over kernels)
  std::size_t fast_pool = 0;
  std::size_t slow_pool = 0;
  // Per pool (as model.pools), the calibrated kernels' own curves, by kernel name (empty for a documented model).
  std::vector<std::map<std::string, sched::BandwidthPool>> kernel_curves;
};

// The node file's pools as the scheduler's bandwidth model (GB/s -> bytes/s, provenance kept) and the pool of
// each tier; a node without a fast tier maps "fast" to the slow tier's pool (no task has fast bytes there).
[[nodiscard]] NodeBandwidth node_bandwidth(const config::NodeModel& node);

// Share of a STREAM kernel's bytes that are written (STREAM counting: triad 1/3, copy 1/2, ddot 0, write 1);
// nullopt for a kernel that is not element-wise (gemm, stencil, spmv, gups) or not in the kernel table.
[[nodiscard]] std::optional<double> written_share(std::string_view kernel);

// The bandwidth model a batch's tasks share (issue 24). Kernels fill a pool at different aggregate bandwidths
// (this VM, two cores: ddot 33-36, triad 27-30, write 15-34 GB/s between calibrations), and a task's traffic is
// counted the STREAM way of its own kernel, so the curve that says when co-runners fill a pool is that of a kernel
// that reads and writes as they do. Per pool with calibrated kernel curves: when every STREAM task of the batch
// is element-wise and nearest (written_share) to the same calibrated kernel — triad for a batch of triad and copy
// — that kernel's curve, named in the provenance ("pool_curve"). A batch of commands only, whose traffic is read off
// their memory-demand probes (probed_traffic), gets the calibrated kernel curve that shares the pool least well
// between two halves of its cores: under a curve where two copies never slow each other, a probe that slowed says
// each copy moves more than the curve gives its cores alone (this VM: ddot's and write's curves double from one
// core to two, triad's does not). Otherwise
// (kernels nearest to different ones, kernels that are not element-wise, a documented model without kernel
// curves) each pool's node-file curve, the median over kernels, as a compromise for the mix.
[[nodiscard]] sched::BandwidthModel batch_bandwidth_model(const NodeBandwidth& node, const config::Workload& workload);

// A task's traffic, measured (issue 24 for commands, issue 23 for STREAM tasks). A command is a closed box: nothing
// counts the bytes it moves; a STREAM task counts its bytes, but a cache may serve part of them (this VM's guest
// sees a 260 MiB L3, and the emulated tier re-streams its slow part). The memory-demand probe (CommandMeasurer,
// ProcessMeasurer) ran the task alone and as two copies side by side, each on `cores` cores with its memory in the
// slow tier's pool; the fluid model's inverse (sched::paired_demand) gives the average bytes/s at which the model
// slows such a pair as much as it was slowed, and that times the time alone is what one run moves.
struct PairedProbe {
  unsigned cores = 0;
  double alone_s = 0.0;   // one run alone (ProfileRow::run_time of the task's passes)
  double paired_s = 0.0;  // the same run beside a copy (alone_s x ProfileRow::paired_s / time_s)
  // The spread of the copies' runs, in paired_s's unit (ProfileRow::paired_min_s, paired_max_s); unset for a
  // profile written before it was recorded.
  std::optional<double> paired_min_s{};
  std::optional<double> paired_max_s{};
};
struct ProbedTraffic {
  double bytes = 0.0;            // per run
  sched::PairedDemand demand{};  // what the inversion found, from the median slowdown
  // The averages that fit the probe's spread (sched::paired_demand_range): how far the reading can be trusted,
  // reported with it (its median is what the prediction uses: the replay of 210 kept plans found no rule that
  // takes the spread into account doing better, docs/fidelity.md "The probe's spread"). Unset without a spread.
  std::optional<sched::PairedDemandRange> fits{};
  [[nodiscard]] nlohmann::json to_json(const PairedProbe& probe) const;  // for the instance's provenance
};
[[nodiscard]] ProbedTraffic probed_traffic(const sched::BandwidthModel& model, std::size_t slow_pool,
                                           const PairedProbe& probe);
// A STREAM task's counted table (task_traffic_table) corrected by its probe: the share of the bytes it counts at
// the probe's allocation (probe.cores cores, no fast chunk: all of it slow, the emulated tier's re-streams included)
// that the probe says reach memory, applied at every allocation whose memory is all slow (no fast chunk, any core
// count). With fast chunks a cache serves another part (a smaller slow part re-streamed, a fast part streamed
// once), which the probe did not see: there the counted bytes stand (docs/fidelity.md: co-running tasks with fast
// chunks ran 1.09 x the prediction with the all-slow share, 0.83 x with the counted bytes; their plans' median
// error 6.9 % against 4.0 %). `found` records what was measured.
[[nodiscard]] sched::TrafficTable probed_stream_traffic(sched::TrafficTable counted, const ProbedTraffic& probed,
                                                        const PairedProbe& probe,
                                                        const config::PlatformConfig& platform,
                                                        nlohmann::json& found);
// A task's bytes per pool at every allocation (index p_cores * (P2 + 1) + p_chunks) from its bytes per tier at each
// fast-chunk count, the same at every core count: each tier's bytes go to the pool that serves it (one rule for
// STREAM tasks and commands).
[[nodiscard]] sched::TrafficTable traffic_at_every_allocation(
    const std::function<TierTraffic(unsigned chunks)>& at_chunks, const NodeBandwidth& node,
    const config::PlatformConfig& platform);
// `bytes` per run at every allocation (index p_cores * (P2 + 1) + p_chunks), split by the fast fraction of
// `footprint_bytes` (all slow for a command without a footprint).
[[nodiscard]] sched::TrafficTable command_traffic_table(double bytes, std::uint64_t footprint_bytes,
                                                        const NodeBandwidth& node,
                                                        const config::PlatformConfig& platform);

}  // namespace cosched::profiler
