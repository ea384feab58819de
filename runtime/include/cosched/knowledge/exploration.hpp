#pragma once
// What a fitted kind may learn in a plan's slack (sim/exploration.hpp): the rule `cosched run`
// (profiler::exploration_options) and the simulated study both use, each with its own store of runs.
//
// A task moves along fast chunks whenever its fit is over them: more fast memory never makes a task slower. It
// moves along cores only while its kind's fit over cores stands on one core count (a naive first run's, or its first
// short runs'), where nothing measured says how it speeds up: more cores can make a program slower, past a count no
// fit through the counts measured foresees, and such a move then ends its batch late — on the simulated KNL, moves to
// more cores lengthened their own batches in 23 of the 26 they changed, moves to more fast chunks shortened theirs
// in 26 of 31 (docs/knowledge.md, "Exploration").
#include <cstddef>
#include <functional>

#include "cosched/knowledge/task_fit.hpp"
#include "cosched/sim/exploration.hpp"

namespace cosched::knowledge {

// Task `task` of kind `kind`, fitted by `fit` (kept alive while the options are made: the result refers to it);
// `fast_chunks`: the instance has fast chunks and the task may be placed on them; `ran_at(cores, chunks)`: its kind
// has a run there. Choices are priced one predictive sd up (FittedTask::predictive_log_sd).
[[nodiscard]] sim::ExplorableTask explorable_task(std::size_t task, std::size_t kind, const FittedTask& fit,
                                                  bool fast_chunks, std::function<bool(int cores, int chunks)> ran_at);

}  // namespace cosched::knowledge
