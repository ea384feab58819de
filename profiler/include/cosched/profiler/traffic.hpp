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
#include <string>

#include "cosched/config/node_model.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/sched/bandwidth.hpp"

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
  sched::BandwidthModel model;
  std::size_t fast_pool = 0;
  std::size_t slow_pool = 0;
};

// The node file's pools as the scheduler's bandwidth model (GB/s -> bytes/s, provenance kept) and the pool of
// each tier; a node without a fast tier maps "fast" to the slow tier's pool (no task has fast bytes there).
[[nodiscard]] NodeBandwidth node_bandwidth(const config::NodeModel& node);

}  // namespace cosched::profiler
