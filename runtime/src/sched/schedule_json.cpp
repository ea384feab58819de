// The Schedule JSON: its one parser and its one writer, and the matching of a document to an instance or a node
// (docs/formats.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/json_input.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/sched/io.hpp"
#include "sched/bandwidth_json.hpp"
#include "sched/json_parts.hpp"

namespace cosched::sched {

using nlohmann::json;

namespace {

// A start is at most kMaxSeconds and so is a duration: a completion, hence a makespan, at most twice that.
const Range kTimeRange = non_negative_up_to(kMaxSeconds);
// A weighted completion sum: up to n * kMaxWeight * 2 kMaxSeconds — any finite, non-negative double.
const Range kWeightedSumRange = non_negative_up_to(std::numeric_limits<double>::max());

std::optional<double> optional_number(const json& root, const char* key, const Range& range, const std::string& source) {
  const json* value = find_json_member(root, key, source);
  if (value == nullptr) return std::nullopt;
  return json_to_number(*value, range, source, fmt::format("\"{}\"", key));
}

std::string describe(const std::vector<Resource>& resources) {
  std::vector<std::string> parts;
  for (const auto& resource : resources) parts.push_back(fmt::format("{}={}", resource.name, resource.capacity));
  return fmt::format("{}", fmt::join(parts, ", "));
}

ScheduledTask parse_task(const json& entry, std::size_t task_count, const std::string& where) {
  ScheduledTask task;
  const json& alloc = json_to_array(json_member(entry, "alloc", where), where, "\"alloc\"");
  if (alloc.empty()) throw InputError(where, "\"alloc\" is empty");
  for (std::size_t i = 0; i < alloc.size(); ++i) {
    task.alloc.push_back(
        static_cast<int>(json_to_integer(alloc[i], 0, kMaxCapacity, where, fmt::format("alloc[{}]", i))));
  }
  task.start = json_to_number(json_member(entry, "start", where), kTimeRange, where, "\"start\"");
  task.duration = json_to_number(json_member(entry, "duration", where), kTimeRange, where, "\"duration\"");
  if (const json* pack = find_json_member(entry, "pack", where)) {
    task.pack = static_cast<int>(
        json_to_integer(*pack, 0, static_cast<std::int64_t>(task_count) - 1, where, "\"pack\""));
  }
  return task;
}

// Allocation vectors have one length: the recorded resources' count, or else the first task's.
void check_alloc_lengths(const ScheduleDocument& document, const std::string& source) {
  if (document.tasks.empty()) return;
  const std::size_t expected =
      document.resources.empty() ? document.tasks.front().task.alloc.size() : document.resources.size();
  for (const auto& [id, task, traffic] : document.tasks) {
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    if (task.alloc.size() != expected) {
      throw InputError(where, document.resources.empty()
                                  ? fmt::format("alloc has {} entries, the first task's {}", task.alloc.size(), expected)
                                  : fmt::format("alloc has {} entries, the schedule's resources are {} ({})",
                                                task.alloc.size(), expected, describe(document.resources)));
    }
    for (std::size_t i = 0; i < document.resources.size(); ++i) {
      if (task.alloc[i] > document.resources[i].capacity) {
        throw InputError(where, fmt::format("alloc[{}] = {} is above the capacity {} of \"{}\"", i, task.alloc[i],
                                            document.resources[i].capacity, document.resources[i].name));
      }
    }
  }
}

void check_packs(const ScheduleDocument& document, const std::string& source) {
  std::size_t with_pack = 0;
  for (const auto& entry : document.tasks) with_pack += entry.task.pack >= 0 ? 1 : 0;
  if (with_pack != 0 && with_pack != document.tasks.size()) {
    throw InputError(source, fmt::format("{} of {} tasks have a \"pack\": a schedule is list or pack, not both",
                                         with_pack, document.tasks.size()));
  }
}

}  // namespace

ScheduleDocument parse_schedule_document(std::string_view text, const std::string& source) {
  const json root = parse_json_text(text, source);
  require_json_object(root, source);
  ScheduleDocument document;
  document.algorithm = json_to_string(json_member(root, "algorithm", source), source, "\"algorithm\"");
  if (const json* resources = find_json_member(root, "resources", source)) {
    document.resources = detail::resources_from_json(*resources, source);
  }
  if (const json* bandwidth = find_json_member(root, "bandwidth", source)) {
    document.bandwidth = detail::bandwidth_from_json(*bandwidth, source);
  }
  const json& array = json_to_array(json_member(root, "tasks", source), source, "\"tasks\"");
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t k = 0; k < array.size(); ++k) {
    std::string id = detail::task_id_from_json(array[k], source, k);
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    if (!seen.emplace(id, k).second) throw InputError(where, "scheduled twice");
    std::vector<double> traffic;
    if (const json* object = find_json_member(array[k], "traffic_bytes", where)) {
      traffic = detail::traffic_at_from_json(*object, document.bandwidth, where);
    }
    document.tasks.push_back({std::move(id), parse_task(array[k], array.size(), where), std::move(traffic)});
  }
  check_alloc_lengths(document, source);
  check_packs(document, source);
  std::vector<ScheduledTask> tasks;
  for (const auto& entry : document.tasks) tasks.push_back(entry.task);
  const json* makespan = find_json_member(root, "makespan", source);
  document.makespan = makespan == nullptr ? completion_time(tasks)
                                          : json_to_number(*makespan, makespan_range(), source, "\"makespan\"");
  document.lower_bound = optional_number(root, "lower_bound", makespan_range(), source).value_or(0.0);
  document.weighted_completion_sum = optional_number(root, "weighted_completion_sum", kWeightedSumRange, source);
  document.lower_bound_weighted_completion =
      optional_number(root, "lower_bound_weighted_completion", kWeightedSumRange, source);
  if (const json* rule = find_json_member(root, "launch_rule", source)) {
    document.launch_rule = json_to_string(*rule, source, "\"launch_rule\"");
    if (document.launch_rule != "greedy") {
      throw InputError(source, fmt::format("\"launch_rule\" is \"greedy\" when given, got \"{}\"",
                                           document.launch_rule));
    }
  }
  return document;
}

