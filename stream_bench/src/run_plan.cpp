#include "run_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "system_memory.hpp"

namespace cosched::stream {

std::string_view to_string(StoreMode mode) noexcept {
  switch (mode) {
    case StoreMode::automatic: return "auto";
    case StoreMode::streaming: return "nt";
    case StoreMode::regular: return "regular";
  }
  return "?";
}

StoreMode parse_store_mode(std::string_view text) {
  for (StoreMode mode : {StoreMode::automatic, StoreMode::streaming, StoreMode::regular}) {
    if (to_string(mode) == text) return mode;
  }
  throw UsageError(fmt::format("unknown store mode \"{}\"; valid: auto, nt, regular", text));
}

std::size_t required_bytes(const StreamConfig& config) {
  const std::size_t arrays = find_kernel(config.kernel).touched().size();
  const std::size_t array_bytes = config.array_bytes / sizeof(double) * sizeof(double);
  std::size_t total = 0;
  // Saturate instead of wrapping: an absurd size must fail the memory check, not pass it.
  return __builtin_mul_overflow(arrays, array_bytes, &total) ? SIZE_MAX : total;
}

std::size_t available_memory_bytes() { return detail::read_available_memory_bytes(); }

namespace detail {

namespace {

std::vector<unsigned> choose_cores(const StreamConfig& config, std::size_t allowed) {
  if (config.cores.empty()) {
    if (config.threads > allowed) {
      throw ResourceError(fmt::format("{} threads requested but this process may use only {} cores (its cpuset)",
                                      config.threads, allowed));
    }
    std::vector<unsigned> first(config.threads);
    for (unsigned k = 0; k < config.threads; ++k) first[k] = k;
    return first;
  }
  if (config.cores.size() != config.threads) {
    throw UsageError(fmt::format("{} cores listed ({}) for {} threads: give one core per thread",
                                 config.cores.size(), fmt::join(config.cores, ","), config.threads));
  }
  for (unsigned core : config.cores) {
    if (core >= allowed) {
      throw ResourceError(fmt::format("core index {} does not exist: this process may use cores 0..{}", core,
                                      allowed - 1));
    }
  }
  std::vector<unsigned> sorted = config.cores;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw UsageError(fmt::format("cores {} list a core twice: each thread needs its own core",
                                 fmt::join(config.cores, ",")));
  }
  return config.cores;
}

}  // namespace

bool streaming_stores_win(std::size_t footprint_bytes) {
  // Measured (docs/stream_bench.md): once the arrays cannot stay in the last-level cache, regular stores pay a
  // write-allocate read per destination line and streaming stores win; in cache, regular stores win.
  return footprint_bytes > last_level_cache_bytes();
}

RunPlan plan_run(const StreamConfig& config) {
  RunPlan plan;
  plan.kernel = &find_kernel(config.kernel);
  if (config.threads == 0) throw UsageError("threads must be at least 1");
  if (config.reps == 0) throw UsageError("reps must be at least 1");
  plan.count = config.array_bytes / sizeof(double);
  if (plan.count == 0) {
    throw UsageError(fmt::format("array size of {} bytes holds no double: give at least {} bytes",
                                 config.array_bytes, sizeof(double)));
  }
  const auto allowed = platform::allowed_cores();
  plan.cores = choose_cores(config, allowed.size());
  for (unsigned core : plan.cores) plan.core_pus.push_back(allowed[core]);
  plan.fast_count = config.fast_fraction ? platform::fast_element_count(plan.count, *config.fast_fraction) : 0;

  const std::size_t needed = required_bytes(config);
  const std::size_t available = available_memory_bytes();
  if (needed > available) {
    throw ResourceError(fmt::format("kernel {} needs {} arrays of {} bytes = {:.1f} MiB, but only {:.1f} MiB of "
                                    "memory is available",
                                    plan.kernel->name, plan.kernel->touched().size(), config.array_bytes,
                                    static_cast<double>(needed) / (1 << 20),
                                    static_cast<double>(available) / (1 << 20)));
  }
  plan.streaming_stores = config.stores == StoreMode::streaming ||
                          (config.stores == StoreMode::automatic && streaming_stores_win(needed));
  return plan;
}

}  // namespace detail
}  // namespace cosched::stream
