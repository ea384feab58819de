#include "cosched/sched/io.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "cosched/common/error.hpp"

namespace cosched::sched {

using nlohmann::json;

namespace {

json parse_json(std::string_view text, const std::string& source) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw InputError(source, fmt::format("not valid JSON (byte {}): {}", e.byte, e.what()));
  }
}

const json& require(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw InputError(where, "is not a JSON object");
  const auto it = object.find(key);
  if (it == object.end()) throw InputError(where, fmt::format("missing \"{}\"", key));
  return *it;
}

const json& require_array(const json& object, const char* key, const std::string& where) {
  const json& value = require(object, key, where);
  if (!value.is_array()) throw InputError(where, fmt::format("\"{}\" is not an array", key));
  return value;
}

std::string require_string(const json& object, const char* key, const std::string& where) {
  const json& value = require(object, key, where);
  if (!value.is_string()) throw InputError(where, fmt::format("\"{}\" is not a string", key));
  return value.get<std::string>();
}

double require_number(const json& object, const char* key, const std::string& where) {
  const json& value = require(object, key, where);
  if (!value.is_number()) throw InputError(where, fmt::format("\"{}\" is not a number", key));
  return value.get<double>();
}

std::vector<Resource> parse_resources(const json& root, const std::string& source) {
  const json& array = require_array(root, "resources", source);
  if (array.empty()) throw InputError(source, "\"resources\" is empty: at least one resource type is needed");
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string where = fmt::format("{}: resources[{}]", source, i);
    Resource resource;
    resource.name = require_string(array[i], "name", where);
    const json& capacity = require(array[i], "capacity", where);
    if (!capacity.is_number_integer()) throw InputError(where, "\"capacity\" is not an integer");
    const auto value = capacity.get<long long>();
    if (value < 1) throw InputError(where, fmt::format("capacity {} is below 1", value));
    if (value > std::numeric_limits<int>::max()) throw InputError(where, fmt::format("capacity {} is too large", value));
    resource.capacity = static_cast<int>(value);
    resources.push_back(std::move(resource));
  }
  return resources;
}

std::vector<double> parse_times(const json& times, const AllocationSpace& space, const std::string& where) {
  if (!times.is_array()) throw InputError(where, "\"times\" is not an array");
  if (times.size() != space.size()) {
    throw InputError(where, fmt::format("times has {} entries, expected {} (product of capacity+1)", times.size(),
                                        space.size()));
  }
  std::vector<double> values(times.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    const json& entry = times[k];
    if (entry.is_null()) {
      values[k] = std::numeric_limits<double>::infinity();
      continue;
    }
    if (!entry.is_number()) throw InputError(where, fmt::format("times[{}] is neither a number nor null", k));
    const double value = entry.get<double>();
    if (std::isnan(value)) throw InputError(where, fmt::format("times[{}] is NaN", k));
    if (value < 0.0) throw InputError(where, fmt::format("times[{}] is negative", k));
    values[k] = value;
  }
  return values;
}

}  // namespace

Instance parse_instance(std::string_view text, const std::string& source) {
  const json root = parse_json(text, source);
  if (!root.is_object()) throw InputError(source, "the instance is not a JSON object");
  std::vector<Resource> resources = parse_resources(root, source);
  const AllocationSpace space(capacities_of(resources));
  const json& array = require_array(root, "tasks", source);
  std::vector<Task> tasks;
  tasks.reserve(array.size());
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t j = 0; j < array.size(); ++j) {
    const std::string position = fmt::format("{}: tasks[{}]", source, j);
    std::string id = require_string(array[j], "id", position);
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    if (const auto [it, inserted] = seen.emplace(id, j); !inserted) {
      throw InputError(where, fmt::format("duplicate id (tasks[{}] and tasks[{}])", it->second, j));
    }
    auto times = parse_times(require(array[j], "times", where), space, where);
    tasks.push_back({std::move(id), std::make_shared<DenseTimeTable>(space, std::move(times))});
  }
  return Instance(std::move(resources), std::move(tasks));
}

