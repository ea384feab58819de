#include "sched/json_parts.hpp"

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"
#include "cosched/common/json_input.hpp"

namespace cosched::sched::detail {

std::vector<Resource> resources_from_json(const nlohmann::json& array, const std::string& source) {
  (void)json_to_array(array, source, "\"resources\"");
  if (array.empty()) throw InputError(source, "\"resources\" is empty: at least one resource type is needed");
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string where = fmt::format("{}: resources[{}]", source, i);
    Resource resource;
    resource.name = json_to_string(json_member(array[i], "name", where), where, "\"name\"");
    check_identifier(resource.name, where);
    for (const auto& before : resources) {
      if (before.name == resource.name) throw InputError(where, fmt::format("\"{}\" is named twice", resource.name));
    }
    resource.capacity = static_cast<int>(
        json_to_integer(json_member(array[i], "capacity", where), 1, kMaxCapacity, where, "capacity"));
    resources.push_back(std::move(resource));
  }
  return resources;
}

std::string task_id_from_json(const nlohmann::json& entry, const std::string& source, std::size_t k) {
  const std::string position = fmt::format("{}: tasks[{}]", source, k);
  std::string id = json_to_string(json_member(entry, "id", position), position, "\"id\"");
  check_identifier(id, position);
  return id;
}

}  // namespace cosched::sched::detail
