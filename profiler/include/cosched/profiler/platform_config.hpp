#pragma once
// A platform file (configs/platforms/*.toml): the two resources the scheduler shares on a node — cores, and the
// fast memory tier divided into chunks — plus the tier backend that places fast bytes there. Format:
//   name = "knl-7210-flat"
//   cores = 64                  # or "auto": the cores this process may use on this machine
//   [fast_memory]
//   capacity_gib = 16           # or capacity_mib / capacity_bytes, or capacity = "auto" (exactly one)
//   chunks = 20
//   tier_backend = "memkind"    # auto | none | memkind | numa | emulated
//   emulation_ratio = 5.0       # emulated backend only: slow:fast bandwidth ratio
#include <cstdint>
#include <filesystem>
#include <string>

namespace cosched::profiler {

struct PlatformConfig {
  std::string name;
  unsigned cores = 0;
  std::uint64_t fast_capacity_bytes = 0;
  unsigned fast_chunks = 0;
  std::string tier_backend = "auto";
  double emulation_ratio = 5.0;
  std::string source;  // the file it came from, or "built-in"

  // Bytes of one fast chunk (capacity / chunks, not rounded: fractions are computed exactly).
  [[nodiscard]] double chunk_bytes() const noexcept {
    return static_cast<double>(fast_capacity_bytes) / static_cast<double>(fast_chunks);
  }
};

// Reads and validates a platform file; "auto" cores resolve to the allowed cores of this system.
// Throws InputError naming the file, line and key for unknown keys, wrong types or invalid values.
[[nodiscard]] PlatformConfig load_platform_config(const std::filesystem::path& path);

// This machine as the platform layer sees it: its allowed cores, the fast tier of `tier_backend` ("auto": the
// backend chosen for this machine; emulated capacity: the platform layer's default), 20 chunks.
[[nodiscard]] PlatformConfig this_machine_platform(const std::string& tier_backend = "auto",
                                                   double emulation_ratio = 5.0);

// The KNL 7210 flat-mode node the paper used (64 cores, 16 GiB MCDRAM in 20 chunks) — the default platform of
// model profiles; configs/platforms/knl-7210-flat.toml holds the same values.
[[nodiscard]] PlatformConfig knl_7210_flat_platform();

}  // namespace cosched::profiler
