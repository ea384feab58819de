#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cosched/common/error.hpp"
#include "cosched/profiler/measurer.hpp"
#include "knl_measurer.hpp"
#include "stream/stream_measurer.hpp"

namespace cosched::profiler {

namespace {

struct MeasurerEntry {
  std::string_view name;
  std::unique_ptr<PointMeasurer> (*make)(const MeasurerOptions&);
};

// The table is explicit (not self-registering objects): a static library drops object files nothing references,
// which would silently lose a registrar. A new measurer is one row here.
constexpr MeasurerEntry kMeasurers[] = {
    {"knl-model", [](const MeasurerOptions& options) { return make_knl_model_measurer(options); }},
    {"stream", [](const MeasurerOptions& options) { return make_stream_measurer(options); }},
};

}  // namespace

std::vector<std::string> measurer_names() {
  std::vector<std::string> names;
  for (const auto& entry : kMeasurers) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options) {
  for (const auto& entry : kMeasurers) {
    if (entry.name == name) return entry.make(options);
  }
  throw UsageError(fmt::format("unknown measurer '{}' (known: {})", name, fmt::join(measurer_names(), ", ")));
}

}  // namespace cosched::profiler
