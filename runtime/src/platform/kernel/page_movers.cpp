// The rules that find page movers, each from the files it reads (docs/memory-tiers.md, "Pages that move"). Why
// each one does or does not move bound pages (Linux 6.1 .. 6.12):
// - NUMA balancing (both modes) migrates a page only when mpol_misplaced() names another node, and for MPOL_BIND
//   that happens only when the page is outside the bind mask (or the policy asked for balancing with
//   MPOL_F_NUMA_BALANCING, which cosched never sets): bound pages stay.
// - Demotion runs in reclaim and moves pages to the next lower memory tier without looking at their policy.
// - DAMON's migrate_hot / migrate_cold schemes move the physical pages they pick, whoever maps them.
// - numad moves whole processes' memory (migrate_pages(2)) to the nodes it picks.
#include "cosched/platform/page_movers.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <string_view>
#include <system_error>

#include "cosched/common/error.hpp"

namespace cosched::platform {

namespace {

namespace fs = std::filesystem;

// The first line of a small sysfs/procfs file, without its newline; empty when it cannot be read.
std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

// Shown as the absolute path on the machine (without the fake root a test passes).
std::string shown(const fs::path& relative) { return (fs::path("/") / relative).generic_string(); }

std::vector<fs::path> subfolders(const fs::path& folder, std::string_view prefix) {
  std::vector<fs::path> found;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) == 0 && it->is_directory(error)) found.push_back(it->path());
  }
  return found;
}

void numa_balancing(const fs::path& root, std::vector<PageMover>& movers) {
  const fs::path file = "proc/sys/kernel/numa_balancing";
  const std::string value = first_line(root / file);
  if (value.empty()) return;
  const long mode = std::strtol(value.c_str(), nullptr, 10);
  const std::string evidence = fmt::format("{} = {}", shown(file), value);
  if (mode & 1) {
    movers.push_back({"numa-balancing", evidence,
                      "unbound pages (default or preferred policy) towards the node of the CPU that uses them; "
                      "pages bound with MPOL_BIND stay in their nodes",
                      false});
  }
  if (mode & 2) {
    movers.push_back({"numa-balancing-tiering", evidence,
                      "hot unbound pages from a lower kernel memory tier up to the top tier; pages bound with "
                      "MPOL_BIND stay in their nodes",
                      false});
  }
}

// Demotion moves pages only when the kernel has a lower tier to move them to.
void demotion(const fs::path& root, std::vector<PageMover>& movers) {
  const fs::path file = "sys/kernel/mm/numa/demotion_enabled";
  const std::string value = first_line(root / file);
  if (value != "true" && value != "1") return;
  const std::size_t tiers = subfolders(root / "sys/devices/virtual/memory_tiering", "memory_tier").size();
  const std::string evidence = fmt::format("{} = {}, {} kernel memory tier(s)", shown(file), value, tiers);
  if (tiers < 2) {
    movers.push_back({"demotion", evidence, "nothing yet: every node is in one memory tier, none to demote to",
                      false});
    return;
  }
  movers.push_back({"demotion", evidence,
                    "any page, bound ones too, from a full node to the next lower memory tier when memory runs short",
                    true});
}

void damon_migration(const fs::path& root, std::vector<PageMover>& movers) {
  const fs::path kdamonds = "sys/kernel/mm/damon/admin/kdamonds";
  for (const fs::path& kdamond : subfolders(root / kdamonds, "")) {
    if (first_line(kdamond / "state") != "on") continue;
    for (const fs::path& context : subfolders(kdamond / "contexts", "")) {
      for (const fs::path& scheme : subfolders(context / "schemes", "")) {
        const std::string action = first_line(scheme / "action");
        if (action != "migrate_hot" && action != "migrate_cold") continue;
        const fs::path relative = fs::relative(scheme / "action", root);
        movers.push_back({"damon-migrate", fmt::format("{} = {} (kdamond on)", shown(relative), action),
                          fmt::format("the pages the scheme picks, bound ones too, to node {}",
                                      first_line(scheme / "target_nid")),
                          true});
      }
    }
  }
}

void numad(const fs::path& root, std::vector<PageMover>& movers) {
  std::error_code error;
  for (fs::directory_iterator it(root / "proc", error), end; !error && it != end; it.increment(error)) {
    const std::string pid = it->path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (first_line(it->path() / "comm") != "numad") continue;
    movers.push_back({"numad", fmt::format("process {} is numad ({})", pid, shown("proc/" + pid + "/comm")),
                      "whole processes' memory, bound pages too, to the nodes it picks (migrate_pages)", true});
    return;
  }
}

}  // namespace

std::vector<PageMover> detect_page_movers(const std::filesystem::path& root) {
  std::vector<PageMover> movers;
  numa_balancing(root, movers);
  demotion(root, movers);
  damon_migration(root, movers);
  numad(root, movers);
  return movers;
}

void check_placement_holds(const std::vector<PageMover>& movers, const std::string& what) {
  std::string found;
  for (const PageMover& mover : movers) {
    if (!mover.moves_bound_pages) continue;
    found += fmt::format("{}{} ({})", found.empty() ? "" : "; ", mover.name, mover.evidence);
  }
  if (found.empty()) return;
  const char* allowed = std::getenv("COSCHED_ALLOW_PAGE_MOVERS");
  if (allowed != nullptr && std::string_view(allowed) == "1") return;
  throw ResourceError(fmt::format(
      "{}: the kernel or a daemon on this node moves bound pages to other nodes: {}. A fast share would not stay "
      "where the plan put it; turn the mover off, or set COSCHED_ALLOW_PAGE_MOVERS=1 to run anyway "
      "(docs/memory-tiers.md, \"Pages that move\")",
      what, found));
}

}  // namespace cosched::platform
