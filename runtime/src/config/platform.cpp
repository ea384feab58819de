#include "cosched/config/platform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "cosched/common/checked.hpp"
#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/config/toml_table.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::config {
namespace {

constexpr double kGiB = kBytesPerMiB * 1024.0;

const Range kEmulationRatio{kMinEmulationRatio, kMaxEmulationRatio, true, true};

unsigned allowed_core_count() { return static_cast<unsigned>(platform::allowed_cores().size()); }

unsigned read_cores(const TomlTable& root) {
  if (!root.contains("cores")) throw InputError(root.source(), "missing key 'cores' (a count or \"auto\")");
  if (root.holds_string("cores")) {
    if (*root.string("cores") != "auto") {
      throw InputError(root.where("cores"), fmt::format("key 'cores' must be an integer from 1 to {} or \"auto\"",
                                                        kMaxCores));
    }
    return std::min(allowed_core_count(), kMaxCores);
  }
  return static_cast<unsigned>(*root.integer("cores", 1, kMaxCores));
}

std::string check_backend(const std::string& name, const std::string& where, const std::string& key) {
  const auto names = platform::tier_backend_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw InputError(where,
                     fmt::format("key '{}': unknown backend '{}' (known: {})", key, name, fmt::join(names, ", ")));
  }
  return name;
}

std::uint64_t read_capacity(const TomlTable& fast, const platform::TierOptions& tier) {
  const bool gib = fast.contains("capacity_gib");
  const bool mib = fast.contains("capacity_mib");
  const bool bytes = fast.contains("capacity_bytes");
  if (fast.contains("capacity")) {
    if (gib || mib || bytes || !fast.holds_string("capacity") || *fast.string("capacity") != "auto") {
      throw InputError(fast.where("capacity"),
                       "key 'fast_memory.capacity' only takes \"auto\" (the backend's fast tier on this machine) "
                       "and excludes capacity_gib / capacity_mib / capacity_bytes");
    }
    const std::uint64_t detected = platform::fast_tier_capacity_bytes(tier);
    if (detected == 0) {
      throw InputError(fast.where("capacity"), fmt::format("capacity = \"auto\": backend '{}' has no fast tier on "
                                                           "this machine", tier.backend));
    }
    return std::min<std::uint64_t>(detected, kMaxFastCapacityBytes);
  }
  if (int(gib) + int(mib) + int(bytes) != 1) {
    throw InputError(fast.where(), "[fast_memory] needs exactly one of capacity_gib, capacity_mib, capacity_bytes, "
                                   "capacity = \"auto\"");
  }
  if (bytes) {
    return static_cast<std::uint64_t>(
        *fast.integer("capacity_bytes", 1, static_cast<std::int64_t>(kMaxFastCapacityBytes)));
  }
  const char* key = gib ? "capacity_gib" : "capacity_mib";
  const double unit = gib ? kGiB : kBytesPerMiB;
  const double value = *fast.number(key, positive_up_to(static_cast<double>(kMaxFastCapacityBytes) / unit));
  const auto rounded = static_cast<std::uint64_t>(std::llround(value * unit));
  if (rounded == 0) throw InputError(fast.where(key), fmt::format("key 'fast_memory.{}' rounds to 0 bytes", key));
  return rounded;
}

PlatformConfig read_platform(const TomlTable& root, const std::string& default_name) {
  root.allow_only({"name", "description", "cores", "fast_memory"});
  PlatformConfig config;
  config.source = root.source();
  config.name = root.string("name").value_or(default_name);
  if (root.contains("name")) check_identifier(config.name, root.where("name"));
  config.description = root.string("description").value_or("");
  config.cores = read_cores(root);

  const auto fast = root.table("fast_memory");
  if (!fast) throw InputError(root.source(), "missing table [fast_memory] (capacity and chunks of the fast tier)");
  fast->allow_only({"capacity", "capacity_gib", "capacity_mib", "capacity_bytes", "chunks", "tier_backend",
                    "emulation_ratio"});
  const auto chunks = fast->integer("chunks", 1, kMaxFastChunks);
  if (!chunks) {
    throw InputError(fast->where(), fmt::format("missing key 'fast_memory.chunks' (1 to {})", kMaxFastChunks));
  }
  config.fast_chunks = static_cast<unsigned>(*chunks);
  config.tier_backend = check_backend(fast->string("tier_backend").value_or("auto"), fast->where("tier_backend"),
                                      "fast_memory.tier_backend");
  config.emulation_ratio = fast->number("emulation_ratio", kEmulationRatio).value_or(kDefaultEmulationRatio);
  platform::TierOptions tier;
  tier.backend = config.tier_backend;
  tier.emulation_ratio = config.emulation_ratio;
  config.fast_capacity_bytes = read_capacity(*fast, tier);
  if (config.fast_capacity_bytes < config.fast_chunks) {
    throw InputError(fast->where(), fmt::format("[fast_memory] has {} chunks but only {} bytes: a chunk needs at "
                                                "least one byte", config.fast_chunks, config.fast_capacity_bytes));
  }
  return config;
}

}  // namespace

