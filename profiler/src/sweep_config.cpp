#include "cosched/profiler/sweep_config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "cosched/common/error.hpp"
#include "toml_fields.hpp"

namespace cosched::profiler {
namespace {

namespace tf = toml_fields;

unsigned parse_count(std::string_view text, std::string_view whole) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
    throw UsageError(fmt::format("'{}' in '{}' is not a non-negative integer", text, whole));
  }
  return value;
}

void sort_unique(std::vector<unsigned>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

std::vector<double> positive_numbers(const toml::table& root, const char* key, const std::filesystem::path& path) {
  auto values = tf::get_number_list(root, key, path).value_or(std::vector<double>{});
  for (double v : values) {
    if (!(v > 0.0) || !std::isfinite(v)) {
      throw InputError(tf::where(path, *root.get(key)), fmt::format("key '{}': values must be positive", key));
    }
  }
  return values;
}

std::optional<unsigned> bounded_count(const toml::table& root, const char* key, std::int64_t minimum,
                                      const std::filesystem::path& path) {
  const auto value = tf::get_integer(root, key, path);
  if (!value) return std::nullopt;
  if (*value < minimum || *value > 100'000) {
    throw InputError(tf::where(path, *root.get(key)),
                     fmt::format("key '{}' must be between {} and 100000, got {}", key, minimum, *value));
  }
  return static_cast<unsigned>(*value);
}

}  // namespace

std::vector<unsigned> parse_count_list(std::string_view text) {
  std::vector<unsigned> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    const std::size_t dots = item.find("..");
    if (dots == std::string_view::npos) {
      values.push_back(parse_count(item, text));
    } else {
      const unsigned first = parse_count(item.substr(0, dots), text);
      const unsigned last = parse_count(item.substr(dots + 2), text);
      if (last < first) throw UsageError(fmt::format("range '{}' in '{}' is empty", item, text));
      if (last - first > 1'000'000) throw UsageError(fmt::format("range '{}' is too long", item));
      for (unsigned v = first; v <= last; ++v) values.push_back(v);
    }
    start = comma + 1;
  }
  sort_unique(values);
  return values;
}

SweepConfig load_sweep_config(const std::filesystem::path& path) {
  const toml::table root = tf::parse_file(path);
  tf::reject_unknown_keys(root,
                          {"description", "kernels", "footprints_mib", "footprints_percent_of_fast", "cores",
                           "chunks", "reps", "warmup", "platform", "tier_backend", "emulation_ratio", "model"},
                          path);
  SweepConfig config;
  config.kernels = tf::get_string_list(root, "kernels", path).value_or(std::vector<std::string>{});
  config.footprints_mib = positive_numbers(root, "footprints_mib", path);
  config.footprints_percent_of_fast = positive_numbers(root, "footprints_percent_of_fast", path);
  config.cores = tf::get_count_list(root, "cores", path).value_or(std::vector<unsigned>{});
  config.chunks = tf::get_count_list(root, "chunks", path).value_or(std::vector<unsigned>{});
  config.reps = bounded_count(root, "reps", 1, path).value_or(config.reps);
  config.warmup = bounded_count(root, "warmup", 0, path).value_or(config.warmup);
  if (const auto platform = tf::get_string(root, "platform", path)) {
    config.platform_file = path.parent_path() / *platform;
  }
  config.tier_backend = tf::get_string(root, "tier_backend", path);
  config.emulation_ratio = tf::get_number(root, "emulation_ratio", path);
  if (config.emulation_ratio && !(*config.emulation_ratio >= 1.0)) {
    throw InputError(tf::where(path, *root.get("emulation_ratio")), "key 'emulation_ratio' must be >= 1");
  }
  config.model = tf::get_string(root, "model", path).value_or("");
  if (!config.model.empty() && config.model != "knl") {
    throw InputError(tf::where(path, *root.get("model")),
                     fmt::format("key 'model': unknown model '{}' (known: knl)", config.model));
  }
  return config;
}

std::uint64_t footprint_from_percent(double percent, const PlatformConfig& platform) {
  constexpr double mib = 1024.0 * 1024.0;
  const double bytes = percent / 100.0 * static_cast<double>(platform.fast_capacity_bytes);
  return static_cast<std::uint64_t>(std::floor(bytes / mib)) * (1ULL << 20);
}

std::vector<std::uint64_t> resolve_footprints(const SweepConfig& config, const PlatformConfig& platform) {
  std::vector<std::uint64_t> bytes;
  for (double mib : config.footprints_mib) {
    bytes.push_back(static_cast<std::uint64_t>(std::llround(mib * 1024.0 * 1024.0)));
  }
  for (double percent : config.footprints_percent_of_fast) bytes.push_back(footprint_from_percent(percent, platform));
  for (auto b : bytes) {
    if (b == 0) throw UsageError("a footprint rounds to 0 bytes");
  }
  std::sort(bytes.begin(), bytes.end());
  bytes.erase(std::unique(bytes.begin(), bytes.end()), bytes.end());
  return bytes;
}

std::vector<ProfilePoint> expand_sweep(const SweepConfig& config, const PlatformConfig& platform) {
  if (config.kernels.empty()) throw UsageError("no kernels to profile (--kernels or 'kernels' in the config)");
  const auto footprints = resolve_footprints(config, platform);
  if (footprints.empty()) {
    throw UsageError("no footprints to profile (--footprints-mib, or 'footprints_mib' / "
                     "'footprints_percent_of_fast' in the config)");
  }
  if (config.reps < 1) throw UsageError("reps must be at least 1");
  std::vector<unsigned> cores = config.cores;
  if (cores.empty()) {
    for (unsigned c = 1; c <= platform.cores; ++c) cores.push_back(c);
  }
  std::vector<unsigned> chunks = config.chunks;
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
  std::vector<ProfilePoint> points;
  for (const auto& kernel : config.kernels) {
    for (auto footprint : footprints) {
      for (unsigned c : cores) {
        for (unsigned k : chunks) points.push_back({kernel, footprint, c, k});
      }
    }
  }
  return points;
}

}  // namespace cosched::profiler
