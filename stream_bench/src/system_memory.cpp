#include "system_memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

#include "cosched/platform/host_memory.hpp"

namespace cosched::stream::detail {

namespace {

// Parses sizes like "32768K", "1M" as sysfs writes them.
std::size_t parse_size(const std::string& text) {
  std::size_t consumed = 0;
  const unsigned long long value = std::stoull(text, &consumed);
  const char unit = consumed < text.size() ? text[consumed] : ' ';
  const std::size_t multiplier = unit == 'K' ? 1024 : unit == 'M' ? 1024 * 1024 : unit == 'G' ? 1024 * 1024 * 1024 : 1;
  return static_cast<std::size_t>(value) * multiplier;
}

}  // namespace

std::size_t read_available_memory_bytes() {
  // The one MemAvailable reader (the launcher's memory warm-up uses it too); sysconf's free pages where it fails.
  if (const std::optional<std::uint64_t> available = platform::available_memory_bytes()) {
    return static_cast<std::size_t>(*available);
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

namespace {

// The largest cache of cpu0 at `max_level` or below, from sysfs (sysconf's value is wrong on some VMs); 0 if none
// is readable.
std::size_t largest_cache_bytes(int max_level) {
  std::size_t largest = 0;
  std::error_code error;
  const std::filesystem::path caches{"/sys/devices/system/cpu/cpu0/cache"};
  for (const auto& entry : std::filesystem::directory_iterator(caches, error)) {
    std::ifstream level_file(entry.path() / "level");
    std::ifstream size_file(entry.path() / "size");
    int level = 0;
    std::string text;
    if (!(level_file >> level) || level > max_level || !(size_file >> text)) continue;
    try {
      largest = std::max(largest, parse_size(text));
    } catch (const std::exception&) {
      // an unreadable entry says nothing; the callers' fallbacks cover "none readable"
    }
  }
  return largest;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    const std::size_t largest = largest_cache_bytes(std::numeric_limits<int>::max());
    return largest != 0 ? largest : std::size_t{32} << 20;
  }();
  return bytes;
}

std::size_t private_cache_bytes() {
  static const std::size_t bytes = [] {
    const std::size_t largest = largest_cache_bytes(2);
    return largest != 0 ? largest : std::size_t{1} << 20;
  }();
  return bytes;
}

}  // namespace cosched::stream::detail
