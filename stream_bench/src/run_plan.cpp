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
  const KernelSpec& kernel = find_kernel(config.kernel);
  const std::uint64_t footprint = detail::config_footprint(kernel, config.array_bytes);
  if (footprint == UINT64_MAX) return SIZE_MAX;
  return static_cast<std::size_t>(kernel.shape(footprint).footprint_bytes());
}

std::size_t available_memory_bytes() { return detail::read_available_memory_bytes(); }

namespace detail {

namespace {

std::vector<unsigned> choose_cores(unsigned threads, const std::vector<unsigned>& cores, std::size_t allowed) {
  if (cores.empty()) {
    if (threads > allowed) {
      throw ResourceError(fmt::format("{} threads requested but this process may use only {} cores (its cpuset)",
                                      threads, allowed));
    }
    std::vector<unsigned> first(threads);
    for (unsigned k = 0; k < threads; ++k) first[k] = k;
    return first;
  }
  if (cores.size() != threads) {
    throw UsageError(fmt::format("{} cores listed ({}) for {} threads: give one core per thread", cores.size(),
                                 fmt::join(cores, ","), threads));
  }
  for (unsigned core : cores) {
    if (core >= allowed) {
      throw ResourceError(fmt::format("core index {} does not exist: this process may use cores 0..{}", core,
                                      allowed - 1));
    }
  }
  std::vector<unsigned> sorted = cores;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw UsageError(fmt::format("cores {} list a core twice: each thread needs its own core", fmt::join(cores, ",")));
  }
  return cores;
}

}  // namespace

Team plan_team(unsigned threads, const std::vector<unsigned>& cores) {
  if (threads == 0) throw UsageError("threads must be at least 1");
  const auto allowed = platform::allowed_cores();
  Team team;
  team.cores = choose_cores(threads, cores, allowed.size());
  for (unsigned core : team.cores) team.core_pus.push_back(allowed[core]);
  return team;
}

std::uint64_t config_footprint(const KernelSpec& kernel, std::size_t array_bytes) noexcept {
  const std::uint64_t whole = array_bytes / sizeof(double) * sizeof(double);
  std::uint64_t total = 0;
  // Saturate instead of wrapping: an absurd size must fail the memory check, not pass it.
  return __builtin_mul_overflow(whole, std::uint64_t{kernel.array_count()}, &total) ? UINT64_MAX : total;
}

std::vector<std::size_t> fast_words_for(const KernelShape& shape, std::optional<double> fast_fraction) {
  std::vector<std::size_t> fast;
  for (const ArrayLayout& array : shape.arrays) {
    if (!fast_fraction || array.words == 0) {
      fast.push_back(0);
      continue;
    }
    const std::size_t words = platform::fast_element_count(array.words, *fast_fraction);
    // Whole granules, rounded down like the pages (never more fast bytes than asked), unless the array is whole.
    fast.push_back(words == array.words ? words : words / array.granule * array.granule);
  }
  return fast;
}

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
  if (config.array_bytes < sizeof(double)) {
    throw UsageError(fmt::format("array size of {} bytes holds no double: give at least {} bytes",
                                 config.array_bytes, sizeof(double)));
  }
  const std::uint64_t footprint = config_footprint(*plan.kernel, config.array_bytes);
  const std::size_t available = available_memory_bytes();
  // An absurd footprint fails the memory check before anything is sized from it.
  if (footprint <= available) {
    plan.shape = plan.kernel->shape(footprint);
    if (!plan.shape.too_small.empty()) {
      throw UsageError(fmt::format("kernel {} cannot run in {} bytes ({} arrays of {} bytes): {}", plan.kernel->name,
                                   footprint, plan.kernel->array_count(), config.array_bytes, plan.shape.too_small));
    }
  }
  Team team = plan_team(config.threads, config.cores);
  plan.cores = std::move(team.cores);
  plan.core_pus = std::move(team.core_pus);

  const std::size_t needed = footprint <= available ? plan.shape.footprint_bytes() : SIZE_MAX;
  if (needed > available) {
    throw ResourceError(fmt::format("kernel {} needs {} arrays of {} bytes = {:.1f} MiB, but only {:.1f} MiB of "
                                    "memory is available",
                                    plan.kernel->name, plan.kernel->array_count(), config.array_bytes,
                                    static_cast<double>(footprint) / (1 << 20),
                                    static_cast<double>(available) / (1 << 20)));
  }
  plan.fast_words = fast_words_for(plan.shape, config.fast_fraction);
  plan.streaming_stores = config.stores == StoreMode::streaming ||
                          (config.stores == StoreMode::automatic && streaming_stores_win(needed));
  return plan;
}

}  // namespace detail
}  // namespace cosched::stream
