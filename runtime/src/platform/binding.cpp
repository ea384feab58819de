#include "cosched/platform/binding.hpp"

#include <hwloc.h>

#include <cerrno>
#include <memory>
#include <string>

#include "cosched/common/error.hpp"
#include "platform/system_topology.hpp"

namespace cosched::platform {

namespace {

// An owned hwloc bitmap; `.set` is what hwloc calls take.
struct Bitmap {
  std::unique_ptr<hwloc_bitmap_s, decltype(&hwloc_bitmap_free)> owner{hwloc_bitmap_alloc(), &hwloc_bitmap_free};
  hwloc_bitmap_t set = owner.get();
  Bitmap() {
    if (set == nullptr) throw PlatformError("hwloc_bitmap_alloc", "out of memory");
  }
};

Bitmap to_bitmap(std::span<const unsigned> pus, const char* call) {
  if (pus.empty()) throw PlatformError(call, "empty PU list");
  Bitmap bitmap;
  for (unsigned pu : pus) hwloc_bitmap_set(bitmap.set, pu);
  return bitmap;
}

std::vector<unsigned> to_vector(hwloc_const_bitmap_t set) {
  std::vector<unsigned> pus;
  for (int pu = hwloc_bitmap_first(set); pu != -1; pu = hwloc_bitmap_next(set, pu)) {
    pus.push_back(static_cast<unsigned>(pu));
  }
  return pus;
}

std::string describe(std::span<const unsigned> pus) {
  std::string text;
  for (unsigned pu : pus) text += (text.empty() ? "" : ",") + std::to_string(pu);
  return "PUs {" + text + "}";
}

}  // namespace

std::vector<unsigned> allowed_pus() {
  return to_vector(usable_cpuset());
}

std::vector<std::vector<unsigned>> allowed_cores() {
  hwloc_topology_t topology = system_topology();
  hwloc_const_cpuset_t allowed = usable_cpuset();
  std::vector<std::vector<unsigned>> cores;
  const int depth = hwloc_get_type_depth(topology, HWLOC_OBJ_CORE);
  const bool has_cores = depth >= 0;
  const hwloc_obj_type_t type = has_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(topology, type, nullptr); obj != nullptr;
       obj = hwloc_get_next_obj_by_type(topology, type, obj)) {
    Bitmap usable;
    hwloc_bitmap_and(usable.set, obj->cpuset, allowed);
    if (!hwloc_bitmap_iszero(usable.set)) cores.push_back(to_vector(usable.set));
  }
  return cores;
}

void bind_current_thread(std::span<const unsigned> pus) {
  Bitmap set = to_bitmap(pus, "hwloc_set_cpubind");
  if (hwloc_set_cpubind(system_topology(), set.set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT) != 0) {
    throw PlatformError("hwloc_set_cpubind", "cannot bind thread to " + describe(pus), errno);
  }
}

void bind_process(int pid, std::span<const unsigned> pus) {
  Bitmap set = to_bitmap(pus, "hwloc_set_proc_cpubind");
  if (hwloc_set_proc_cpubind(system_topology(), pid, set.set, HWLOC_CPUBIND_PROCESS | HWLOC_CPUBIND_STRICT) !=
      0) {
    throw PlatformError("hwloc_set_proc_cpubind",
                        "cannot bind process " + std::to_string(pid) + " to " + describe(pus), errno);
  }
}

std::vector<unsigned> current_thread_binding() {
  Bitmap set;
  if (hwloc_get_cpubind(system_topology(), set.set, HWLOC_CPUBIND_THREAD) != 0) {
    throw PlatformError("hwloc_get_cpubind", "cannot read the thread's binding", errno);
  }
  return to_vector(set.set);
}

unsigned current_pu() {
  Bitmap set;
  if (hwloc_get_last_cpu_location(system_topology(), set.set, HWLOC_CPUBIND_THREAD) != 0) {
    throw PlatformError("hwloc_get_last_cpu_location", "cannot read where the thread runs", errno);
  }
  return static_cast<unsigned>(hwloc_bitmap_first(set.set));
}

}  // namespace cosched::platform
