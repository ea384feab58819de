#pragma once
// Per-job results of an online run in the formats of the community's tools: Batsim's `_jobs.csv` (the columns of
// https://batsim.readthedocs.io/en/latest/output-jobs.html, which evalys' JobSet.from_csv reads) and the Parallel
// Workloads Archive's SWF (swf.hpp's schema and writer). One schema (JobRecord), one CSV writer, one CSV parser.
//
// Columns, in order: job_id, workload_name, submission_time, requested_number_of_resources, requested_time,
// success, final_state, starting_time, execution_time, finish_time, waiting_time, turnaround_time, stretch,
// allocated_resources, user, campaign, reference_time, allocation.
//   * times in seconds from the workload's origin; submission_time is the release in the run (closed-loop replays
//     move it); requested_time is the user's estimate, -1 when unknown;
//   * requested_number_of_resources: the first resource at the job's reference allocation (a rigid job's logged
//     processors, 1 for sequential and moldable jobs); allocation: what it ran with, every resource ("4 2" = 4
//     cores, 2 fast chunks);
//   * stretch is cosched's: turnaround_time / reference_time (docs/online.md) — Batsim's turnaround /
//     execution time for rigid and sequential jobs, not for a moldable job given more than its reference;
//   * allocated_resources: the processors (units of the first resource) it ran on as an interval set ("0-3 7"):
//     the cores the wall clock gave it, or on the simulated clock, which counts processors without placing them,
//     the lowest-numbered free ones at its start (numbered after the run, in start order);
//   * success 1 and final_state COMPLETED_SUCCESSFULLY for a job that completed; COMPLETED_FAILED, COMPLETED_KILLED
//     (stopped), or NOT_STARTED (its times -1, stretch -1) otherwise; user "" when unknown; campaign: its id, or
//     empty when the run had no campaigns.
// Numbers are written in the shortest form that reads back to the same double, so the summary metrics recompute
// exactly from the rows.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/online/swf.hpp"

namespace cosched::online {

struct JobRecord {
  std::string job_id;
  std::string workload_name;
  double submission_time = 0.0;
  int requested_number_of_resources = 0;
  double requested_time = -1.0;
  bool success = false;
  std::string final_state;
  double starting_time = -1.0;
  double execution_time = -1.0;
  double finish_time = -1.0;
  double waiting_time = -1.0;
  double turnaround_time = -1.0;
  double stretch = -1.0;
  std::string allocated_resources;  // interval set of processor numbers
  std::string user;
  std::optional<std::size_t> campaign;
  double reference_time = 0.0;
  std::vector<int> allocation;  // empty when it never started
  friend bool operator==(const JobRecord&, const JobRecord&) = default;
};

[[nodiscard]] const std::vector<std::string_view>& job_csv_columns();

// The CSV text: the header line, then one line per record, in the order given.
[[nodiscard]] std::string to_jobs_csv(const std::vector<JobRecord>& records);
// Parses that text. Throws InputError("<source>:<line>", ...) for a header that is not job_csv_columns(), a line
// with another number of fields, a number that is not one (or not finite), or a final_state not listed above.
[[nodiscard]] std::vector<JobRecord> parse_jobs_csv(std::string_view text, const std::string& source);
[[nodiscard]] std::vector<JobRecord> load_jobs_csv(const std::filesystem::path& path);

// "0-3 7" for the sorted processor numbers {0, 1, 2, 3, 7}; "" for none.
[[nodiscard]] std::string interval_set(const std::vector<int>& sorted_processors);

// The run as an SWF log: one line per record, sorted by submission time (ties: record order), job number = the
// record's position + 1 (the row of the jobs CSV); submit, wait and run time as simulated, allocated processors =
// the first resource of `allocation`, requested processors and time as in the record, status 1 completed, 0 failed,
// 5 killed or never started (wait and run -1), user id = the user when it is a number, else users numbered 1, 2,
// ... in order of appearance (listed in the header); every other field -1. `header` lines (without ';') come first,
// then Version, Computer, MaxJobs, MaxRecords and MaxProcs (`processors`).
[[nodiscard]] SwfTrace swf_of_jobs(const std::vector<JobRecord>& records, int processors,
                                   std::vector<std::string> header);

}  // namespace cosched::online
