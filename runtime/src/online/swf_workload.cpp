// From an SWF trace to an online workload: which records are jobs, and the rigid or Downey-moldable profiles.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <unordered_set>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/online/downey.hpp"
#include "cosched/online/profiles.hpp"
#include "cosched/online/swf.hpp"

namespace cosched::online {

namespace {

// The processors a record used: allocated, else (-1, unknown) requested; 0 when neither is known.
int size_of(const SwfRecord& record) {
  const std::int64_t procs = record.allocated_procs >= 0 ? record.allocated_procs : record.requested_procs;
  return static_cast<int>(std::max<std::int64_t>(procs, 0));  // the parser keeps both <= kMaxCapacity
}

// m when the caller or the header says it; nullopt: the largest kept job decides.
std::optional<int> stated_procs(const SwfTrace& trace, const SwfOptions& options) {
  if (options.procs) {
    return static_cast<int>(checked_count(*options.procs, 1, sched::kMaxCapacity, trace.source, "the processor count m"));
  }
  if (const auto header = swf_header_integer(trace, "MaxProcs")) {
    return static_cast<int>(checked_count(*header, 1, sched::kMaxCapacity, trace.source + ": header MaxProcs",
                                          "the processor count"));
  }
  return std::nullopt;
}

// "SDSC-Par-1996-3.1-cln" for ".../SDSC-Par-1996-3.1-cln.swf.gz".
std::string trace_name(const std::string& source) {
  std::filesystem::path name = std::filesystem::path(source).filename();
  if (name.extension() == ".gz") name = name.stem();
  if (name.extension() == ".swf") name = name.stem();
  return name.empty() ? std::string("trace") : name.string();
}

}  // namespace

SwfSelection select_swf_jobs(const SwfTrace& trace, const SwfOptions& options) {
  if (options.max_jobs && *options.max_jobs == 0) throw InputError(trace.source, "max_jobs must be at least 1");
  const std::optional<int> procs = stated_procs(trace, options);
  SwfSelection selection;
  for (std::size_t i = 0; i < trace.records.size(); ++i) {
    if (options.max_jobs && selection.kept.size() == *options.max_jobs) break;
    selection.records_read = i + 1;
    const SwfRecord& record = trace.records[i];
    const int size = size_of(record);
    if (record.job_number < 0 || record.submit_time < 0) {
      ++selection.without_submit_time;
    } else if (record.run_time <= 0) {
      ++selection.without_run_time;
    } else if (size < 1) {
      ++selection.without_size;
    } else if (procs && size > *procs) {
      ++selection.wider_than_machine;
    } else {
      selection.kept.push_back(i);
      selection.sizes.push_back(size);
    }
  }
  if (selection.kept.empty()) {
    throw InputError(trace.source,
                     fmt::format("no usable job among {} records ({} without a run time > 0, {} without a processor "
                                 "count, {} without a submit time or job number, {} wider than the machine)",
                                 trace.records.size(), selection.without_run_time, selection.without_size,
                                 selection.without_submit_time, selection.wider_than_machine));
  }
  selection.procs = procs ? *procs : *std::max_element(selection.sizes.begin(), selection.sizes.end());
  return selection;
}

OnlineWorkload workload_from_swf(const SwfTrace& trace, const SwfOptions& options) {
  const SwfSelection selection = select_swf_jobs(trace, options);
  const std::size_t count = selection.kept.size();
  double origin = trace.records[selection.kept.front()].submit_time;
  for (const std::size_t i : selection.kept) origin = std::min(origin, trace.records[i].submit_time);

  std::vector<DowneyJob> moldable;
  if (options.downey_seed) {
    std::vector<LoggedJob> logged(count);
    for (std::size_t k = 0; k < count; ++k) {
      logged[k] = {trace.records[selection.kept[k]].run_time, selection.sizes[k]};
    }
    moldable = make_moldable_downey(logged, selection.procs, *options.downey_seed);
  }

  std::vector<sched::Task> tasks;
  std::vector<JobArrival> arrivals;
  tasks.reserve(count);
  arrivals.reserve(count);
  std::unordered_set<std::int64_t> numbers;
  for (std::size_t k = 0; k < count; ++k) {
    const SwfRecord& record = trace.records[selection.kept[k]];
    if (!numbers.insert(record.job_number).second) {
      throw InputError(trace.source, fmt::format("job number {} appears twice", record.job_number));
    }
    std::shared_ptr<const sched::TimeProfile> profile;
    if (options.downey_seed) {
      profile = std::make_shared<DowneyProfile>(moldable[k]);
    } else {
      profile = std::make_shared<RigidProfile>(selection.sizes[k], record.run_time);
    }
    tasks.push_back({fmt::format("job-{}", record.job_number), std::move(profile)});
    JobArrival arrival{record.submit_time - origin, "", std::nullopt};
    if (record.user_id >= 0) arrival.user = std::to_string(record.user_id);
    if (record.requested_time > 0 && record.requested_time <= kMaxSeconds) arrival.estimate = record.requested_time;
    if (record.wait_time >= 0) {
      arrival.logged_start = arrival.release + record.wait_time;
      arrival.logged_end = *arrival.logged_start + record.run_time;
    }
    arrivals.push_back(std::move(arrival));
  }

  const std::string model =
      options.downey_seed ? fmt::format("moldable by the Downey model (A ~ U[p, m], sigma ~ U[0, 2]), seed {}",
                                        *options.downey_seed)
                          : std::string("rigid (processors x run time as logged)");
  std::string source = fmt::format(
      "{}: {} jobs from its first {} of {} records (dropped: {} with run time 0 or unknown, {} without a processor "
      "count, {} without a submit time or job number, {} wider than m); {}; m = {}",
      trace.source, count, selection.records_read, trace.records.size(), selection.without_run_time,
      selection.without_size, selection.without_submit_time, selection.wider_than_machine, model, selection.procs);
  sched::Instance instance({{"procs", selection.procs}}, std::move(tasks), {{"trace", trace.source}});
  return make_online_workload(trace_name(trace.source), std::move(source), std::move(instance), std::move(arrivals));
}

}  // namespace cosched::online
