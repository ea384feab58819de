// The machine-reservation scheme (seed 000, Sec. 4) around FCFS or DASEDF: a main part of m - X processors and an
// auxiliary part of X, each running its own copy of the policy. A released job goes to the main part when the
// main part's plan with it has a maximum stretch below T; otherwise to the part whose plan with it has the smaller
// maximum stretch (ties: main). A job that does not fit a part at all goes to the other.
//
// The maximum stretch compared is the planned one of the part's pending jobs, the new one included
// (planned_max_stretch): running jobs do not count. The paper does not say; their stretch is already decided
// whatever part the new job joins, and counting it would keep sending every job to the auxiliary part for as long
// as one late job runs on the main part — the instantaneous objective of DASEDF (digest §2.3, ambiguity 3).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "cosched/common/error.hpp"
#include "online/policies/partitioned.hpp"

namespace cosched::online::policies {

namespace {

constexpr std::size_t kMain = 0;
constexpr std::size_t kAuxiliary = 1;

class ReservationPolicy final : public PartitionedPolicy {
 public:
  ReservationPolicy(std::string name, SharedJobs jobs, std::vector<std::vector<int>> parts, const MakeCopy& make_copy,
                    double threshold)
      : PartitionedPolicy(std::move(name), std::move(jobs), std::move(parts), make_copy), threshold_(threshold) {}

 private:
  std::size_t choose_part(std::size_t job, const OnlineState& state) override {
    if (!holds(kMain, job)) return kAuxiliary;
    if (!holds(kAuxiliary, job)) return kMain;
    const double main_stretch = planned_max_stretch(state, plan_with(kMain, job, state));
    if (main_stretch < threshold_) return kMain;
    const double auxiliary_stretch = planned_max_stretch(state, plan_with(kAuxiliary, job, state));
    return auxiliary_stretch < main_stretch ? kAuxiliary : kMain;
  }

  double threshold_;
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_reservation(std::string_view inner, MakePolicy make_inner,
                                              const OnlineOptions& options, SharedJobs jobs) {
  const std::string name = fmt::format("{}-reservation", inner);
  const std::vector<int>& capacity = jobs->workload().instance.space().capacities();
  const int m = capacity[0];
  if (options.reserve < 1 || options.reserve >= m) {
    throw UsageError(fmt::format("{} needs --reserve X with 1 <= X < {} (got {})", name, m, options.reserve));
  }
  if (!std::isfinite(options.threshold) || options.threshold <= 0.0) {
    throw UsageError(fmt::format("{} needs --threshold T, a stretch > 0 (got {})", name, options.threshold));
  }
  auto parts = proportional_parts(capacity, {m - options.reserve, options.reserve});
  for (std::size_t job = 0; job < jobs->size(); ++job) {
    if (!fits(jobs->demand(job), parts[kMain]) && !fits(jobs->demand(job), parts[kAuxiliary])) {
      throw UsageError(fmt::format("{} with --reserve {}: job {} needs ({}), more than the main part ({}) and the "
                                   "auxiliary part ({}) each have",
                                   name, options.reserve, jobs->workload().instance.tasks()[job].id,
                                   fmt::join(jobs->demand(job), ", "), fmt::join(parts[kMain], ", "),
                                   fmt::join(parts[kAuxiliary], ", ")));
    }
  }
  const auto make_copy = [make_inner, jobs]() { return make_inner(jobs); };
  return std::make_unique<ReservationPolicy>(name, jobs, std::move(parts), make_copy, options.threshold);
}

}  // namespace cosched::online::policies
