#pragma once
// Instance JSON and Schedule JSON (docs/formats.md). Malformed input throws InputError naming the file, the task
// and the position: `inst.json: task "t3": times[17] is negative`.
#include <filesystem>
#include <string>
#include <string_view>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

// `source` names the input in error messages (usually the file name).
[[nodiscard]] Instance parse_instance(std::string_view text, const std::string& source);
[[nodiscard]] Instance load_instance(const std::filesystem::path& path);
// Dense Instance JSON (the closed times; +inf written as null).
[[nodiscard]] std::string instance_to_json(const Instance& instance);

[[nodiscard]] std::string schedule_to_json(const Instance& instance, const Schedule& schedule);
// Tasks are matched to the instance by id; each must appear exactly once.
[[nodiscard]] Schedule parse_schedule(std::string_view text, const Instance& instance, const std::string& source);

}  // namespace cosched::sched
