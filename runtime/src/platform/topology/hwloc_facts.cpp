#include "platform/topology/hwloc_facts.hpp"

#include <hwloc.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

#include "cosched/common/error.hpp"

namespace cosched::platform::topology_detail {

namespace {

using BitmapOwner = std::unique_ptr<hwloc_bitmap_s, decltype(&hwloc_bitmap_free)>;

BitmapOwner new_bitmap() {
  BitmapOwner bitmap{hwloc_bitmap_alloc(), &hwloc_bitmap_free};
  if (!bitmap) throw PlatformError("hwloc_bitmap_alloc", "out of memory");
  return bitmap;
}

std::vector<unsigned> to_vector(hwloc_const_bitmap_t set) {
  std::vector<unsigned> members;
  if (set == nullptr) return members;
  for (int index = hwloc_bitmap_first(set); index != -1; index = hwloc_bitmap_next(set, index)) {
    members.push_back(static_cast<unsigned>(index));
  }
  return members;
}

int logical_index_of_ancestor(hwloc_obj_t obj, hwloc_obj_type_t type) {
  for (hwloc_obj_t parent = obj->parent; parent != nullptr; parent = parent->parent) {
    if (parent->type == type) return static_cast<int>(parent->logical_index);
  }
  return -1;
}

// A core's memory locality is the closest ancestor that NUMA nodes hang under (hwloc 2 attaches memory to the
// Package, an SNC Group, or the Machine). Ids are handed out in order of first appearance.
int locality_id(hwloc_obj_t core, std::map<hwloc_obj_t, int>& ids) {
  for (hwloc_obj_t parent = core->parent; parent != nullptr; parent = parent->parent) {
    if (parent->memory_arity > 0) {
      return ids.try_emplace(parent, static_cast<int>(ids.size())).first->second;
    }
  }
  return -1;
}

std::vector<CoreFacts> read_cores(hwloc_topology_t topology, hwloc_const_cpuset_t usable) {
  const hwloc_obj_type_t type = hwloc_get_type_depth(topology, HWLOC_OBJ_CORE) >= 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  std::vector<CoreFacts> cores;
  std::map<hwloc_obj_t, int> locality_ids;
  BitmapOwner usable_pus = new_bitmap();
  for (hwloc_obj_t core = hwloc_get_next_obj_by_type(topology, type, nullptr); core != nullptr;
       core = hwloc_get_next_obj_by_type(topology, type, core)) {
    hwloc_bitmap_and(usable_pus.get(), core->cpuset, usable);
    if (hwloc_bitmap_iszero(usable_pus.get())) continue;
    cores.push_back({.pus = to_vector(usable_pus.get()),
                     .l2 = logical_index_of_ancestor(core, HWLOC_OBJ_L2CACHE),
                     .cluster = locality_id(core, locality_ids),
                     .package = logical_index_of_ancestor(core, HWLOC_OBJ_PACKAGE)});
  }
  return cores;
}

// The best (highest) Bandwidth value any initiator sees for this node; nullopt when hwloc has none.
std::optional<std::uint64_t> best_bandwidth(hwloc_topology_t topology, hwloc_obj_t node) {
  unsigned count = 0;
  if (hwloc_memattr_get_initiators(topology, HWLOC_MEMATTR_ID_BANDWIDTH, node, 0, &count, nullptr, nullptr) != 0 ||
      count == 0) {
    return std::nullopt;
  }
  std::vector<hwloc_location> initiators(count);
  std::vector<hwloc_uint64_t> values(count);
  if (hwloc_memattr_get_initiators(topology, HWLOC_MEMATTR_ID_BANDWIDTH, node, 0, &count, initiators.data(),
                                   values.data()) != 0 ||
      count == 0) {
    return std::nullopt;
  }
  return *std::max_element(values.begin(), values.begin() + count);
}

std::vector<NumaNodeFacts> read_numa_nodes(hwloc_topology_t topology) {
  std::vector<NumaNodeFacts> nodes;
  // Iterating by type visits every NUMA node, CPU-less ones (flat-mode MCDRAM) included.
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr); node != nullptr;
       node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node)) {
    nodes.push_back({.os_index = node->os_index,
                     .bytes = node->attr->numanode.local_memory,
                     .cpus = to_vector(node->cpuset),
                     .subtype = node->subtype != nullptr ? node->subtype : "",
                     .bandwidth_mib_s = best_bandwidth(topology, node)});
  }
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.os_index < b.os_index; });
  return nodes;
}

