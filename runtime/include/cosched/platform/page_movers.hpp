#pragma once
// What may move a placed task's pages to another NUMA node behind its back: the kernel's NUMA balancing (normal
// and memory-tiering modes), its demotion of pages to a lower memory tier, DAMON schemes that migrate pages, and
// the numad daemon. cosched places fast shares by memory policy (docs/memory-tiers.md, "Pages that move"); each
// mover either leaves pages under MPOL_BIND where they are (what the numa and memkind backends and the `bind`
// placement use) or moves bound pages too, in which case a run whose plan depends on placement is refused.
#include <filesystem>
#include <string>
#include <vector>

namespace cosched::platform {

struct PageMover {
  std::string name;      // "numa-balancing", "numa-balancing-tiering", "demotion", "damon-migrate", "numad"
  std::string evidence;  // the file and value it was found by, e.g. "/proc/sys/kernel/numa_balancing = 2"
  std::string moves;     // which pages it moves, where to, and when
  // True when it also moves pages bound with MPOL_BIND: then no placement holds, and a plan that depends on where
  // its fast shares are is refused (check_placement_holds).
  bool moves_bound_pages = false;
};

// The page movers active on the machine whose /proc and /sys are under `root` ("/" for this one; tests pass a
// fake tree). Unreadable or absent files mean "not active". Never throws.
[[nodiscard]] std::vector<PageMover> detect_page_movers(const std::filesystem::path& root = "/");

// Throws ResourceError naming each mover in `movers` that moves bound pages, saying what to do (turn it off, or
// set COSCHED_ALLOW_PAGE_MOVERS=1 to run anyway), unless that variable is set to 1. `what` names the placement
// that would not hold ("tier backend \"numa\"").
void check_placement_holds(const std::vector<PageMover>& movers, const std::string& what);

}  // namespace cosched::platform
