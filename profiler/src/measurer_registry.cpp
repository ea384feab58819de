#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cosched/common/error.hpp"
#include "cosched/profiler/measurer.hpp"
#include "knl_measurer.hpp"
#include "stream/stream_measurer.hpp"

namespace cosched::profiler {

// The list of measurers is explicit (not self-registering objects): a static library drops object files nothing
// references, which would silently lose a registrar.
std::vector<std::string> measurer_names() {
  return {"knl-model", "stream"};
}

std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options) {
  if (name == "knl-model") return make_knl_model_measurer(options);
  if (name == "stream") return make_stream_measurer(options);
  throw UsageError(fmt::format("unknown measurer '{}' (known: {})", name, fmt::join(measurer_names(), ", ")));
}

}  // namespace cosched::profiler
