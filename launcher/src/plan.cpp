#include "cosched/launcher/plan.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <unordered_set>

#include "cosched/common/error.hpp"

namespace cosched::launcher {

using nlohmann::json;

bool LaunchPlan::is_pack() const noexcept {
  return !tasks.empty() && std::all_of(tasks.begin(), tasks.end(), [](const auto& t) { return t.pack >= 0; });
}

double LaunchPlan::predicted_makespan() const noexcept {
  double makespan = 0.0;
  for (const auto& task : tasks) makespan = std::max(makespan, task.planned_end());
  return makespan;
}

LaunchPlan plan_from_schedule(const sched::Instance& instance, const sched::Schedule& schedule) {
  LaunchPlan plan;
  plan.algorithm = schedule.algorithm;
  for (const auto& resource : instance.resources()) {
    plan.resource_names.push_back(resource.name);
    plan.capacities.push_back(resource.capacity);
  }
  plan.lower_bound = schedule.lower_bound;
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    plan.tasks.push_back({instance.tasks()[j].id, task.alloc, task.start, task.duration, task.pack});
  }
  return plan;
}

namespace {

double finite_non_negative(const json& entry, const char* key, const std::string& where) {
  if (!entry.contains(key) || !entry[key].is_number()) throw InputError(where, fmt::format("\"{}\" missing", key));
  const double value = entry[key].get<double>();
  if (!std::isfinite(value) || value < 0) {
    throw InputError(where, fmt::format("\"{}\" must be finite and >= 0, got {}", key, value));
  }
  return value;
}

}  // namespace

LaunchPlan load_schedule_plan(const std::filesystem::path& path, std::vector<std::string> resource_names,
                              std::vector<int> capacities) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string(), "cannot open schedule");
  std::stringstream text;
  text << in.rdbuf();
  const json root = json::parse(text.str(), nullptr, false);
  const std::string file = path.string();
  if (root.is_discarded() || !root.is_object()) throw InputError(file, "not a JSON object");
  if (!root.contains("tasks") || !root["tasks"].is_array()) throw InputError(file, "\"tasks\" array missing");

  LaunchPlan plan;
  plan.algorithm = root.value("algorithm", std::string("unknown"));
  plan.lower_bound = root.contains("lower_bound") && root["lower_bound"].is_number() ? root["lower_bound"].get<double>()
                                                                                     : 0.0;
  plan.resource_names = std::move(resource_names);
  plan.capacities = std::move(capacities);
  std::unordered_set<std::string> seen;
  std::size_t with_pack = 0;
  const json& tasks = root["tasks"];
  for (std::size_t k = 0; k < tasks.size(); ++k) {
    const json& entry = tasks[k];
    std::string where = fmt::format("{}: tasks[{}]", file, k);
    if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) {
      throw InputError(where, "needs a string \"id\"");
    }
    PlannedTask task;
    task.id = entry["id"].get<std::string>();
    where = fmt::format("{}: task \"{}\"", file, task.id);
    if (!seen.insert(task.id).second) throw InputError(where, "scheduled twice");
    if (!entry.contains("alloc") || !entry["alloc"].is_array()) throw InputError(where, "\"alloc\" array missing");
    const json& alloc = entry["alloc"];
    if (alloc.size() != plan.capacities.size()) {
      throw InputError(where, fmt::format("alloc has {} entries, this node schedules {} resources ({})", alloc.size(),
                                          plan.capacities.size(), fmt::join(plan.resource_names, ", ")));
    }
    for (std::size_t i = 0; i < alloc.size(); ++i) {
      if (!alloc[i].is_number_integer()) throw InputError(where, fmt::format("alloc[{}] is not an integer", i));
      const int amount = alloc[i].get<int>();
      if (amount < 0 || amount > plan.capacities[i]) {
        throw InputError(where, fmt::format("alloc[{}] = {} {} outside 0..{} of this node", i, amount,
                                            plan.resource_names[i], plan.capacities[i]));
      }
      task.demand.push_back(amount);
    }
    if (task.demand.front() < 1) throw InputError(where, "a task needs at least one core (alloc[0] >= 1)");
    task.planned_start = finite_non_negative(entry, "start", where);
    task.predicted_duration = finite_non_negative(entry, "duration", where);
    if (entry.contains("pack")) {
      if (!entry["pack"].is_number_integer() || entry["pack"].get<int>() < 0) {
        throw InputError(where, "\"pack\" must be an integer >= 0");
      }
      task.pack = entry["pack"].get<int>();
      ++with_pack;
    }
    plan.tasks.push_back(std::move(task));
  }
  if (with_pack != 0 && with_pack != plan.tasks.size()) {
    throw InputError(file, fmt::format("{} of {} tasks have a \"pack\": a schedule is list or pack, not both",
                                       with_pack, plan.tasks.size()));
  }
  return plan;
}

LaunchPlan remaining_plan(const LaunchPlan& plan, const std::vector<std::string>& done_ids) {
  const std::set<std::string> done(done_ids.begin(), done_ids.end());
  LaunchPlan rest = plan;
  rest.tasks.clear();
  double earliest = std::numeric_limits<double>::infinity();
  for (const auto& task : plan.tasks) {
    if (done.count(task.id) != 0) continue;
    rest.tasks.push_back(task);
    earliest = std::min(earliest, task.planned_start);
  }
  for (auto& task : rest.tasks) task.planned_start -= earliest;
  return rest;
}

}  // namespace cosched::launcher
