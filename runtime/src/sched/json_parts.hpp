#pragma once
// The parts the Instance JSON and the Schedule JSON share: the "resources" array [{"name": ..., "capacity": ...}]
// and the task ids.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched::detail {

// A non-empty array of objects with a safe, unique "name" (check_identifier) and an integer "capacity" in
// 1..kMaxCapacity. Throws InputError naming `source` and the entry.
[[nodiscard]] std::vector<Resource> resources_from_json(const nlohmann::json& array, const std::string& source);

// The "id" of tasks[k]: a safe identifier (check_identifier). Throws InputError at "<source>: tasks[k]".
[[nodiscard]] std::string task_id_from_json(const nlohmann::json& entry, const std::string& source, std::size_t k);

template <typename Json>
[[nodiscard]] Json resources_to_json(const std::vector<Resource>& resources) {
  Json array = Json::array();
  for (const auto& resource : resources) array.push_back({{"name", resource.name}, {"capacity", resource.capacity}});
  return array;
}

}  // namespace cosched::sched::detail
