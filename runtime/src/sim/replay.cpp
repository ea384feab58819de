// The replay modes of sim/replay.hpp: open loop (the logged releases) and closed loop (release gates that keep each
// user's think times).
#include "cosched/sim/replay.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "cosched/common/error.hpp"
#include "cosched/online/campaigns.hpp"

namespace cosched::sim {

namespace {

using online::OnlineWorkload;

ReplaySummary open_loop(LaunchPlan& /*plan*/, std::span<const std::size_t> /*campaign_of*/) { return {"open", 0, 0}; }

// Each user's jobs in submit order (ties: job index); jobs without a user are left out (they keep their releases).
std::map<std::string, std::vector<std::size_t>> jobs_by_user(const OnlineWorkload& workload) {
  std::vector<std::size_t> order(workload.arrivals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return workload.arrivals[a].release < workload.arrivals[b].release;
  });
  std::map<std::string, std::vector<std::size_t>> by_user;
  for (const std::size_t job : order) {
    if (!workload.arrivals[job].user.empty()) by_user[workload.arrivals[job].user].push_back(job);
  }
  return by_user;
}

// The units one user releases together, each in submit order: single jobs, or the user's campaigns in the order
// of their first jobs.
std::vector<std::vector<std::size_t>> units_of(const std::vector<std::size_t>& jobs,
                                               std::span<const std::size_t> campaign_of) {
  std::vector<std::vector<std::size_t>> units;
  if (campaign_of.empty()) {
    for (const std::size_t job : jobs) units.push_back({job});
    return units;
  }
  std::map<std::size_t, std::size_t> unit_of_campaign;
  for (const std::size_t job : jobs) {
    const auto [found, added] = unit_of_campaign.try_emplace(campaign_of[job], units.size());
    if (added) units.emplace_back();
    units[found->second].push_back(job);
  }
  return units;
}

// One user's gates. Its jobs by logged end form a chain; the work a unit followed is a prefix of that chain (the
// jobs that ended by the unit's first submit). A gate per distinct prefix: each waits for the chain's jobs past the
// previous prefix and follows that prefix's gate, so every job appears in one gate and the gates stay O(jobs).
void gate_user(LaunchPlan& plan, const std::vector<std::size_t>& jobs, std::span<const std::size_t> campaign_of,
               ReplaySummary& summary) {
  const OnlineWorkload& workload = *plan.online;
  std::vector<std::size_t> chain(jobs);
  std::vector<double> ends(jobs.size());
  std::stable_sort(chain.begin(), chain.end(), [&](std::size_t a, std::size_t b) {
    return online::logged_end(workload, a) < online::logged_end(workload, b);
  });
  for (std::size_t k = 0; k < chain.size(); ++k) ends[k] = online::logged_end(workload, chain[k]);

  const std::vector<std::vector<std::size_t>> units = units_of(jobs, campaign_of);
  std::vector<std::pair<std::size_t, std::size_t>> waits;  // (prefix length, unit)
  for (std::size_t u = 0; u < units.size(); ++u) {
    const double first_submit = workload.arrivals[units[u].front()].release;
    const auto prefix = static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), first_submit) - ends.begin());
    if (prefix > 0) waits.emplace_back(prefix, u);  // else: the user's first work, or it overlaps all before it
  }
  std::stable_sort(waits.begin(), waits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t previous_prefix = 0;
  std::size_t gate = kNoGate;
  for (const auto& [prefix, unit] : waits) {
    if (prefix != previous_prefix) {
      ReleaseGate next{gate, {chain.begin() + static_cast<std::ptrdiff_t>(previous_prefix),
                              chain.begin() + static_cast<std::ptrdiff_t>(prefix)},
                       ends[prefix - 1]};
      gate = plan.gates.size();
      plan.gates.push_back(std::move(next));
      previous_prefix = prefix;
      ++summary.gates;
    }
    for (const std::size_t job : units[unit]) plan.tasks[job].gate = gate;
    summary.followers += units[unit].size();
  }
}

ReplaySummary closed_loop(LaunchPlan& plan, std::span<const std::size_t> campaign_of) {
  ReplaySummary summary{"closed", 0, 0};
  for (const auto& [user, jobs] : jobs_by_user(*plan.online)) gate_user(plan, jobs, campaign_of, summary);
  return summary;
}

struct ReplayEntry {
  ReplayInfo info;
  ReplaySummary (*apply)(LaunchPlan&, std::span<const std::size_t>);
};

const std::vector<ReplayEntry>& replay_registry() {
  static const std::vector<ReplayEntry> entries{
      {{"open", "every job at its logged submit time, whatever the simulated schedule did (default)"}, open_loop},
      {{"closed",
        "users keep their think times: a user's next job (or campaign, with --campaigns) is released at the "
        "simulated completion of the work it followed in the log plus the logged think time"},
       closed_loop},
  };
  return entries;
}

}  // namespace

std::vector<ReplayInfo> replay_modes() {
  std::vector<ReplayInfo> modes;
  for (const auto& entry : replay_registry()) modes.push_back(entry.info);
  return modes;
}

ReplaySummary apply_replay(LaunchPlan& plan, std::string_view mode, std::span<const std::size_t> campaign_of) {
  const auto entry = std::find_if(replay_registry().begin(), replay_registry().end(),
                                  [&](const ReplayEntry& e) { return e.info.name == mode; });
  if (entry == replay_registry().end()) {
    std::vector<std::string_view> names;
    for (const auto& known : replay_registry()) names.push_back(known.info.name);
    throw UsageError(fmt::format("unknown replay '{}' (known: {})", mode, fmt::join(names, ", ")));
  }
  if (!plan.is_online()) throw UsageError("a replay mode applies to an online workload's plan");
  if (!plan.gates.empty()) throw UsageError("the plan already has release gates: one replay mode per plan");
  if (!campaign_of.empty() && campaign_of.size() != plan.tasks.size()) {
    throw UsageError(fmt::format("{} campaign ids for {} jobs", campaign_of.size(), plan.tasks.size()));
  }
  return entry->apply(plan, campaign_of);
}

}  // namespace cosched::sim
