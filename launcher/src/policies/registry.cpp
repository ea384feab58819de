#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>

#include "cosched/common/error.hpp"
#include "cosched/launcher/policies.hpp"
#include "policies/list_policy.hpp"
#include "policies/pack_policy.hpp"

namespace cosched::launcher {

namespace {

struct PolicyEntry {
  std::string_view name;
  std::function<std::unique_ptr<Policy>(const LaunchPlan&)> make;
};

const std::vector<PolicyEntry>& registry() {
  static const std::vector<PolicyEntry> entries{
      {"list", [](const LaunchPlan& plan) { return std::make_unique<policies::ListPolicy>(plan); }},
      {"pack", [](const LaunchPlan&) { return std::make_unique<policies::PackPolicy>(); }},
  };
  return entries;
}

}  // namespace

std::vector<std::string> policy_names() {
  std::vector<std::string> names{"auto"};
  for (const auto& entry : registry()) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Policy> make_policy(std::string_view name, const LaunchPlan& plan) {
  if (name == "auto") name = plan.is_pack() ? "pack" : "list";
  if (name == "pack" && !plan.is_pack()) {
    throw UsageError("the pack policy needs a pack schedule (every task with a \"pack\" number)");
  }
  for (const auto& entry : registry()) {
    if (entry.name == name) return entry.make(plan);
  }
  throw UsageError(fmt::format("unknown launch policy '{}' (known: {})", name, fmt::join(policy_names(), ", ")));
}

}  // namespace cosched::launcher
