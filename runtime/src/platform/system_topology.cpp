#include "platform/system_topology.hpp"

#include <cerrno>
#include <cstdlib>

#include "cosched/common/error.hpp"

namespace cosched::platform {

namespace {

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
    if (hwloc_topology_load(topology_) != 0) {
      const int saved = errno;
      hwloc_topology_destroy(topology_);
      throw PlatformError("hwloc_topology_load", "cannot discover this system", saved);
    }
  }
  ~SystemTopology() { hwloc_topology_destroy(topology_); }
  SystemTopology(const SystemTopology&) = delete;
  SystemTopology& operator=(const SystemTopology&) = delete;
  [[nodiscard]] hwloc_topology_t get() const noexcept { return topology_; }

 private:
  hwloc_topology_t topology_ = nullptr;
};

}  // namespace

hwloc_topology_t system_topology() {
  static const SystemTopology topology;
  return topology.get();
}

}  // namespace cosched::platform
