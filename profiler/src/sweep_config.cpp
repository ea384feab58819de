#include "cosched/profiler/sweep_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/config/toml_table.hpp"
#include "cosched/config/workload.hpp"

namespace cosched::profiler {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// `values` without repeats; else InputError at the key naming the repeated value.
template <typename T>
std::vector<T> without_repeats(std::vector<T> values, const config::TomlTable& root, const char* key) {
  std::set<T> seen;
  for (const auto& value : values) {
    if (!seen.insert(value).second) {
      throw InputError(root.where(key), fmt::format("key '{}' lists {} twice", key, value));
    }
  }
  return values;
}

}  // namespace

SweepConfig load_sweep_config(const std::filesystem::path& path) {
  const auto root = config::TomlTable::parse_file(path, "sweep config");
  root.allow_only({"description", "kernels", "footprints_mib", "footprints_percent_of_fast", "cores", "chunks", "reps",
                   "warmup", "passes", "platform", "tier_backend", "emulation_ratio", "measurer"});
  SweepConfig sweep;
  sweep.kernels = without_repeats(root.strings("kernels").value_or(std::vector<std::string>{}), root, "kernels");
  const auto max_mib = static_cast<double>(config::kMaxFootprintBytes) / kMiB;
  sweep.footprints_mib = without_repeats(root.numbers("footprints_mib", positive_up_to(max_mib)).value_or(
                                             std::vector<double>{}), root, "footprints_mib");
  sweep.footprints_percent_of_fast =
      without_repeats(root.numbers("footprints_percent_of_fast", positive_up_to(config::kMaxFootprintPercentOfFast))
                          .value_or(std::vector<double>{}), root, "footprints_percent_of_fast");
  sweep.cores = root.counts("cores", config::kMaxCores).value_or(std::vector<unsigned>{});
  sweep.chunks = root.counts("chunks", config::kMaxFastChunks).value_or(std::vector<unsigned>{});
  sweep.reps = static_cast<unsigned>(root.integer("reps", 1, kMaxSweepReps).value_or(sweep.reps));
  sweep.warmup = static_cast<unsigned>(root.integer("warmup", 0, kMaxSweepWarmup).value_or(sweep.warmup));
  sweep.passes = static_cast<unsigned>(root.integer("passes", 1, config::kMaxPasses).value_or(sweep.passes));
  if (const auto platform = root.string("platform")) sweep.platform_file = path.parent_path() / *platform;
  sweep.tier_backend = root.string("tier_backend");
  sweep.emulation_ratio =
      root.number("emulation_ratio", Range{config::kMinEmulationRatio, config::kMaxEmulationRatio, true, true});
  if (const auto measurer = root.string("measurer")) {
    const auto names = measurer_names();
    if (std::find(names.begin(), names.end(), *measurer) == names.end()) {
      throw InputError(root.where("measurer"), fmt::format("key 'measurer': unknown measurer '{}' (known: {})",
                                                           *measurer, fmt::join(names, ", ")));
    }
    sweep.measurer = *measurer;
  }
  return sweep;
}

std::vector<std::uint64_t> resolve_footprints(const SweepConfig& sweep, const config::PlatformConfig& platform) {
  std::vector<std::pair<std::uint64_t, std::string>> footprints;  // bytes, as given
  for (const double mib : sweep.footprints_mib) {
    footprints.emplace_back(config::footprint_bytes_from_mib(mib), fmt::format("{} MiB", mib));
  }
  for (const double percent : sweep.footprints_percent_of_fast) {
    footprints.emplace_back(config::footprint_from_percent(percent, platform),
                            fmt::format("{} % of the fast tier of platform {}", percent, platform.name));
  }
  std::sort(footprints.begin(), footprints.end());
  std::vector<std::uint64_t> bytes;
  for (std::size_t i = 0; i < footprints.size(); ++i) {
    const auto& [value, given] = footprints[i];
    if (value == 0) throw UsageError(fmt::format("the footprint {} rounds to 0 bytes", given));
    if (i > 0 && footprints[i - 1].first == value) {
      throw UsageError(fmt::format("the footprint of {} bytes is given twice ({} and {})", value,
                                   footprints[i - 1].second, given));
    }
    bytes.push_back(value);
  }
  return bytes;
}

std::vector<ProfilePoint> expand_sweep(const SweepConfig& sweep, const config::PlatformConfig& platform) {
  if (sweep.kernels.empty()) throw UsageError("no kernels to profile (--kernels or 'kernels' in the config)");
  std::set<std::string> kernels;
  for (const auto& kernel : sweep.kernels) {
    if (!kernels.insert(kernel).second) throw UsageError(fmt::format("kernel '{}' is given twice", kernel));
  }
  const auto footprints = resolve_footprints(sweep, platform);
  if (footprints.empty()) {
    throw UsageError("no footprints to profile (--footprints-mib, or 'footprints_mib' / "
                     "'footprints_percent_of_fast' in the config)");
  }
  if (sweep.reps < 1 || sweep.reps > kMaxSweepReps) {
    throw UsageError(fmt::format("reps must be from 1 to {}, got {}", kMaxSweepReps, sweep.reps));
  }
  if (sweep.warmup > kMaxSweepWarmup) {
    throw UsageError(fmt::format("warmup must be from 0 to {}, got {}", kMaxSweepWarmup, sweep.warmup));
  }
  if (sweep.passes < 1 || sweep.passes > config::kMaxPasses) {
    throw UsageError(fmt::format("passes must be from 1 to {}, got {}", config::kMaxPasses, sweep.passes));
  }
  std::vector<unsigned> cores = sweep.cores;
  if (cores.empty()) {
    for (unsigned c = 1; c <= platform.cores; ++c) cores.push_back(c);
  }
  std::vector<unsigned> chunks = sweep.chunks;
  if (chunks.empty()) {
    for (unsigned k = 0; k <= platform.fast_chunks; ++k) chunks.push_back(k);
  }
  for (unsigned c : cores) {
    if (c == 0 || c > platform.cores) {
      throw UsageError(fmt::format("core count {} outside 1..{} (platform {})", c, platform.cores, platform.name));
    }
  }
  for (unsigned k : chunks) {
    if (k > platform.fast_chunks) {
      throw UsageError(fmt::format("chunk count {} outside 0..{} (platform {})", k, platform.fast_chunks,
                                   platform.name));
    }
  }
  const double total = static_cast<double>(sweep.kernels.size()) * static_cast<double>(footprints.size()) *
                       static_cast<double>(cores.size()) * static_cast<double>(chunks.size());
  if (total > kMaxSweepPoints) {
    throw UsageError(fmt::format("the sweep has {:g} points (kernels x footprints x cores x chunks), at most {:g}",
                                 total, kMaxSweepPoints));
  }
  std::vector<ProfilePoint> points;
  for (const auto& kernel : sweep.kernels) {
    for (auto footprint : footprints) {
      for (unsigned c : cores) {
        for (unsigned k : chunks) points.push_back({kernel, footprint, c, k});
      }
    }
  }
  return points;
}

}  // namespace cosched::profiler