ScheduleDocument load_schedule_document(const std::filesystem::path& path) {
  return parse_schedule_document(read_text_file(path, "schedule"), path.string());
}

std::string schedule_document_to_json(const ScheduleDocument& document) {
  using ordered = nlohmann::ordered_json;
  std::string text = fmt::format("{{\n  \"algorithm\": {},\n  \"makespan\": {},\n  \"lower_bound\": {},\n",
                                 ordered(document.algorithm).dump(), ordered(document.makespan).dump(),
                                 ordered(document.lower_bound).dump());
  if (document.weighted_completion_sum) {
    text += fmt::format("  \"weighted_completion_sum\": {},\n", ordered(*document.weighted_completion_sum).dump());
  }
  if (document.lower_bound_weighted_completion) {
    text += fmt::format("  \"lower_bound_weighted_completion\": {},\n",
                        ordered(*document.lower_bound_weighted_completion).dump());
  }
  if (!document.launch_rule.empty()) {
    text += fmt::format("  \"launch_rule\": {},\n", ordered(document.launch_rule).dump());
  }
  if (!document.resources.empty()) {
    text += fmt::format("  \"resources\": {},\n", detail::resources_to_json<ordered>(document.resources).dump());
  }
  if (!document.bandwidth.empty()) {
    text += fmt::format("  \"bandwidth\": {},\n", detail::bandwidth_to_json(document.bandwidth).dump());
  }
  text += "  \"tasks\": [";
  for (std::size_t j = 0; j < document.tasks.size(); ++j) {
    const auto& [id, task, traffic] = document.tasks[j];
    ordered entry = {{"id", id}, {"alloc", task.alloc}, {"start", task.start}, {"duration", task.duration}};
    if (task.pack >= 0) entry["pack"] = task.pack;
    if (!traffic.empty()) entry["traffic_bytes"] = detail::traffic_at_to_json(traffic, document.bandwidth);
    text += fmt::format("{}\n    {}", j == 0 ? "" : ",", entry.dump());
  }
  text += document.tasks.empty() ? "]\n}" : "\n  ]\n}";
  return text;
}

