#include "cosched/profiler/platform_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <cmath>

#include "cosched/common/error.hpp"
#include "cosched/platform/binding.hpp"
#include "cosched/platform/tier_backends.hpp"
#include "toml_fields.hpp"

namespace cosched::profiler {
namespace {

namespace tf = toml_fields;

unsigned read_cores(const toml::table& root, const std::filesystem::path& path) {
  const auto* node = root.get("cores");
  if (node == nullptr) throw InputError(path.string(), "missing key 'cores' (a count or \"auto\")");
  if (const auto* text = node->as_string()) {
    if (text->get() != "auto") {
      throw InputError(tf::where(path, *node), "key 'cores' must be a positive integer or \"auto\"");
    }
    return static_cast<unsigned>(platform::allowed_cores().size());
  }
  const auto count = tf::get_integer(root, "cores", path);
  if (*count < 1 || *count > 1'000'000) {
    throw InputError(tf::where(path, *node), fmt::format("key 'cores' must be at least 1, got {}", *count));
  }
  return static_cast<unsigned>(*count);
}

std::uint64_t read_capacity(const toml::table& fast, const std::filesystem::path& path,
                            const platform::TierOptions& tier) {
  if (const auto* node = fast.get("capacity"); node != nullptr) {
    if (fast.get("capacity_gib") || fast.get("capacity_mib") || fast.get("capacity_bytes") ||
        node->value_or(std::string_view{}) != "auto") {
      throw InputError(tf::where(path, *node),
                       "key 'fast_memory.capacity' only takes \"auto\" (the backend's fast tier on this machine) "
                       "and excludes capacity_gib / capacity_mib / capacity_bytes");
    }
    return platform::fast_tier_capacity_bytes(tier);
  }
  const auto gib = tf::get_number(fast, "capacity_gib", path);
  const auto mib = tf::get_number(fast, "capacity_mib", path);
  const auto bytes = tf::get_integer(fast, "capacity_bytes", path);
  const int given = int(gib.has_value()) + int(mib.has_value()) + int(bytes.has_value());
  if (given != 1) {
    throw InputError(tf::where(path, fast),
                     "[fast_memory] needs exactly one of capacity_gib, capacity_mib, capacity_bytes, capacity = \"auto\"");
  }
  const double value = gib ? *gib * 1024.0 * 1024.0 * 1024.0
                       : mib ? *mib * 1024.0 * 1024.0
                             : static_cast<double>(*bytes);
  if (!(value >= 1.0) || !std::isfinite(value)) {
    throw InputError(tf::where(path, fast), "[fast_memory] capacity must be positive");
  }
  return static_cast<std::uint64_t>(std::llround(value));
}

}  // namespace

PlatformConfig load_platform_config(const std::filesystem::path& path) {
  const toml::table root = tf::parse_file(path);
  tf::reject_unknown_keys(root, {"name", "description", "cores", "fast_memory"}, path);
  PlatformConfig config;
  config.source = path.string();
  config.name = tf::get_string(root, "name", path).value_or(path.stem().string());
  config.cores = read_cores(root, path);

  const auto* fast_node = root.get("fast_memory");
  if (fast_node == nullptr || !fast_node->is_table()) {
    throw InputError(path.string(), "missing table [fast_memory] (capacity and chunks of the fast tier)");
  }
  const toml::table& fast = *fast_node->as_table();
  tf::reject_unknown_keys(fast,
                          {"capacity", "capacity_gib", "capacity_mib", "capacity_bytes", "chunks", "tier_backend",
                           "emulation_ratio"},
                          path, "fast_memory.");
  const auto chunks = tf::get_integer(fast, "chunks", path);
  if (!chunks || *chunks < 1 || *chunks > 100'000) {
    throw InputError(tf::where(path, fast), "key 'fast_memory.chunks' must be an integer >= 1");
  }
  config.fast_chunks = static_cast<unsigned>(*chunks);
  config.tier_backend = tf::get_string(fast, "tier_backend", path).value_or("auto");
  const auto names = platform::tier_backend_names();
  if (std::find(names.begin(), names.end(), config.tier_backend) == names.end()) {
    throw InputError(tf::where(path, *fast.get("tier_backend")),
                     fmt::format("key 'fast_memory.tier_backend': unknown backend '{}' (known: {})",
                                 config.tier_backend, fmt::join(names, ", ")));
  }
  config.emulation_ratio = tf::get_number(fast, "emulation_ratio", path).value_or(5.0);
  if (!(config.emulation_ratio >= 1.0)) {
    throw InputError(tf::where(path, *fast.get("emulation_ratio")),
                     "key 'fast_memory.emulation_ratio' must be >= 1 (slow tier no faster than fast)");
  }
  platform::TierOptions tier;
  tier.backend = config.tier_backend;
  tier.emulation_ratio = config.emulation_ratio;
  config.fast_capacity_bytes = read_capacity(fast, path, tier);
  return config;
}

PlatformConfig this_machine_platform(const std::string& tier_backend, double emulation_ratio) {
  platform::TierOptions tier;
  tier.backend = tier_backend;
  tier.emulation_ratio = emulation_ratio;
  PlatformConfig config;
  config.name = "this-machine";
  config.cores = static_cast<unsigned>(platform::allowed_cores().size());
  config.tier_backend = platform::resolve_tier_backend_name(tier);
  config.emulation_ratio = emulation_ratio;
  config.fast_capacity_bytes = platform::fast_tier_capacity_bytes(tier);
  config.fast_chunks = static_cast<unsigned>(platform::FastTierBudget::default_chunk_count);
  config.source = "this machine";
  return config;
}

PlatformConfig knl_7210_flat_platform() {
  PlatformConfig config;
  config.name = "knl-7210-flat";
  config.cores = 64;
  config.fast_capacity_bytes = 16ULL << 30;
  config.fast_chunks = 20;
  config.tier_backend = "memkind";
  config.source = "built-in";
  return config;
}

}  // namespace cosched::profiler
