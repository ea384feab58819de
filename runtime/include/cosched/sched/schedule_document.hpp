#pragma once
// The Schedule JSON as a typed document (docs/formats.md): what `cosched plan` writes and what `cosched launch`
// and `cosched plan`'s readers read — ONE parser and ONE writer. The document stands alone (ids, allocation
// vectors, starts, durations, packs, and the resources it was made for); matching it to an instance (by id) or to
// a node (by resource name) are separate steps. A schedule of an instance with a bandwidth model also carries that
// model and each task's traffic at its allocation, so a launch of the schedule alone (no instance) still predicts
// contention (docs/formats.md, "Schedule JSON": why the model travels with the schedule).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/bandwidth.hpp"
#include "cosched/sched/model.hpp"
#include "cosched/sched/schedule.hpp"

namespace cosched::sched {

struct ScheduleEntry {
  std::string id;      // a safe identifier, unique in the document
  ScheduledTask task;  // alloc, start, duration; pack = -1 in a list schedule
  // The bytes it moves from each pool of ScheduleDocument::bandwidth at its allocation (the instance's
  // "traffic_bytes" there); empty when not known (the task then never contends).
  std::vector<double> traffic_bytes = {};
};

struct ScheduleDocument {
  std::string algorithm;
  double makespan = 0.0;     // a file without it: the last completion
  double lower_bound = 0.0;  // L_min(d) of the instance; a file without it: 0 (unknown)
  // sum_j w_j C_j (Instance weights); make_schedule_document always records it, older files lack it.
  std::optional<double> weighted_completion_sum;
  // A lower bound on sum_j w_j C_j (the LP of seed 001), when one was computed.
  std::optional<double> lower_bound_weighted_completion;
  std::string launch_rule;  // Schedule::launch_rule; a file without it: "" (its kind's own rule)
  // The resources (names, capacities) the allocation vectors refer to, in order. Empty for files written before
  // schedules recorded them: their resources are then told by the length of the allocation vectors.
  std::vector<Resource> resources;
  // The instance's memory pools (sched::Instance::bandwidth); empty for an instance without one and for files
  // written before schedules carried it.
  BandwidthModel bandwidth;
  std::vector<ScheduleEntry> tasks;
};

// Task `entry` of `document` as a flow of the fluid model: its traffic over its duration on its cores
// (flow_of_traffic, the rule Instance::demand follows), so a plan read from the file predicts what a plan made
// from the instance predicts.
[[nodiscard]] FlowDemand scheduled_demand(const ScheduleDocument& document, const ScheduleEntry& entry);

// Parses and validates a Schedule JSON: a JSON object with a string "algorithm"; optional "makespan",
// "lower_bound", "weighted_completion_sum" and "lower_bound_weighted_completion" (finite, >= 0); optional
// "resources" [{name, capacity}]; optional "bandwidth" (the Instance JSON's, one parser); "tasks" with safe unique
// ids, "alloc" arrays of integers >= 0 of one common length (the resources' count when recorded, each amount within
// its capacity), finite "start" and "duration" in [0, kMaxSeconds], "pack" (0 .. tasks-1) on all tasks or on none,
// and optional "traffic_bytes" {pool: bytes} naming every pool of "bandwidth" (which it needs).
// Throws InputError naming `source`, the task and the field.
[[nodiscard]] ScheduleDocument parse_schedule_document(std::string_view text, const std::string& source);
[[nodiscard]] ScheduleDocument load_schedule_document(const std::filesystem::path& path);

// Keys in the documented order and one task per line, so schedules read well and diff line by line; numbers in
// the shortest form that reads back to the same double.
[[nodiscard]] std::string schedule_document_to_json(const ScheduleDocument& document);

// The document of a schedule of `instance` (ids and resources from the instance).
[[nodiscard]] ScheduleDocument make_schedule_document(const Instance& instance, const Schedule& schedule);

// `instance`'s schedule described by `document`: every instance task exactly once, matched by id; recorded
// resources must be the instance's (names and capacities), otherwise allocation vectors must have one entry per
// instance resource. Throws InputError naming `source` and the task.
[[nodiscard]] Schedule match_schedule(const ScheduleDocument& document, const Instance& instance,
                                      const std::string& source);

// The resources among `available` (a node's, in its order: cores, fast chunks, ...) that the document's
// allocation vectors refer to, with `available`'s capacities: the recorded resources, which must be the first
// of `available` by name; or, for a file that does not record them, the first k with k the allocation vectors'
// length (a cores-only schedule runs on a node with a fast tier). Throws InputError when neither fits.
[[nodiscard]] std::vector<Resource> resolve_schedule_resources(const ScheduleDocument& document,
                                                               const std::vector<Resource>& available,
                                                               const std::string& source);

}  // namespace cosched::sched
