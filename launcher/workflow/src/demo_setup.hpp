#pragma once
// The demo sources' short names for the profiler's demo batch (cosched/profiler/demo_batch.hpp): the node and batch
// it chooses and the profiles and instances it measures. Private: the public headers name them in full.
#include "cosched/profiler/demo_batch.hpp"
#include "cosched/workflow/demo.hpp"
#include "cosched/workflow/demo_runs.hpp"

namespace cosched::workflow::demo {

using profiler::demo::calibrate_bandwidth;
using profiler::demo::make_instance;
using profiler::demo::make_mixed_setup;
using profiler::demo::make_setup;
using profiler::demo::profile_tasks;

}  // namespace cosched::workflow::demo
