#include "platform/system_topology.hpp"

#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <vector>

#include "cosched/common/error.hpp"

namespace cosched::platform {

namespace {

// CPUs in the calling thread's affinity mask; empty if it cannot be read (then only hwloc's allowed set counts).
std::vector<unsigned> read_affinity() {
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    auto release = [](cpu_set_t* mask) { CPU_FREE(mask); };  // CPU_FREE is a macro, not a function
    std::unique_ptr<cpu_set_t, decltype(release)> set(CPU_ALLOC(cpus), release);
    if (!set) return {};
    const std::size_t bytes = CPU_ALLOC_SIZE(cpus);
    if (sched_getaffinity(0, bytes, set.get()) == 0) {
      std::vector<unsigned> members;
      for (int cpu = 0; cpu < cpus; ++cpu) {
        if (CPU_ISSET_S(cpu, bytes, set.get())) members.push_back(static_cast<unsigned>(cpu));
      }
      return members;
    }
    if (errno != EINVAL) return {};  // EINVAL: the kernel's mask is larger than ours, retry bigger
  }
  return {};
}

const std::vector<unsigned>& startup_affinity() {
  static const std::vector<unsigned> affinity = read_affinity();
  return affinity;
}

// Captured during static initialisation, i.e. on the main thread before main() and before any binding.
[[maybe_unused]] const bool startup_affinity_captured = !startup_affinity().empty();

class SystemTopology {
 public:
  SystemTopology() {
    // HWLOC_XMLFILE would make hwloc describe another machine; binding against it would be a silent no-op.
    if (std::getenv("HWLOC_XMLFILE") != nullptr) {
      throw PlatformError("hwloc_topology_load",
                          "HWLOC_XMLFILE is set: cosched binds threads on this system and needs its real "
                          "topology; unset it and pass --topology-xml where a saved topology is wanted");
    }
    if (hwloc_topology_init(&topology_) != 0) throw PlatformError("hwloc_topology_init", "failed", errno);
    // Memory-side caches are filtered out by default; KNL cache/hybrid MCDRAM only shows up as one.
    hwloc_topology_set_type_filter(topology_, HWLOC_OBJ_MEMCACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(topology_) != 0) {
      const int saved = errno;
      hwloc_topology_destroy(topology_);
      throw PlatformError("hwloc_topology_load", "cannot discover this system", saved);
    }
    usable_ = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(topology_));
    hwloc_bitmap_t affinity = hwloc_bitmap_alloc();
    if (usable_ == nullptr || affinity == nullptr) {
      hwloc_bitmap_free(affinity);
      hwloc_bitmap_free(usable_);
      hwloc_topology_destroy(topology_);
      throw PlatformError("hwloc_bitmap_alloc", "out of memory");
    }
    for (unsigned cpu : startup_affinity()) hwloc_bitmap_set(affinity, cpu);
    // An unreadable affinity, or one disjoint from the allowed set, leaves the allowed set as it is.
    if (hwloc_bitmap_intersects(usable_, affinity) != 0) hwloc_bitmap_and(usable_, usable_, affinity);
    hwloc_bitmap_free(affinity);
  }
  ~SystemTopology() {
    hwloc_bitmap_free(usable_);
    hwloc_topology_destroy(topology_);
  }
  SystemTopology(const SystemTopology&) = delete;
  SystemTopology& operator=(const SystemTopology&) = delete;
  [[nodiscard]] hwloc_topology_t get() const noexcept { return topology_; }
  [[nodiscard]] hwloc_const_cpuset_t usable() const noexcept { return usable_; }

 private:
  hwloc_topology_t topology_ = nullptr;
  hwloc_bitmap_t usable_ = nullptr;
};

const SystemTopology& the_system() {
  static const SystemTopology topology;
  return topology;
}

}  // namespace

hwloc_topology_t system_topology() { return the_system().get(); }

hwloc_const_cpuset_t usable_cpuset() { return the_system().usable(); }

}  // namespace cosched::platform
