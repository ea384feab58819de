#pragma once
// What an online run achieved (seed 000, Sec. 4 and 7): max and mean stretch — flow time over the job's reference
// time, which for moldable jobs is the *sequential* time p_{i,1} (OnlineWorkload::reference_time), so a stretch can
// be below 1 — max and mean flow time, utilisation of the first resource, the workload's load, and the fairness
// histogram of Fig. 3(e): the share of jobs with stretch > 1 in each size bin (seconds ... weeks, by reference
// time). One record, one JSON writer, shared by `cosched online` and the bench scripts.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "cosched/sched/online/workload.hpp"

namespace cosched::sched::online {

struct JobOutcome {
  bool completed = false;
  double start = 0.0;
  double end = 0.0;
  std::vector<int> alloc;
};

struct FairnessBin {
  std::string label;            // "seconds", "minutes", "hours", "days", "weeks"
  double reference_below = 0;   // the bin holds reference times in [previous bound, this)
  std::size_t jobs = 0;
  std::size_t stretched = 0;    // jobs with stretch > 1
};

struct OnlineMetrics {
  std::size_t jobs = 0;
  std::size_t completed = 0;
  int procs = 0;                 // capacity of the first resource
  double load = 0.0;             // workload_load
  double max_stretch = 0.0;
  double mean_stretch = 0.0;
  double max_flow = 0.0;
  double mean_flow = 0.0;
  double utilization = 0.0;      // busy first-resource time / (procs x (last end - first release))
  double makespan = 0.0;         // last end - first release
  std::vector<FairnessBin> fairness;
  // Filled by the caller, who timed the policy: seconds in the policy over the run, per event, and the longest call.
  double scheduling_seconds = 0.0;
  double scheduling_seconds_per_event = 0.0;
  double scheduling_max_seconds = 0.0;
  std::size_t events = 0;
};

// Metrics over the completed jobs (outcomes indexed like the workload's jobs).
[[nodiscard]] OnlineMetrics online_metrics(const OnlineWorkload& workload, std::span<const JobOutcome> outcomes);

// The sentence every output carries about how stretch is normalised.
[[nodiscard]] std::string_view stretch_normalisation() noexcept;

[[nodiscard]] nlohmann::json to_json(const OnlineMetrics& metrics);

}  // namespace cosched::sched::online
