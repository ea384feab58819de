#pragma once
// PointMeasurer that evaluates the KNL bandwidth model instead of running anything.
#include <memory>

#include "cosched/profiler/knl_model.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

[[nodiscard]] std::unique_ptr<PointMeasurer> make_knl_model_measurer(const MeasurerOptions& options,
                                                                      KnlModelParameters parameters = {});

}  // namespace cosched::profiler
