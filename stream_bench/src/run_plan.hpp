#pragma once
// A StreamConfig checked against this machine and turned into concrete numbers: which kernel, which cores
// (and their PUs), how many elements, how many of them in the fast tier, which store mode.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cosched/stream/kernels.hpp"
#include "cosched/stream/stream_run.hpp"

namespace cosched::stream::detail {

// The cores a team runs on, one per thread.
struct Team {
  std::vector<unsigned> cores;                  // indices into allowed_cores()
  std::vector<std::vector<unsigned>> core_pus;  // the PUs of each of those cores
};

// `cores` (empty: the first `threads` allowed cores) checked against this process's cpuset. Throws UsageError for
// a core listed twice or a count that does not match, ResourceError for cores that do not exist.
[[nodiscard]] Team plan_team(unsigned threads, const std::vector<unsigned>& cores);

struct RunPlan {
  const KernelSpec* kernel = nullptr;
  std::vector<unsigned> cores;                  // indices into allowed_cores(), one per thread
  std::vector<std::vector<unsigned>> core_pus;  // the PUs of each of those cores
  KernelShape shape;                            // the kernel sized for the config's footprint
  std::vector<std::size_t> fast_words;          // per array of the shape: words in the fast tier
  bool streaming_stores = false;
};

// The footprint a config asks for: array_bytes (whole doubles) times the kernel's array_count(), saturated.
[[nodiscard]] std::uint64_t config_footprint(const KernelSpec& kernel, std::size_t array_bytes) noexcept;

// Each array's fast words for a fast fraction (unset: none): the platform's page-rounded share, rounded up to
// whole granules and capped at the array.
[[nodiscard]] std::vector<std::size_t> fast_words_for(const KernelShape& shape, std::optional<double> fast_fraction);

// Throws UsageError for a malformed config, ResourceError when cores or memory do not fit.
[[nodiscard]] RunPlan plan_run(const StreamConfig& config);

// The store mode `automatic` resolves to for a kernel whose arrays total `footprint_bytes`.
[[nodiscard]] bool streaming_stores_win(std::size_t footprint_bytes);

}  // namespace cosched::stream::detail
