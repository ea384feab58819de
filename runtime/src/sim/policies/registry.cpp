#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "cosched/common/error.hpp"
#include "cosched/sim/policies.hpp"
#include "sim/policies/list_policy.hpp"
#include "sim/policies/online_policy.hpp"
#include "sim/policies/pack_policy.hpp"

namespace cosched::sim {

namespace {

struct PolicyEntry {
  std::string_view name;
  std::function<std::unique_ptr<Policy>(const LaunchPlan&, Replanner*)> make;
};

const std::vector<PolicyEntry>& policy_registry() {
  static const std::vector<PolicyEntry> entries{
      {"list", [](const LaunchPlan& plan, Replanner*) { return std::make_unique<policies::ListPolicy>(plan); }},
      {"pack", [](const LaunchPlan&, Replanner*) { return std::make_unique<policies::PackPolicy>(); }},
      {"greedy",
       [](const LaunchPlan& plan, Replanner* replanner) {
         return std::make_unique<policies::ListPolicy>(plan, false, replanner);
       }},
  };
  return entries;
}

}  // namespace

std::vector<std::string> policy_names() {
  std::vector<std::string> names{"auto"};
  for (const auto& entry : policy_registry()) names.emplace_back(entry.name);
  for (auto& name : online::online_policy_names()) names.push_back(std::move(name));
  return names;
}

std::unique_ptr<Policy> make_policy(std::string_view name, const LaunchPlan& plan, Replanner* replanner) {
  // The online policies (online/policy.hpp) run online plans, the launch rules run schedules.
  const auto online = online::online_policy_names();
  const bool online_name = std::find(online.begin(), online.end(), name) != online.end();
  if (plan.is_online()) {
    if (!online_name) {
      throw UsageError(fmt::format("an online workload needs an online policy, not '{}' (known: {})", name,
                                   fmt::join(online, ", ")));
    }
    return std::make_unique<policies::OnlinePolicyAdapter>(
        online::make_online_policy(name, plan.online_options, *plan.online), plan);
  }
  if (online_name) {
    throw UsageError(fmt::format("'{}' is an online policy: it schedules jobs as they arrive (cosched online), "
                                 "not a schedule's plan",
                                 name));
  }
  // "auto": the rule the plan was made for — its schedule's launch rule when it names one, else by its kind.
  if (name == "auto") name = !plan.launch_rule.empty() ? std::string_view(plan.launch_rule) : plan.is_pack() ? "pack" : "list";
  if (name == "pack" && !plan.is_pack()) {
    throw UsageError("the pack policy needs a pack schedule (every task with a \"pack\" number)");
  }
  for (const auto& entry : policy_registry()) {
    if (entry.name == name) return entry.make(plan, replanner);
  }
  throw UsageError(fmt::format("unknown launch policy '{}' (known: {})", name, fmt::join(policy_names(), ", ")));
}

}  // namespace cosched::sim
