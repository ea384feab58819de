#pragma once
// What a journal was written for: digests of the batch's three inputs — the schedule (the plan: algorithm,
// resources and capacities, tasks with allocations and times, and the release gates of a closed-loop replay), the workload (what each planned task runs) and
// the platform (cores, fast chunks, chunk bytes, tier backend, emulation ratio). The batch_start header carries
// them; `--resume` recomputes them and refuses a journal whose inputs differ, naming which ones and what the
// journal was written for. Each digest is digest_text (cosched/common/digest.hpp: FNV-1a, 64 bit) of the input's
// canonical JSON.
#include <string>
#include <vector>

#include "cosched/config/workload.hpp"
#include "cosched/launcher/journal/events.hpp"
#include "cosched/sim/plan.hpp"
#include "cosched/exec/task_command.hpp"

namespace cosched::launcher {

// THE function that decides what identifies a batch: add a field here and every journal written from then on
// carries it. `plan` is the full plan (not what is left of it on resume); the workload is looked up by the plan's
// task ids (every id must be in it).
[[nodiscard]] BatchInputs batch_inputs(const sim::LaunchPlan& plan, const config::Workload& workload,
                                       const exec::TierSetup& tier);

// One line per input that differs, "schedule: the journal was written for <summary> (<digest>), this launch has
// <summary> (<digest>)"; empty when all three match.
[[nodiscard]] std::vector<std::string> input_differences(const BatchInputs& journal, const BatchInputs& now);

}  // namespace cosched::launcher
