#pragma once
// The Instance JSON's bandwidth parts (docs/formats.md): the root's "bandwidth" object
//   {"pools": [{"name": "dram", "cores": [1, 2], "bytes_per_s": [3.1e10, 3.3e10]}], "provenance": {...}}
// and each task's "traffic_bytes" object {"dram": [bytes at every allocation vector, row-major]} (in a Schedule JSON,
// {"dram": bytes} at the task's allocation).
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched::detail {

// Throws InputError naming `source` and the entry for a malformed model (and check_bandwidth_model's errors).
[[nodiscard]] BandwidthModel bandwidth_from_json(const nlohmann::json& object, const std::string& source);
[[nodiscard]] nlohmann::json bandwidth_to_json(const BandwidthModel& model);

// One row per pool of `model`, `entries` values each (finite, >= 0); a pool the object does not name, or a name
// the model does not have, is an InputError at `where`.
[[nodiscard]] std::shared_ptr<const TrafficTable> traffic_from_json(const nlohmann::json& object,
                                                                    const BandwidthModel& model, std::size_t entries,
                                                                    const std::string& where);
[[nodiscard]] nlohmann::json traffic_to_json(const TrafficTable& traffic, const BandwidthModel& model);

// A scheduled task's traffic at its one allocation (the Schedule JSON's "traffic_bytes" {pool: bytes}): one value
// per pool of `model`, in its order; the same errors as traffic_from_json.
[[nodiscard]] std::vector<double> traffic_at_from_json(const nlohmann::json& object, const BandwidthModel& model,
                                                       const std::string& where);
[[nodiscard]] nlohmann::json traffic_at_to_json(const std::vector<double>& traffic, const BandwidthModel& model);

}  // namespace cosched::sched::detail
