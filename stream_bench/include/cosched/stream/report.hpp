#pragma once
// StreamResult for machines (one JSON object, fields documented in docs/stream_bench.md) and for people.
#include <string>

#include <nlohmann/json.hpp>

#include "cosched/stream/stream_run.hpp"

namespace cosched::stream {

[[nodiscard]] nlohmann::json to_json(const StreamResult& result);

// A readable table: the kernel, placement, tiers (saying "EMULATED fast tier" when it is), timings, validation.
[[nodiscard]] std::string format_report(const StreamResult& result);

}  // namespace cosched::stream
