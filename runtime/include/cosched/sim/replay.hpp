#pragma once
// How the jobs of a logged workload (an SWF trace) are released in a replay, registered by name (`--replay`):
//
//   open   every job at its logged submit time, whatever the simulated schedule did (the default: every published
//          figure of docs/online.md is open loop).
//   closed users keep their think times (Zakay & Feitelson, "Preserving user behavior characteristics in
//          trace-based simulation of parallel job scheduling", 2014; seed 002, Sec. III: a user submits campaign
//          i + 1 only after campaign i completed). A user's next work is released at the simulated completion of
//          the work it followed in the log plus the logged think time, so earlier or later than logged as the
//          simulated system is faster or slower than the logged one.
//
// The closed-loop rules, per user (jobs by logged submit time; ties: job index):
//   * The unit released together is a job, or with campaigns (--campaigns) a campaign: its jobs keep their logged
//     offsets from its first job.
//   * The work a unit followed is every job of the same user whose logged end (JobArrival::logged_end, else
//     release + reference time) is at or before the unit's first submit: what the user had seen come back. The
//     unit is released when all of it has completed in the simulation, at the latest of those completions plus
//     the logged think time (its first submit minus the latest of those logged ends); its jobs follow at their
//     offsets. The rest of the user's earlier jobs — still running in the log when the unit was submitted: jobs
//     that overlap — do not hold it back.
//   * A unit that followed nothing (the user's first work in the workload, or work submitted while every earlier
//     job of the user was still running) and every job without a user id keep their logged submit times.
//   * The window's edges (--from, --to, --jobs): only the jobs kept are work to wait for; a user's first work
//     inside the window is released at its logged time, and the last work of the window may be released after
//     the window's end (a slower system) or earlier (a faster one). No job is added or dropped.
//   * On the log's own schedule (policy logged) every work ends as logged and every job is released exactly at
//     its logged time: closed loop = open loop there. Deterministic: the same workload gives the same releases.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sim/plan.hpp"

namespace cosched::sim {

struct ReplayInfo {
  std::string_view name;
  std::string_view summary;  // one line for --help and docs
};

// What a replay mode did to a plan, for the outputs.
struct ReplaySummary {
  std::string mode;
  std::size_t followers = 0;  // jobs whose release waits for earlier work (0 open loop)
  std::size_t gates = 0;      // distinct sets of earlier work waited for
};

[[nodiscard]] std::vector<ReplayInfo> replay_modes();

// Gives the online plan `plan` the releases of replay `mode` (the plan's gates; its tasks' gate). `campaign_of`
// gives each job's campaign (campaigns.hpp), or is empty: jobs are released one by one. Throws UsageError for an
// unknown mode (naming the known ones), a plan that is not online or already has gates, or campaign ids that do
// not match the jobs.
ReplaySummary apply_replay(LaunchPlan& plan, std::string_view mode, std::span<const std::size_t> campaign_of = {});

}  // namespace cosched::sim
