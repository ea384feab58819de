#include "cosched/online/campaigns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <utility>

#include "cosched/common/error.hpp"

namespace cosched::online {

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The jobs by submit time, ties by index: the order every rule reads them in.
std::vector<std::size_t> by_submit_time(const OnlineWorkload& workload) {
  std::vector<std::size_t> order(workload.arrivals.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return workload.arrivals[a].release < workload.arrivals[b].release;
  });
  return order;
}

// Per user, what the rules remember of the user's current campaign.
struct OpenCampaign {
  std::size_t id = kNone;
  double previous_release = 0.0;
  double previous_end = 0.0;
  double latest_end = 0.0;
};

bool joins(CampaignRule rule, const OpenCampaign& open, double release) {
  switch (rule) {
    case CampaignRule::last:
      return release <= open.previous_end;
    case CampaignRule::arrival:
      return release - open.previous_release <= kArrivalThreshold;
    case CampaignRule::max:
      return release <= open.latest_end;
  }
  return false;
}

}  // namespace

double logged_end(const OnlineWorkload& workload, std::size_t job) {
  const JobArrival& arrival = workload.arrivals[job];
  return arrival.logged_end ? *arrival.logged_end : arrival.release + workload.reference_time[job];
}

CampaignRule campaign_rule(std::string_view name) {
  for (const CampaignRule rule : {CampaignRule::last, CampaignRule::arrival, CampaignRule::max}) {
    if (campaign_rule_name(rule) == name) return rule;
  }
  throw UsageError(fmt::format("unknown campaign rule '{}' (known: last, arrival, max)", name));
}

std::string_view campaign_rule_name(CampaignRule rule) noexcept {
  switch (rule) {
    case CampaignRule::last:
      return "last";
    case CampaignRule::arrival:
      return "arrival";
    case CampaignRule::max:
      return "max";
  }
  return "?";
}

std::vector<std::size_t> detect_campaigns(const OnlineWorkload& workload, CampaignRule rule) {
  std::vector<std::size_t> campaign(workload.arrivals.size(), kNone);
  std::map<std::string, OpenCampaign> open;
  std::size_t next_id = 0;
  for (const std::size_t job : by_submit_time(workload)) {
    const double release = workload.arrivals[job].release;
    const double end = logged_end(workload, job);
    OpenCampaign& current = open[workload.arrivals[job].user];
    if (current.id == kNone || !joins(rule, current, release)) {
      current = {next_id++, release, end, end};
    } else {
      current.previous_release = release;
      current.previous_end = end;
      current.latest_end = std::max(current.latest_end, end);
    }
    campaign[job] = current.id;
  }
  return campaign;
}

std::vector<std::size_t> given_campaigns(const OnlineWorkload& workload) {
  const bool any = std::any_of(workload.arrivals.begin(), workload.arrivals.end(),
                               [](const JobArrival& arrival) { return !arrival.campaign.empty(); });
  if (!any) return {};
  std::vector<std::size_t> campaign(workload.arrivals.size(), kNone);
  std::map<std::pair<std::string, std::string>, std::size_t> ids;
  std::size_t next_id = 0;
  for (const std::size_t job : by_submit_time(workload)) {
    const JobArrival& arrival = workload.arrivals[job];
    if (arrival.campaign.empty()) {
      campaign[job] = next_id++;
      continue;
    }
    const auto [found, inserted] = ids.try_emplace({arrival.user, arrival.campaign}, next_id);
    if (inserted) ++next_id;
    campaign[job] = found->second;
  }
  return campaign;
}

}  // namespace cosched::online
