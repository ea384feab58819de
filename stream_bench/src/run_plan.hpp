#pragma once
// A StreamConfig checked against this machine and turned into concrete numbers: which kernel, which cores
// (and their PUs), how many elements, how many of them in the fast tier, which store mode.
#include <cstddef>
#include <vector>

#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"

namespace cosched::stream::detail {

struct RunPlan {
  const KernelSpec* kernel = nullptr;
  std::vector<unsigned> cores;                  // indices into allowed_cores(), one per thread
  std::vector<std::vector<unsigned>> core_pus;  // the PUs of each of those cores
  std::size_t count = 0;                        // elements per array
  std::size_t fast_count = 0;                   // of them in the fast tier
  bool streaming_stores = false;
};

// Throws UsageError for a malformed config, ResourceError when cores or memory do not fit.
[[nodiscard]] RunPlan plan_run(const StreamConfig& config);

// The store mode `automatic` resolves to for a kernel whose arrays total `footprint_bytes`.
[[nodiscard]] bool streaming_stores_win(std::size_t footprint_bytes);

}  // namespace cosched::stream::detail
