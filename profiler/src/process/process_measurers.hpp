#pragma once
// The measurers that time child processes, as the launcher runs them (process_measurer.hpp, command_measurer.hpp):
// the factories of their rows in the measurer table.
#include <memory>

#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {

[[nodiscard]] std::unique_ptr<PointMeasurer> make_process_measurer(const MeasurerOptions& options);
[[nodiscard]] std::unique_ptr<PointMeasurer> make_command_measurer(const MeasurerOptions& options);

}  // namespace cosched::profiler
