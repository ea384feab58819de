#pragma once
// The search of DASEDF's target stretch (cosched/online/dasedf.hpp states the check and its guarantees).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "online/policies/reference_jobs.hpp"

namespace cosched::online::policies {

// The check for one state, built once per plan and probed at several S: O(n log n + m) per probe (the sort by
// deadline dominates), O(n + m log m) to build. Times are kept relative to now so deadlines stay small numbers.
class DeadlineCheck {
 public:
  DeadlineCheck(const ReferenceJobs& jobs, const OnlineState& state);

  [[nodiscard]] bool passes(double stretch);
  // Positions into state.pending, by deadline at `stretch` (ties: release order).
  [[nodiscard]] std::vector<std::size_t> deadline_order(double stretch);
  // max_i (now + p_i - r_i) / p_i: every job needs p_i after now.
  [[nodiscard]] double lower_bound() const noexcept { return lower_bound_; }

 private:
  struct Key {
    double deadline;  // minus now
    std::uint32_t position;
  };
  void sort_at(double stretch);

  std::vector<double> waited_;  // now - r_i
  std::vector<double> time_;    // p_i
  std::vector<double> work_;    // processors x p_i
  std::vector<std::pair<double, double>> busy_;  // (a_q - now, processors) of running jobs, by a_q
  double idle_ = 0.0;                            // processors free now
  double lower_bound_ = 1.0;
  std::vector<Key> keys_;
};

// The grid of S: grid_point(k) = (1 + kDasedfTolerance)^k.
[[nodiscard]] double grid_point(std::int64_t k);
// The smallest grid index that passes the check, searched from `hint` outwards (galloping, then bisection):
// O(log |answer - hint|) probes, and the same answer from any hint since the check is monotone in S.
[[nodiscard]] std::int64_t smallest_passing(DeadlineCheck& check, std::int64_t hint);

}  // namespace cosched::online::policies
