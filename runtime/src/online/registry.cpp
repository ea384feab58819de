#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "cosched/common/error.hpp"
#include "cosched/online/ostrich.hpp"
#include "cosched/online/policy.hpp"
#include "online/policies/fairshare.hpp"
#include "online/policies/moldable_policies.hpp"
#include "online/policies/policies.hpp"

namespace cosched::online {

namespace {

struct PolicyEntry {
  OnlinePolicyInfo info;
  std::function<std::unique_ptr<OnlinePolicy>(const OnlineOptions&, const OnlineWorkload&)> make;
};

std::shared_ptr<const policies::ReferenceJobs> reference_jobs(const OnlineWorkload& workload) {
  return std::make_shared<const policies::ReferenceJobs>(workload);
}

// A policy that reads no option.
template <policies::MakePolicy Make>
std::unique_ptr<OnlinePolicy> without_options(const OnlineOptions& /*options*/, const OnlineWorkload& workload) {
  return Make(reference_jobs(workload));
}

// The registered policies, in the order --help and the docs list them, each with the options it reads.
const std::vector<PolicyEntry>& registry() {
  static const std::vector<PolicyEntry> entries{
      {{"fcfs", "first come, first served at the reference allocation, no backfilling (seed 000, Sec. 3.1)", {}},
       without_options<policies::make_fcfs>},
      {{"easy", "EASY backfilling with the user's estimates: the first waiting job is never delayed", {}},
       without_options<policies::make_easy>},
      {{"conservative", "conservative backfilling with the user's estimates: no waiting job is ever delayed", {}},
       without_options<policies::make_conservative>},
      {{"dasedf", "smallest target stretch passing the deadline check, then EDF (seed 000, Sec. 3.2)", {}},
       without_options<policies::make_dasedf>},
      {{"fcfs-reservation", "FCFS on m - X processors, X held for jobs whose stretch would exceed T (Sec. 4)",
        {"--reserve", "--threshold"}},
       [](const OnlineOptions& options, const OnlineWorkload& workload) {
         return policies::make_reservation("fcfs", policies::make_fcfs, options, reference_jobs(workload));
       }},
      {{"dasedf-reservation", "DASEDF on m - X processors, X held for jobs whose stretch would exceed T (Sec. 4)",
        {"--reserve", "--threshold"}},
       [](const OnlineOptions& options, const OnlineWorkload& workload) {
         return policies::make_reservation("dasedf", policies::make_dasedf, options, reference_jobs(workload));
       }},
      {{"split", "rho groups of processors, one per size class of jobs, FCFS in each (Sec. 3.3.2)", {"--rho"}},
       [](const OnlineOptions& options, const OnlineWorkload& workload) {
         return policies::make_split(options, reference_jobs(workload));
       }},
      {{"dbos", "DBOS: binary search on the max stretch with MoldableEDF (cheapest allocation meeting each "
                "deadline), relaxed by --rho", {"--rho"}},
       make_dbos},
      {{"iterative", "Iterative (Sabin et al.): conservative backfilling in FCFS order, one more candidate for the "
                     "job with the largest time reduction while the mean flow improves", {}},
       make_iterative},
      {{"improved-iterative", "Improved Iterative: Iterative stepping to the candidate with the best time saved per "
                              "extra resource", {}},
       make_improved_iterative},
      // Fairness between users (seed 002): a batch system's fair share, and OStrich.
      {{"fairshare", "Slurm-style multifactor priority: fair share 2^(-U/S), equal shares, usage decayed with a 7-day "
                     "half-life, plus age; EASY backfilling in priority order", {}},
       without_options<policies::make_fairshare>},
      {{"ostrich", "OStrich (seed 002): per-user campaigns, each user an equal share of a virtual schedule; the "
                   "campaign with the smallest virtual completion starts next", {}},
       [](const OnlineOptions& /*options*/, const OnlineWorkload& workload) { return make_ostrich(workload); }},
      // The baseline seed 002 compares with: the schedule the trace itself records.
      {{"logged", "the trace's own schedule: each job starts at its logged start (submit + wait), or as soon as it "
                  "fits after it; needs an SWF log with wait times", {}},
       without_options<policies::make_logged>},
  };
  return entries;
}

}  // namespace

std::vector<OnlinePolicyInfo> online_policies() {
  std::vector<OnlinePolicyInfo> infos;
  for (const auto& entry : registry()) infos.push_back(entry.info);
  return infos;
}

std::vector<std::string> online_policy_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.emplace_back(entry.info.name);
  return names;
}

void check_online_policy_options(std::string_view name, std::span<const std::string_view> given) {
  const auto entry = std::find_if(registry().begin(), registry().end(),
                                  [&](const PolicyEntry& candidate) { return candidate.info.name == name; });
  if (entry == registry().end()) return;  // make_online_policy names the unknown policy
  for (const std::string_view option : given) {
    if (std::find(entry->info.options.begin(), entry->info.options.end(), option) != entry->info.options.end()) {
      continue;
    }
    std::vector<std::string_view> readers;
    for (const auto& other : registry()) {
      if (std::find(other.info.options.begin(), other.info.options.end(), option) != other.info.options.end()) {
        readers.push_back(other.info.name);
      }
    }
    throw UsageError(fmt::format("{} is not an option of the policy {}, which would ignore it (the policies that "
                                 "read it: {})",
                                 option, name, fmt::join(readers, ", ")));
  }
}

std::unique_ptr<OnlinePolicy> make_online_policy(std::string_view name, const OnlineOptions& options,
                                                 const OnlineWorkload& workload) {
  for (const auto& entry : registry()) {
    if (entry.info.name == name) return entry.make(options, workload);
  }
  throw UsageError(
      fmt::format("unknown online policy '{}' (known: {})", name, fmt::join(online_policy_names(), ", ")));
}

double job_time(const OnlineWorkload& workload, std::size_t job, std::span<const int> alloc) {
  return workload.instance.time(job, alloc);
}

double planned_max_stretch(const OnlineState& state, std::span<const Placement> plan) {
  double worst = 0.0;
  for (const Placement& placement : plan) worst = std::max(worst, state.stretch_at(placement.job, placement.end));
  return worst;
}

}  // namespace cosched::online
