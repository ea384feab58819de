#pragma once
// PointMeasurer that runs the stream kernels in-process (cosched::stream), pinned to the first N allowed cores,
// with the point's fast fraction placed through the platform's tier backend. Consecutive points of one
// (kernel, footprint) share one stream::StreamSession, across core counts where the memory locality allows;
// finish() checks the last one in full.
#include <memory>

#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

// Builds the tier backend named by the platform (TierOptions: backend, emulation ratio, emulated capacity,
// chunks). Throws UsageError / ResourceError from the platform layer when it cannot work here.
[[nodiscard]] std::unique_ptr<PointMeasurer> make_stream_measurer(const MeasurerOptions& options);

}  // namespace cosched::profiler
