#pragma once
// The makers of the sequential-job policies of seed 000 and of the batch-system baselines, for the registry
// (src/online/registry.cpp). Every job runs at its reference allocation (reference_jobs.hpp).
#include <memory>
#include <string_view>

#include "cosched/online/policy.hpp"
#include "online/policies/reference_jobs.hpp"

namespace cosched::online::policies {

// One set of decoded jobs, shared by the copies of a policy that run on the parts of a partitioned machine.
using SharedJobs = std::shared_ptr<const ReferenceJobs>;

// How much of the queue a plan covers: the whole predicted schedule (what the reservation scheme compares), or
// only the jobs that start now (enough to run; O(started) instead of O(queue) per event).
enum class Horizon { whole_queue, starts_now };

[[nodiscard]] std::unique_ptr<OnlinePolicy> make_fcfs(SharedJobs jobs, Horizon horizon);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_fcfs(SharedJobs jobs);  // the whole queue
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_easy(SharedJobs jobs);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_conservative(SharedJobs jobs);
// The trace's own schedule (logged.cpp); throws UsageError when a job has no logged start.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_logged(SharedJobs jobs);
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_dasedf(SharedJobs jobs);
using MakePolicy = std::unique_ptr<OnlinePolicy> (*)(SharedJobs);
// The reservation scheme around the policy `make_inner` makes (named `inner`): "<inner>-reservation". Reads
// options.reserve and options.threshold; throws UsageError when they are out of range or a job fits neither part.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_reservation(std::string_view inner, MakePolicy make_inner,
                                                             const OnlineOptions& options, SharedJobs jobs);
// Reads options.rho (the number of groups); throws UsageError when it is not an integer in [2, m] or a job fits
// no group.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_split(const OnlineOptions& options, SharedJobs jobs);

}  // namespace cosched::online::policies
