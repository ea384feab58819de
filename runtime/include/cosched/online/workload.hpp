#pragma once
// An online workload (seed 000, Sec. 2.1): jobs released over time. Each job is a task of a sched::Instance — its
// id, its execution time at every allocation vector of the instance's space (sequential, rigid or moldable: the
// TimeProfile says which), its attributes (what it runs on the node) — plus when it arrives, whose it is and what
// its user estimated. Sources (each in its own header): SWF traces (swf.hpp), the Downey model (downey.hpp), the
// paper's synthetic sequential workload (synthetic.hpp), and node workloads whose tasks carry "release_s".
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::online {

struct JobArrival {
  double release = 0.0;             // seconds from the workload's origin, >= 0
  std::string user;                 // "" when unknown
  std::optional<double> estimate;   // the user's runtime estimate (SWF requested time), seconds; none: unknown
  // When the job ended in the log it came from (SWF: submit + wait + run time, from the same origin as release);
  // none when the log does not say (no wait time) or there is no log. Campaign detection (campaigns.hpp) reads it.
  std::optional<double> logged_end = std::nullopt;
  // When the job started in that log (SWF: submit + wait time); none when the log does not say. The `logged`
  // policy replays it: the log's own schedule, the baseline seed 002 compares OStrich with.
  std::optional<double> logged_start = std::nullopt;
  // The campaign its user put it in (node workloads: the task attribute "campaign"); "" when not given.
  std::string campaign = {};
};

struct OnlineWorkload {
  std::string name;
  std::string source;                  // where it came from, in words (file, generator and seed)
  sched::Instance instance;                   // the jobs as tasks, indexed like `arrivals`
  std::vector<JobArrival> arrivals;    // one per task
  // The stretch denominator of each job (Sec. 5: the *sequential* time p_{i,1} for moldable jobs): its time at the
  // smallest allocation it can run with — one unit of the first resource and nothing else when that time is
  // finite (sequential and moldable jobs), else the least-area finite allocation (a rigid job: its runtime).
  std::vector<double> reference_time;
  // That allocation, as a linear index into instance.space(): where the sequential policies (fcfs, easy,
  // conservative, dasedf, the reservation scheme, split) run every job — moldable jobs as sequential ones.
  std::vector<std::size_t> reference_alloc;
};

// Builds a workload: checks at least one job and one arrival per task, every release finite in [0, kMaxSeconds],
// every estimate finite in (0, kMaxSeconds], every logged end finite in [release, 2 kMaxSeconds], every logged start in [release, logged end], every user and
// campaign "" or an identifier (check_identifier), and every job
// runnable (some finite time) with a reference time > 0 (the stretch divides by it); computes reference_time.
// Throws InputError naming `source` and the job otherwise.
[[nodiscard]] OnlineWorkload make_online_workload(std::string name, std::string source, sched::Instance instance,
                                                  std::vector<JobArrival> arrivals);

// The stretch reference rule above, for one task of `instance`: the allocation's linear index and its time.
// Looks up one time when one unit of the first resource is finite; scans the task's table otherwise. Throws
// InputError naming the task when no allocation has a finite time.
struct StretchReference {
  std::size_t alloc = 0;
  double time = 0.0;
};
[[nodiscard]] StretchReference stretch_reference(const sched::Instance& instance, std::size_t task);

// The online workload of a node: the tasks of an Instance JSON (what `cosched instance` builds from a workload
// file), each released at its attribute "release_s" (seconds, default 0), owned by its "user" (default "") and in
// its user's "campaign" (default "": none). Throws InputError naming `source` and the task for a release that is
// not a number in [0, kMaxSeconds] or a user or campaign that is not an identifier, and make_online_workload's
// errors.
[[nodiscard]] OnlineWorkload online_workload_from_instance(sched::Instance instance, const std::string& source);

// Load as the paper defines it (Sec. 4): sum of reference times / (last release - first release); 0 for fewer
// than two distinct release times.
[[nodiscard]] double workload_load(const OnlineWorkload& workload);

// The jobs of `workload` at `keep` (indices, in that order), their releases moved `shift` seconds earlier (never
// below 0): what is left of a workload when a killed run resumes (no job at all when `keep` is empty).
[[nodiscard]] OnlineWorkload remaining_jobs(const OnlineWorkload& workload, const std::vector<std::size_t>& keep,
                                            double shift);

}  // namespace cosched::online
