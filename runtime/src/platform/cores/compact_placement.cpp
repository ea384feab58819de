#include "platform/cores/compact_placement.hpp"

#include <algorithm>
#include <cassert>
#include <map>

namespace cosched::platform::cores_detail {

namespace {

// Domains from coarse to fine; a core is the finest.
enum class Level { package, cluster, l2, core };

Level finer(Level level) { return static_cast<Level>(static_cast<int>(level) + 1); }

// Keys are tuples so that a cluster spanning two packages splits per package (and an L2 per cluster).
std::vector<unsigned> key_of(const Core& core, Level level) {
  switch (level) {
    case Level::package: return {core.package};
    case Level::cluster: return {core.package, core.cluster};
    case Level::l2: return {core.package, core.cluster, core.l2};
    case Level::core: return {core.package, core.cluster, core.l2, core.index};
  }
  return {};
}

// The given cores split by domain at `level`, groups in order of their first (lowest) core.
std::vector<std::vector<unsigned>> group_by(const std::vector<Core>& cores, const std::vector<unsigned>& members,
                                            Level level) {
  std::map<std::vector<unsigned>, std::size_t> position;
  std::vector<std::vector<unsigned>> groups;
  for (unsigned index : members) {
    const auto [it, added] = position.try_emplace(key_of(cores[index], level), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(index);
  }
  return groups;
}

// The smallest group with at least `count` members (ties: the first); nullptr when none is big enough.
const std::vector<unsigned>* best_fit(const std::vector<std::vector<unsigned>>& groups, std::size_t count) {
  const std::vector<unsigned>* best = nullptr;
  for (const auto& group : groups) {
    if (group.size() >= count && (best == nullptr || group.size() < best->size())) best = &group;
  }
  return best;
}

// Takes `count` of `members`, which all lie in one domain at the level above `level`.
void take(const std::vector<Core>& cores, std::vector<unsigned> members, std::size_t count, Level level,
          std::vector<unsigned>& picked) {
  if (level == Level::core) {
    picked.insert(picked.end(), members.begin(), members.begin() + static_cast<std::ptrdiff_t>(count));
    return;
  }
  auto groups = group_by(cores, members, level);
  while (count > 0) {
    if (const auto* fit = best_fit(groups, count)) {
      take(cores, *fit, count, finer(level), picked);
      return;
    }
    // Nothing holds the rest: use up the largest sub-domain whole (fewest domains touched), then go on.
    auto largest = std::max_element(groups.begin(), groups.end(),
                                    [](const auto& a, const auto& b) { return a.size() < b.size(); });
    assert(largest != groups.end() && !largest->empty());
    count -= largest->size();
    take(cores, *largest, largest->size(), finer(level), picked);
    groups.erase(largest);
  }
}

}  // namespace

std::vector<unsigned> pick_compact(const std::vector<Core>& cores, const std::vector<unsigned>& free_cores,
                                   std::size_t count) {
  assert(count <= free_cores.size());
  std::vector<unsigned> picked;
  // Finest domain first: one L2 group if the task fits in one, else one cluster, else one package.
  for (Level level : {Level::l2, Level::cluster, Level::package}) {
    const auto groups = group_by(cores, free_cores, level);
    if (const auto* fit = best_fit(groups, count)) {
      take(cores, *fit, count, finer(level), picked);
      std::sort(picked.begin(), picked.end());
      return picked;
    }
  }
  take(cores, free_cores, count, Level::package, picked);
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace cosched::platform::cores_detail
