#pragma once
// Memory the hypervisor took back. A virtual machine whose balloon device offers free page reporting
// (virtio-balloon, VIRTIO_BALLOON_F_REPORTING; Linux >= 5.7) hands blocks of free memory back to the host shortly
// after they are freed; the next first touch of such memory faults it back in through the host, at a small
// fraction of the memory's bandwidth (on the 2-core development VM: a 288 MiB process took 1.0-1.1 s after 6 s idle
// and 0.27 s right after another one; docs/fidelity.md, "Memory the hypervisor took back"). A launched batch's first
// tasks then run slower than their profiles, taken back to back, said they would. Touching the most memory the
// plan's tasks hold at once just before the batch starts, and freeing it, leaves that much memory resident for the
// tasks to reuse: the launcher does so where reporting is on (launcher/launch.hpp, LaunchSettings::memory_warm_up).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace cosched::platform {

struct FreePageReporting {
  bool active = false;
  std::string evidence;  // which device says so, or why reporting is off; for people
};

// Reads `sys_root`/bus/virtio/drivers/virtio_balloon/virtio*/features (a string of '0'/'1', feature bit k at
// position k): reporting is active when a bound balloon device has feature bit 5. No balloon driver or device:
// inactive (bare metal, or a VM without a balloon). Never throws for a missing or unreadable tree.
[[nodiscard]] FreePageReporting detect_free_page_reporting(const std::filesystem::path& sys_root = "/sys");

// MemAvailable of `meminfo` (/proc/meminfo: "MemAvailable:  123456 kB") in bytes; nullopt when it cannot be read.
[[nodiscard]] std::optional<std::uint64_t> available_memory_bytes(const std::filesystem::path& meminfo = "/proc/meminfo");
// MemTotal of `meminfo` in bytes: the most memory any task of this node can have; nullopt when it cannot be read.
[[nodiscard]] std::optional<std::uint64_t> total_memory_bytes(const std::filesystem::path& meminfo = "/proc/meminfo");

// Maps `bytes` of fresh anonymous memory (advised for huge pages, as the tiered arrays are), writes one byte per
// 4 KiB page from `threads` threads (a slice each), and unmaps it: the pages are then free and resident. Memory
// faulted back in through the host goes faster from more threads (on the 2-core development VM, 256 MiB after 5 s
// idle: 0.54-0.71 s from one thread, 0.32-0.39 s from two). Returns the seconds it took. 0 bytes: nothing, 0 s.
// Throws ResourceError when the kernel refuses the mapping.
[[nodiscard]] double touch_and_release(std::uint64_t bytes, unsigned threads = 1);

// touch_and_release of `bytes` from as many threads as this process has CPUs (the batch or the run that follows
// gets them all anyway), but never more than half of what the node has available now: a warm-up must not push
// anything out of memory for tasks larger than the node (those will say so themselves). What it touched.
struct WarmedMemory {
  std::uint64_t bytes = 0;
  double seconds = 0.0;
};
[[nodiscard]] WarmedMemory warm_up_memory(std::uint64_t bytes);

}  // namespace cosched::platform