// The SLIT (NUMA latency matrix) over all nodes, reordered like `nodes`; empty when hwloc has none covering them.
std::vector<std::vector<unsigned>> read_distances(hwloc_topology_t topology, const std::vector<NumaNodeFacts>& nodes) {
  unsigned count = 1;
  hwloc_distances_s* matrix = nullptr;
  if (hwloc_distances_get_by_type(topology, HWLOC_OBJ_NUMANODE, &count, &matrix, HWLOC_DISTANCES_KIND_MEANS_LATENCY,
                                  0) != 0 ||
      count == 0 || matrix == nullptr) {
    return {};
  }
  std::unique_ptr<hwloc_distances_s, std::function<void(hwloc_distances_s*)>> owner(
      matrix, [topology](hwloc_distances_s* d) { hwloc_distances_release(topology, d); });
  if (matrix->nbobjs != nodes.size()) return {};
  std::vector<std::size_t> position(matrix->nbobjs, nodes.size());
  for (unsigned i = 0; i < matrix->nbobjs; ++i) {
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].os_index == matrix->objs[i]->os_index) position[i] = n;
    }
    if (position[i] == nodes.size()) return {};
  }
  std::vector<std::vector<unsigned>> distances(nodes.size(), std::vector<unsigned>(nodes.size(), 0));
  for (unsigned i = 0; i < matrix->nbobjs; ++i) {
    for (unsigned j = 0; j < matrix->nbobjs; ++j) {
      distances[position[i]][position[j]] = static_cast<unsigned>(matrix->values[i * matrix->nbobjs + j]);
    }
  }
  return distances;
}

// Memory-side caches: hwloc 2 MemCache objects, or (XML written by hwloc 1.x) CPU-cache objects tagged with
// info Type=MemorySideCache — KNL cache-mode MCDRAM shows up that way.
std::uint64_t memory_side_cache_bytes(hwloc_topology_t topology) {
  std::uint64_t total = 0;
  for (hwloc_obj_t cache = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_MEMCACHE, nullptr); cache != nullptr;
       cache = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_MEMCACHE, cache)) {
    total += cache->attr->cache.size;
  }
  for (hwloc_obj_type_t type : {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE}) {
    for (hwloc_obj_t cache = hwloc_get_next_obj_by_type(topology, type, nullptr); cache != nullptr;
         cache = hwloc_get_next_obj_by_type(topology, type, cache)) {
      const char* kind = hwloc_obj_get_info_by_name(cache, "Type");
      if (kind != nullptr && std::strcmp(kind, "MemorySideCache") == 0) total += cache->attr->cache.size;
    }
  }
  return total;
}

std::string root_info(hwloc_topology_t topology, const char* name) {
  const char* value = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology), name);
  return value != nullptr ? value : "";
}

// CPU identification lives on Package objects (root when there is no package).
std::string cpu_info(hwloc_topology_t topology, const char* name) {
  hwloc_obj_t package = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PACKAGE, nullptr);
  const char* value = hwloc_obj_get_info_by_name(package != nullptr ? package : hwloc_get_root_obj(topology), name);
  return value != nullptr ? value : "";
}

int cpu_number(hwloc_topology_t topology, const char* name) {
  const std::string text = cpu_info(topology, name);
  int number = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  return error == std::errc{} && end == text.data() + text.size() ? number : -1;
}

}  // namespace

TopologyFacts read_facts(hwloc_topology_t topology, std::string source, hwloc_const_cpuset_t usable) {
  TopologyFacts facts;
  facts.source = std::move(source);
  facts.cores = read_cores(topology, usable);
  facts.numa_nodes = read_numa_nodes(topology);
  facts.distances = read_distances(topology, facts.numa_nodes);
  facts.memory_side_cache_bytes = memory_side_cache_bytes(topology);
  facts.packages = static_cast<unsigned>(std::max(0, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE)));
  facts.memory_mode_info = root_info(topology, "MemoryMode");
  facts.cluster_mode_info = root_info(topology, "ClusterMode");
  facts.cpu_model = cpu_info(topology, "CPUModel");
  facts.cpu_family = cpu_number(topology, "CPUFamilyNumber");
  facts.cpu_model_number = cpu_number(topology, "CPUModelNumber");
  return facts;
}

}  // namespace cosched::platform::topology_detail
