#include "cosched/platform/host_memory.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <limits>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cosched/platform/binding.hpp"

#include "platform/tiers/page_mapping.hpp"

namespace cosched::platform {

namespace {

// VIRTIO_BALLOON_F_REPORTING (include/uapi/linux/virtio_balloon.h).
constexpr std::size_t kReportingFeatureBit = 5;
constexpr std::size_t kPageBytes = 4096;

}  // namespace

FreePageReporting detect_free_page_reporting(const std::filesystem::path& sys_root) {
  const std::filesystem::path driver = sys_root / "bus" / "virtio" / "drivers" / "virtio_balloon";
  std::error_code error;
  if (!std::filesystem::is_directory(driver, error)) return {false, "no virtio-balloon driver"};
  for (std::filesystem::directory_iterator it(driver, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("virtio", 0) != 0) continue;  // bind, unbind, uevent, module
    std::ifstream features(it->path() / "features");
    std::string bits;
    if (!(features >> bits) || bits.size() <= kReportingFeatureBit) continue;
    if (bits[kReportingFeatureBit] == '1') {
      return {true, "virtio-balloon device " + name + " reports free pages to the hypervisor (feature bit 5)"};
    }
  }
  return {false, "no virtio-balloon device offers free page reporting"};
}

namespace {

// The line "<key> <n> kB" of /proc/meminfo, in bytes.
std::optional<std::uint64_t> meminfo_bytes(const std::filesystem::path& meminfo, const std::string& wanted) {
  std::ifstream in(meminfo);
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key) {
    if (key == wanted) {
      if (in >> kib >> unit && unit == "kB") return kib * 1024;
      return std::nullopt;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::uint64_t> available_memory_bytes(const std::filesystem::path& meminfo) {
  return meminfo_bytes(meminfo, "MemAvailable:");
}

std::optional<std::uint64_t> total_memory_bytes(const std::filesystem::path& meminfo) {
  return meminfo_bytes(meminfo, "MemTotal:");
}

double touch_and_release(std::uint64_t bytes, unsigned threads) {
  if (bytes == 0) return 0.0;
  const auto begin = std::chrono::steady_clock::now();
  {
    const tiers::PageMapping mapping(static_cast<std::size_t>(bytes));
    const std::size_t pages = (mapping.bytes() + kPageBytes - 1) / kPageBytes;
    const std::size_t slices = std::clamp<std::size_t>(threads, 1, pages);
    // volatile: the writes are the point, the compiler must not drop them for memory that is never read.
    auto* const base = static_cast<volatile unsigned char*>(mapping.data());
    const auto touch = [&](std::size_t slice) {
      const std::size_t first = pages * slice / slices, last = pages * (slice + 1) / slices;
      for (std::size_t page = first; page < last; ++page) base[page * kPageBytes] = 1;
    };
    std::vector<std::jthread> helpers;  // slice 0 is this thread's
    for (std::size_t slice = 1; slice < slices; ++slice) helpers.emplace_back(touch, slice);
    touch(0);
  }  // the helpers join before the mapping goes
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

WarmedMemory warm_up_memory(std::uint64_t bytes) {
  if (const auto available = available_memory_bytes()) bytes = std::min(bytes, *available / 2);
  const auto threads = static_cast<unsigned>(std::max<std::size_t>(1, allowed_pus().size()));
  return {bytes, touch_and_release(bytes, threads)};
}

}  // namespace cosched::platform
