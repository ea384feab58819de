// Split (seed 000, Sec. 3.3.2, Algorithm 1) with FCFS in every group: the m processors in rho groups of
// floor(m / rho), the remainder to the last group; a job of reference time p goes to the group of its size class j,
// p_min * Delta^(j / rho) <= p <= p_min * Delta^((j + 1) / rho) with p_min, p_max and Delta = p_max / p_min over
// the whole workload (the algorithm assumes them known). A time on a class boundary goes to the lower class, and
// p_max to the last. (Algorithm 1 writes 0 <= j <= rho; there are rho groups, 0 <= j <= rho - 1.) A rigid job too
// large for its class's group goes to the last group, the largest.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "cosched/common/error.hpp"
#include "online/policies/partitioned.hpp"

namespace cosched::online::policies {

namespace {

class SplitPolicy final : public PartitionedPolicy {
 public:
  SplitPolicy(SharedJobs jobs, std::vector<std::vector<int>> groups)
      // Split compares no plans: its groups plan only the jobs they start.
      : PartitionedPolicy("split", jobs, std::move(groups), [jobs]() { return make_fcfs(jobs, Horizon::starts_now); }) {
    const auto& times = jobs->workload().reference_time;
    if (times.empty()) return;  // no job (what is left of a completed run): no class to tell apart
    const auto [shortest, longest] = std::minmax_element(times.begin(), times.end());
    // Class j's upper end p_min * Delta^((j + 1) / rho), computed once so that every job is compared with the
    // same numbers.
    const double delta = *longest / *shortest;
    const auto rho = static_cast<double>(part_count());
    for (std::size_t j = 0; j + 1 < part_count(); ++j) {
      upper_ends_.push_back(*shortest * std::pow(delta, static_cast<double>(j + 1) / rho));
    }
  }

 private:
  std::size_t choose_part(std::size_t job, const OnlineState& /*state*/) override {
    const double time = jobs().time(job);
    const auto size_class = static_cast<std::size_t>(
        std::lower_bound(upper_ends_.begin(), upper_ends_.end(), time) - upper_ends_.begin());
    return holds(size_class, job) ? size_class : part_count() - 1;
  }

  std::vector<double> upper_ends_;  // of classes 0 .. rho - 2; the last class takes the rest
};

}  // namespace

std::unique_ptr<OnlinePolicy> make_split(const OnlineOptions& options, SharedJobs jobs) {
  const std::vector<int>& capacity = jobs->workload().instance.space().capacities();
  const int m = capacity[0];
  if (!(options.rho >= 2.0 && options.rho <= m && options.rho == std::floor(options.rho))) {
    throw UsageError(fmt::format("split needs --rho R, an integer with 2 <= R <= {} (got {})", m, options.rho));
  }
  const auto rho = static_cast<int>(options.rho);
  std::vector<int> processors(static_cast<std::size_t>(rho), m / rho);
  processors.back() += m % rho;
  auto groups = proportional_parts(capacity, processors);
  for (std::size_t job = 0; job < jobs->size(); ++job) {
    if (!fits(jobs->demand(job), groups.back())) {
      throw UsageError(fmt::format("split with --rho {}: job {} needs ({}), more than the largest group ({})", rho,
                                   jobs->workload().instance.tasks()[job].id, fmt::join(jobs->demand(job), ", "),
                                   fmt::join(groups.back(), ", ")));
    }
  }
  return std::make_unique<SplitPolicy>(std::move(jobs), std::move(groups));
}

}  // namespace cosched::online::policies
