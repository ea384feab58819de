#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cosched/common/error.hpp"
#include "cosched/profiler/measurer.hpp"
#include "knl_measurer.hpp"
#ifdef COSCHED_PROFILER_HAS_STREAM
#include "stream/stream_measurer.hpp"
#endif

namespace cosched::profiler {

// The list of measurers is explicit (not self-registering objects): a static library drops object files nothing
// references, which would silently lose a registrar.
std::vector<std::string> measurer_names() {
#ifdef COSCHED_PROFILER_HAS_STREAM
  return {"knl-model", "stream"};
#else
  return {"knl-model"};
#endif
}

std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options) {
  if (name == "knl-model") return make_knl_model_measurer(options);
#ifdef COSCHED_PROFILER_HAS_STREAM
  if (name == "stream") return make_stream_measurer(options);
#else
  if (name == "stream") {
    throw UsageError("this cosched was built without the stream kernels library: real sweeps are unavailable "
                     "(model profiles work: --model knl)");
  }
#endif
  throw UsageError(fmt::format("unknown measurer '{}' (known: {})", name, fmt::join(measurer_names(), ", ")));
}

}  // namespace cosched::profiler