ScheduleDocument make_schedule_document(const Instance& instance, const Schedule& schedule) {
  ScheduleDocument document;
  document.algorithm = schedule.algorithm;
  document.makespan = schedule.makespan;
  document.lower_bound = schedule.lower_bound;
  document.weighted_completion_sum = weighted_completion_sum(instance, schedule.tasks);
  document.lower_bound_weighted_completion = schedule.lower_bound_weighted_completion;
  document.launch_rule = schedule.launch_rule;
  document.resources = instance.resources();
  document.bandwidth = instance.bandwidth();
  for (std::size_t j = 0; j < schedule.tasks.size(); ++j) {
    std::vector<double> traffic =
        document.bandwidth.empty() ? std::vector<double>{} : instance.traffic(j, schedule.tasks[j].alloc);
    document.tasks.push_back({instance.tasks()[j].id, schedule.tasks[j], std::move(traffic)});
  }
  return document;
}

FlowDemand scheduled_demand(const ScheduleDocument& document, const ScheduleEntry& entry) {
  return flow_of_traffic(document.bandwidth, entry.traffic_bytes, entry.task.duration,
                         std::max(1, entry.task.alloc.front()));
}

Schedule match_schedule(const ScheduleDocument& document, const Instance& instance, const std::string& source) {
  if (!document.resources.empty()) {
    const auto& ours = instance.resources();
    const bool same = document.resources.size() == ours.size() &&
                      std::equal(ours.begin(), ours.end(), document.resources.begin(), [](const auto& a, const auto& b) {
                        return a.name == b.name && a.capacity == b.capacity;
                      });
    if (!same) {
      throw InputError(source, fmt::format("the schedule was made for resources {}, the instance has {}",
                                           describe(document.resources), describe(ours)));
    }
  }
  std::unordered_map<std::string, std::size_t> index_of;
  for (std::size_t j = 0; j < instance.task_count(); ++j) index_of.emplace(instance.tasks()[j].id, j);
  Schedule schedule;
  schedule.algorithm = document.algorithm;
  schedule.makespan = document.makespan;
  schedule.lower_bound = document.lower_bound;
  schedule.lower_bound_weighted_completion = document.lower_bound_weighted_completion;
  schedule.launch_rule = document.launch_rule;
  schedule.tasks.resize(instance.task_count());
  std::vector<bool> present(instance.task_count(), false);
  for (const auto& [id, task, traffic] : document.tasks) {
    const std::string where = fmt::format("{}: task \"{}\"", source, id);
    const auto it = index_of.find(id);
    if (it == index_of.end()) throw InputError(where, "not in the instance");
    if (task.alloc.size() != instance.dimensions()) {
      throw InputError(where, fmt::format("alloc has {} entries, expected {}", task.alloc.size(), instance.dimensions()));
    }
    present[it->second] = true;
    schedule.tasks[it->second] = task;
  }
  for (std::size_t j = 0; j < present.size(); ++j) {
    if (!present[j]) throw InputError(fmt::format("{}: task \"{}\"", source, instance.tasks()[j].id), "missing");
  }
  return schedule;
}

std::vector<Resource> resolve_schedule_resources(const ScheduleDocument& document,
                                                 const std::vector<Resource>& available, const std::string& source) {
  std::size_t count = available.size();
  if (!document.resources.empty()) {
    count = document.resources.size();
    bool prefix = count <= available.size();
    for (std::size_t i = 0; prefix && i < count; ++i) prefix = document.resources[i].name == available[i].name;
    if (!prefix) {
      throw InputError(source, fmt::format("the schedule is for resources {}, this node schedules {} (in this order)",
                                           describe(document.resources), describe(available)));
    }
  } else if (!document.tasks.empty()) {
    count = document.tasks.front().task.alloc.size();
    if (count > available.size()) {
      throw InputError(fmt::format("{}: task \"{}\"", source, document.tasks.front().id),
                       fmt::format("alloc has {} entries, this node schedules {} resources ({}): allocation vectors "
                                   "list them in this order, trailing ones may be left out",
                                   count, available.size(), describe(available)));
    }
  }
  return {available.begin(), available.begin() + static_cast<std::ptrdiff_t>(count)};
}

std::string schedule_to_json(const Instance& instance, const Schedule& schedule) {
  return schedule_document_to_json(make_schedule_document(instance, schedule));
}

Schedule parse_schedule(std::string_view text, const Instance& instance, const std::string& source) {
  return match_schedule(parse_schedule_document(text, source), instance, source);
}

}  // namespace cosched::sched
