#pragma once
// The demo sources' short names for the profiler's demo batch (cosched/profiler/demo_batch.hpp): the node and batch
// it chooses and the profiles and instances it measures. Private: the public headers name them in full.
#include <string>

#include "cosched/profiler/demo_batch.hpp"
#include "cosched/workflow/demo.hpp"
#include "cosched/workflow/demo_runs.hpp"

namespace cosched::workflow::demo {

using profiler::demo::calibrate_bandwidth;
using profiler::demo::make_instance;
using profiler::demo::make_mixed_setup;
using profiler::demo::make_setup;
using profiler::demo::profile_tasks;

// The node a demo runs on, for its "node:" line: "<cores> cores, fast tier <MiB> MiB in <chunks> chunks, tier
// backend <backend>[ — EMULATED (slow tier streamed <ratio>x; no real fast memory here)]".
[[nodiscard]] std::string describe_demo_node(const DemoSetup& setup);

}  // namespace cosched::workflow::demo