Instance load_instance(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string(), "cannot open the instance file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_instance(text.str(), path.string());
}

std::string instance_to_json(const Instance& instance) {
  json root;
  root["resources"] = json::array();
  for (const auto& resource : instance.resources()) {
    root["resources"].push_back({{"name", resource.name}, {"capacity", resource.capacity}});
  }
  root["tasks"] = json::array();
  std::vector<double> times(instance.space().size());
  for (const auto& task : instance.tasks()) {
    task.profile->fill_times(instance.space(), times);
    json values = json::array();
    for (double t : times) values.push_back(std::isinf(t) ? json(nullptr) : json(t));
    root["tasks"].push_back({{"id", task.id}, {"times", std::move(values)}});
  }
  return root.dump();
}

// Keys in the documented order and one task per line, so schedules read well and diff line by line.
std::string schedule_to_json(const Instance& instance, const Schedule& schedule) {
  using ordered = nlohmann::ordered_json;
  std::string text = fmt::format("{{\n  \"algorithm\": {},\n  \"makespan\": {},\n  \"lower_bound\": {},\n  \"tasks\": [",
                                 ordered(schedule.algorithm).dump(), ordered(schedule.makespan).dump(),
                                 ordered(schedule.lower_bound).dump());
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    const auto& task = schedule.tasks[j];
    ordered entry = {{"id", instance.tasks()[j].id},
                     {"alloc", task.alloc},
                     {"start", task.start},
                     {"duration", task.duration}};
    if (task.pack >= 0) entry["pack"] = task.pack;
    text += fmt::format("{}\n    {}", j == 0 ? "" : ",", entry.dump());
  }
  text += schedule.tasks.empty() ? "]\n}" : "\n  ]\n}";
  return text;
}

Schedule parse_schedule(std::string_view text, const Instance& instance, const std::string& source) {
  const json root = parse_json(text, source);
  Schedule schedule;
  schedule.algorithm = require_string(root, "algorithm", source);
  schedule.makespan = require_number(root, "makespan", source);
  schedule.lower_bound = require_number(root, "lower_bound", source);
  std::unordered_map<std::string, std::size_t> index_of;
  for (std::size_t j = 0; j < instance.task_count(); ++j) index_of.emplace(instance.tasks()[j].id, j);
  schedule.tasks.resize(instance.task_count());
  std::vector<bool> present(instance.task_count(), false);
  const json& array = require_array(root, "tasks", source);
  for (std::size_t k = 0; k < array.size(); ++k) {
    const std::string id = require_string(array[k], "id", fmt::format("{}: tasks[{}]", source, k));
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    const auto it = index_of.find(id);
    if (it == index_of.end()) throw InputError(where, "not in the instance");
    if (present[it->second]) throw InputError(where, "scheduled twice");
    present[it->second] = true;
    auto& task = schedule.tasks[it->second];
    const json& alloc = require_array(array[k], "alloc", where);
    if (alloc.size() != instance.dimensions()) {
      throw InputError(where, fmt::format("alloc has {} entries, expected {}", alloc.size(), instance.dimensions()));
    }
    for (std::size_t i = 0; i < alloc.size(); ++i) {
      if (!alloc[i].is_number_integer()) throw InputError(where, fmt::format("alloc[{}] is not an integer", i));
      task.alloc.push_back(alloc[i].get<int>());
    }
    task.start = require_number(array[k], "start", where);
    task.duration = require_number(array[k], "duration", where);
    if (const auto pack = array[k].find("pack"); pack != array[k].end()) {
      if (!pack->is_number_integer() || pack->get<long long>() < 0) {
        throw InputError(where, "\"pack\" is not a non-negative integer");
      }
      task.pack = pack->get<int>();
    }
  }
  for (std::size_t j = 0; j < present.size(); ++j) {
    if (!present[j]) throw InputError(fmt::format("{}: task \"{}\"", source, instance.tasks()[j].id), "missing");
  }
  return schedule;
}

}  // namespace cosched::sched
