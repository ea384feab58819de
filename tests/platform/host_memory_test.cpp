// Free page reporting is read from sysfs (a fake tree here: the balloon device's feature bits), and the warm-up
// touches and frees what it is asked to. No timing threshold: only that the time is a time.
#include "cosched/platform/host_memory.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/files.hpp"

namespace cosched::platform {
namespace {

using test_support::scratch_dir;

void add_balloon(const std::filesystem::path& sys, const std::string& device, const std::string& features) {
  const std::filesystem::path dir = sys / "bus" / "virtio" / "drivers" / "virtio_balloon" / device;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "features") << features << "\n";
}

TEST(FreePageReporting, IsOffWithoutABalloonDriver) {
  const FreePageReporting reporting = detect_free_page_reporting(scratch_dir());
  EXPECT_FALSE(reporting.active);
  EXPECT_NE(reporting.evidence.find("no virtio-balloon driver"), std::string::npos) << reporting.evidence;
}

TEST(FreePageReporting, IsOnWhenABalloonDeviceHasFeatureBitFive) {
  const std::filesystem::path sys = scratch_dir();
  add_balloon(sys, "virtio0", "0110010100000000000000000000000010000000");  // the development VM's
  const FreePageReporting reporting = detect_free_page_reporting(sys);
  EXPECT_TRUE(reporting.active);
  EXPECT_NE(reporting.evidence.find("virtio0"), std::string::npos) << reporting.evidence;
}

TEST(FreePageReporting, IsOffWhenTheBalloonDoesNotReport) {
  const std::filesystem::path sys = scratch_dir();
  add_balloon(sys, "virtio3", "0110000100000000");  // bit 5 clear
  std::filesystem::create_directories(sys / "bus" / "virtio" / "drivers" / "virtio_balloon" / "module");
  add_balloon(sys, "virtio4", "011");  // too short to say
  EXPECT_FALSE(detect_free_page_reporting(sys).active);
}

TEST(MemoryWarmUp, AvailableMemoryIsReadFromMeminfo) {
  const std::filesystem::path dir = scratch_dir();
  std::ofstream(dir / "meminfo") << "MemTotal:       24684256 kB\nMemFree:        21663876 kB\n"
                                    "MemAvailable:   23999512 kB\nBuffers:           12 kB\n";
  EXPECT_EQ(available_memory_bytes(dir / "meminfo"), std::uint64_t{23999512} * 1024);
  std::ofstream(dir / "old") << "MemTotal:       24684256 kB\nMemFree:        21663876 kB\n";  // Linux < 3.14
  EXPECT_FALSE(available_memory_bytes(dir / "old").has_value());
  EXPECT_FALSE(available_memory_bytes(dir / "missing").has_value());
  EXPECT_EQ(total_memory_bytes(dir / "meminfo"), std::uint64_t{24684256} * 1024) << "MemTotal, not MemAvailable";
  EXPECT_FALSE(total_memory_bytes(dir / "missing").has_value());
}

TEST(MemoryWarmUp, TouchesNothingForZeroBytesAndReturnsATimeOtherwise) {
  EXPECT_EQ(touch_and_release(0), 0.0);
  const double seconds = touch_and_release(std::uint64_t{5} << 20);  // rounded up to whole 2 MiB pages
  EXPECT_TRUE(std::isfinite(seconds));
  EXPECT_GE(seconds, 0.0);
  // From several threads, and from more threads than pages (one 2 MiB huge page is 512 pages): the slices end at
  // the mapping's end — a write past it faults the test (and ASan in the sanitizer build).
  (void)touch_and_release(std::uint64_t{5} << 20, 3);
  (void)touch_and_release(4096, 8);
}

}  // namespace
}  // namespace cosched::platform