PlatformConfig load_platform_config(const std::filesystem::path& path) {
  return read_platform(TomlTable::parse_file(path, "platform file"), path.stem().string());
}

PlatformConfig parse_platform_toml(std::string_view text, const std::string& source) {
  return read_platform(TomlTable::parse(text, source), std::filesystem::path(source).stem().string());
}

std::string to_toml(const PlatformConfig& platform) {
  if (platform.fast_chunks == 0) {
    throw UsageError(fmt::format("platform '{}' has no fast tier: a platform file needs one", platform.name));
  }
  const auto quoted = [](const std::string& text) { return toml_basic_string(text); };
  std::string text = fmt::format("name = {}\n", quoted(platform.name));
  if (!platform.description.empty()) text += fmt::format("description = {}\n", quoted(platform.description));
  text += fmt::format("cores = {}\n\n[fast_memory]\ncapacity_bytes = {}\nchunks = {}\ntier_backend = {}\n"
                      "emulation_ratio = {}\n",
                      platform.cores, platform.fast_capacity_bytes, platform.fast_chunks,
                      quoted(platform.tier_backend), fmt::format("{:.17g}", platform.emulation_ratio));
  return text;
}

void to_json(nlohmann::json& out, const PlatformConfig& platform) {
  out = {{"name", platform.name},
          {"description", platform.description},
          {"source", platform.source},
          {"cores", platform.cores},
          {"fast_capacity_bytes", platform.fast_capacity_bytes},
          {"fast_chunks", platform.fast_chunks},
          {"chunk_bytes", platform.chunk_bytes()},
          {"tier_backend", platform.tier_backend},
          {"emulation_ratio", platform.emulation_ratio}};
}

void check_platform(const PlatformConfig& platform, const std::string& what) {
  const auto refuse = [&](const std::string& message) {
    throw UsageError(fmt::format("{}: {} (platform '{}')", what, message, platform.name));
  };
  if (platform.cores < 1 || platform.cores > kMaxCores) {
    refuse(fmt::format("{} cores outside 1..{}", platform.cores, kMaxCores));
  }
  if (platform.fast_chunks > kMaxFastChunks) {
    refuse(fmt::format("{} fast chunks, at most {} are supported", platform.fast_chunks, kMaxFastChunks));
  }
  if (platform.fast_capacity_bytes > kMaxFastCapacityBytes || platform.fast_capacity_bytes < platform.fast_chunks) {
    refuse(fmt::format("{} fast bytes for {} chunks", platform.fast_capacity_bytes, platform.fast_chunks));
  }
  if (!kEmulationRatio.contains(platform.emulation_ratio)) {
    refuse(fmt::format("emulation ratio {} outside {}", platform.emulation_ratio, kEmulationRatio.describe()));
  }
}

PlatformConfig this_machine_platform(const std::string& tier_backend, double emulation_ratio, unsigned chunks,
                                     std::uint64_t emulated_fast_bytes) {
  platform::TierOptions tier;
  tier.backend = tier_backend;
  tier.emulation_ratio = emulation_ratio;
  tier.emulated_fast_bytes = static_cast<std::size_t>(emulated_fast_bytes);
  PlatformConfig config;
  config.name = "this-machine";
  config.source = "this machine";
  config.cores = std::min(allowed_core_count(), kMaxCores);
  config.emulation_ratio = emulation_ratio;
  config.tier_backend = platform::resolve_tier_backend_name(tier);
  config.fast_capacity_bytes = std::min<std::uint64_t>(platform::fast_tier_capacity_bytes(tier), kMaxFastCapacityBytes);
  config.fast_chunks = config.fast_capacity_bytes == 0 ? 0 : chunks;  // no fast tier: nothing to divide
  check_platform(config, "this machine");
  return config;
}

PlatformConfig knl_7210_flat_platform() {
  PlatformConfig config;
  config.name = "knl-7210-flat";
  config.description = "KNL 7210, flat memory mode: 64 cores, 16 GiB MCDRAM in 20 chunks, DDR4 as the slow tier";
  config.cores = 64;
  config.fast_capacity_bytes = 16ULL << 30;
  config.fast_chunks = 20;
  config.tier_backend = "memkind";
  config.source = "built-in";
  return config;
}

std::uint64_t footprint_bytes_from_mib(double mib) {
  return static_cast<std::uint64_t>(std::llround(mib * kBytesPerMiB));
}

std::uint64_t footprint_from_percent(double percent, const PlatformConfig& platform) {
  const double bytes = percent / 100.0 * static_cast<double>(platform.fast_capacity_bytes);
  return static_cast<std::uint64_t>(std::floor(bytes / kBytesPerMiB)) * (1ULL << 20);
}

RunPlatform run_platform(const std::string& platform_file, const std::string& tier_backend, unsigned chunks) {
  RunPlatform result;
  if (!platform_file.empty()) result.platform_file = load_platform_config(platform_file);
  result.node = result.platform_file ? *result.platform_file
                                     : this_machine_platform(tier_backend.empty() ? "auto" : tier_backend,
                                                             kDefaultEmulationRatio, chunks);
  if (!tier_backend.empty()) result.node.tier_backend = tier_backend;
  return result;
}

}  // namespace cosched::config
