#pragma once
// Instance JSON and Schedule JSON (docs/formats.md): the one parser and the one writer of each. Malformed input
// throws InputError naming the file, the task and the position: `inst.json: task "t3": times[17] must be finite,
// >= 0 and <= 1e+09, got -2`.
#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <string>
#include <string_view>

#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"
#include "cosched/sched/schedule_document.hpp"

namespace cosched::sched {

// `source` names the input in error messages (usually the file name). Validates resources (safe names, integer
// capacities 1..kMaxCapacity, at most kMaxAllocationVectors allocation vectors — else ResourceError), task ids
// (safe, unique), times (null or finite in [0, kMaxSeconds]) and the serial time (check_serial_time). Fields
// besides resources/tasks, and besides id/times per task, are kept as attributes.
[[nodiscard]] Instance parse_instance(std::string_view text, const std::string& source);
[[nodiscard]] Instance load_instance(const std::filesystem::path& path);
// The same from JSON already parsed (parse_json_text), for a reader that first looks at what a file holds.
[[nodiscard]] Instance instance_from_json(const nlohmann::json& root, const std::string& source);
// Dense Instance JSON: the closed times (+inf written as null) and the attributes, verbatim.
[[nodiscard]] std::string instance_to_json(const Instance& instance);

// The tasks' longest finite times must add up to at most kMaxSeconds: every list or pack schedule of the
// instance then ends by kMaxSeconds (no start time overflows, every schedule reads back). Throws InputError(where).
void check_serial_time(const Instance& instance, const std::string& where);

// schedule_document_to_json(make_schedule_document(instance, schedule)).
[[nodiscard]] std::string schedule_to_json(const Instance& instance, const Schedule& schedule);
// match_schedule(parse_schedule_document(text, source), instance, source).
[[nodiscard]] Schedule parse_schedule(std::string_view text, const Instance& instance, const std::string& source);

}  // namespace cosched::sched
