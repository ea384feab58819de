// The Instance JSON: its one parser and its one writer (docs/formats.md).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "cosched/common/checked.hpp"
#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/bsp.hpp"
#include "cosched/sched/io.hpp"
#include "sched/bandwidth_json.hpp"
#include "sched/json_parts.hpp"

namespace cosched::sched {

using nlohmann::json;

namespace {

// The space of the resources; a product of capacities too large to schedule names the file.
AllocationSpace make_space(const std::vector<Resource>& resources, const std::string& source) {
  try {
    return AllocationSpace(capacities_of(resources));
  } catch (const ResourceError& e) {
    throw ResourceError(fmt::format("{}: {}", source, e.what()));
  }
}

std::vector<double> parse_times(const json& times, const AllocationSpace& space, const std::string& where) {
  (void)json_to_array(times, where, "\"times\"");
  if (times.size() != space.size()) {
    throw InputError(where, fmt::format("times has {} entries, expected {} (product of capacity+1)", times.size(),
                                        space.size()));
  }
  const Range range = non_negative_up_to(kMaxSeconds);
  std::vector<double> values(times.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    const json& entry = times[k];
    if (entry.is_null()) {
      values[k] = kInfinity;
    } else if (entry.is_number() && range.contains(entry.get<double>())) {  // the common case, without a name
      values[k] = entry.get<double>();
    } else {
      values[k] = json_to_number(entry, range, where, fmt::format("times[{}]", k));
    }
  }
  return values;
}

// A task's times: a dense table ("times"), or the BSP model of seed 004 ("req" processors, "time_at_req" seconds on
// them; t(p) = ceil(req/p) * time_at_req on p of the first resource, docs/formats.md).
std::shared_ptr<const TimeProfile> parse_profile(const json& task, const AllocationSpace& space,
                                                 const std::string& where) {
  const json* req = find_json_member(task, "req", where);
  const json* time_at_req = find_json_member(task, "time_at_req", where);
  if (req == nullptr && time_at_req == nullptr) {
    return std::make_shared<DenseTimeTable>(space, parse_times(json_member(task, "times", where), space, where));
  }
  if (find_json_member(task, "times", where) != nullptr) {
    throw InputError(where, "has both \"times\" and the BSP \"req\"/\"time_at_req\": give one time model");
  }
  if (req == nullptr || time_at_req == nullptr) {
    throw InputError(where, fmt::format("a BSP task needs both \"req\" and \"time_at_req\", \"{}\" is missing",
                                        req == nullptr ? "req" : "time_at_req"));
  }
  const int procs = static_cast<int>(json_to_integer(*req, 1, space.capacity(0), where, "\"req\""));
  const double seconds = json_to_number(*time_at_req, positive_up_to(kMaxSeconds), where, "\"time_at_req\"");
  return std::make_shared<BspProfile>(procs, seconds);
}

// The members of `object` other than `excluded`, verbatim.
json other_members(const json& object, std::initializer_list<const char*> excluded) {
  json rest = json::object();
  for (const auto& member : object.items()) {
    const std::string& key = member.key();
    if (std::none_of(excluded.begin(), excluded.end(), [&](const char* name) { return key == name; })) {
      rest[key] = member.value();
    }
  }
  return rest;
}

}  // namespace

Instance parse_instance(std::string_view text, const std::string& source) {
  return instance_from_json(parse_json_text(text, source), source);
}

Instance instance_from_json(const json& root, const std::string& source) {
  require_json_object(root, source);
  std::vector<Resource> resources = detail::resources_from_json(json_member(root, "resources", source), source);
  const AllocationSpace space = make_space(resources, source);
  BandwidthModel bandwidth;
  if (const json* object = find_json_member(root, "bandwidth", source)) {
    bandwidth = detail::bandwidth_from_json(*object, source);
  }
  const json& array = json_to_array(json_member(root, "tasks", source), source, "\"tasks\"");
  std::vector<Task> tasks;
  tasks.reserve(array.size());
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t j = 0; j < array.size(); ++j) {
    std::string id = detail::task_id_from_json(array[j], source, j);
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    if (const auto [it, inserted] = seen.emplace(id, j); !inserted) {
      throw InputError(where, fmt::format("duplicate id (tasks[{}] and tasks[{}])", it->second, j));
    }
    auto profile = parse_profile(array[j], space, where);
    std::shared_ptr<const TrafficTable> traffic;
    if (const json* object = find_json_member(array[j], "traffic_bytes", where)) {
      traffic = detail::traffic_from_json(*object, bandwidth, space.size(), where);
    }
    double weight = 1.0;
    if (const json* value = find_json_member(array[j], "weight", where)) {
      weight = json_to_number(*value, positive_up_to(kMaxWeight), where, "\"weight\"");
    }
    tasks.push_back({std::move(id), std::move(profile),
                     other_members(array[j], {"id", "times", "req", "time_at_req", "traffic_bytes", "weight"}),
                     std::move(traffic), weight});
  }
  Instance instance(std::move(resources), std::move(tasks), other_members(root, {"resources", "tasks", "bandwidth"}),
                    std::move(bandwidth));
  check_serial_time(instance, source);
  return instance;
}

Instance load_instance(const std::filesystem::path& path) {
  return parse_instance(read_text_file(path, "instance"), path.string());
}

std::string instance_to_json(const Instance& instance) {
  json root = instance.attributes();
  root["resources"] = detail::resources_to_json<json>(instance.resources());
  if (!instance.bandwidth().empty()) root["bandwidth"] = detail::bandwidth_to_json(instance.bandwidth());
  root["tasks"] = json::array();
  std::vector<double> times(instance.space().size());
  for (const auto& task : instance.tasks()) {
    json entry = task.attributes;
    entry["id"] = task.id;
    if (const auto* bsp = dynamic_cast<const BspProfile*>(task.profile.get())) {
      // Its two numbers, not a table: a BSP batch on 256 processors stays O(n) (the paper's O(n log m) size).
      entry["req"] = bsp->req();
      entry["time_at_req"] = bsp->time_at_req();
    } else {
      task.profile->fill_times(instance.space(), times);
      json values = json::array();
      for (double t : times) values.push_back(std::isinf(t) ? json(nullptr) : json(t));
      entry["times"] = std::move(values);
    }
    if (task.weight != 1.0) entry["weight"] = task.weight;  // files without weights read and write back the same
    if (task.traffic != nullptr) entry["traffic_bytes"] = detail::traffic_to_json(*task.traffic, instance.bandwidth());
    root["tasks"].push_back(std::move(entry));
  }
  return root.dump();
}

void check_serial_time(const Instance& instance, const std::string& where) {
  std::vector<double> times(instance.space().size());
  double total = 0.0;
  for (const auto& task : instance.tasks()) {
    task.profile->fill_times(instance.space(), times);
    double longest = 0.0;
    for (const double t : times) {
      if (!std::isinf(t)) longest = std::max(longest, t);
    }
    total += longest;
  }
  if (total > kMaxSeconds) {
    throw InputError(where, fmt::format("the tasks' longest finite times add up to {}, more than {:g}: a schedule "
                                        "could end beyond the longest time cosched accepts",
                                        total, kMaxSeconds));
  }
}

}  // namespace cosched::sched
