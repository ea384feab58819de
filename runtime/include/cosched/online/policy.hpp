#pragma once
// Online policies (seed 000): at every release and every completion the policy sees the jobs released and not
// started, the running ones and the free resources, re-plans the pending jobs, and the placements it plans to
// start *now* are started. Execution is non-preemptive: a started job keeps its allocation to the end; planned
// starts in the future are not commitments (the next event re-plans them).
//
// Policies are pure: no clock, no processes. The launcher's engine drives them (launcher/online_policy.hpp) on the
// simulated clock (trace replay at full scale) and on the wall clock (a node workload run for real), so a policy is
// written once. Each is registered by name in src/online/registry.cpp; adding one touches that list and its
// own file.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/online/workload.hpp"

namespace cosched::online {

struct RunningJob {
  std::size_t job = 0;         // index into the workload's jobs
  std::vector<int> alloc;      // its allocation vector, fixed until it ends
  double start = 0.0;
  // start + its time at alloc, but never before `now`: a job running late (wall clock) ends now at the earliest.
  double expected_end = 0.0;
};

struct OnlineState {
  const OnlineWorkload& workload;
  double now = 0.0;
  std::span<const std::size_t> pending;   // released, not started; in release order (ties: job index)
  std::span<const RunningJob> running;
  std::span<const int> free;              // per resource of the workload's instance
  // When each job was released in this run, indexed like the workload's jobs (read for released jobs only): its
  // arrival's release when the replay is open loop, earlier or later when it is closed loop (a user's next job
  // follows the completion of the work it waited for, sim/replay.hpp). Empty: every job at its arrival's release.
  std::span<const double> releases = {};

  [[nodiscard]] double release(std::size_t job) const {
    return releases.empty() ? workload.arrivals[job].release : releases[job];
  }
  // The stretch of `job` if it completes at `end`: (end - release) / reference time.
  [[nodiscard]] double stretch_at(std::size_t job, double end) const {
    return (end - release(job)) / workload.reference_time[job];
  }
};

struct Placement {
  std::size_t job = 0;
  std::vector<int> alloc;
  double start = 0.0;
  double end = 0.0;  // start + time at alloc (as the policy planned it)
};

class OnlinePolicy {
 public:
  virtual ~OnlinePolicy() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Called once for each job as it is released, in release order, before plan() runs at that instant. The
  // reservation scheme and Split commit a job to a part here; most policies ignore it.
  virtual void released(std::size_t /*job*/, const OnlineState& /*state*/) {}
  // A plan for pending jobs. Every placement with start <= now is started now, in the order given; together
  // they must fit in state.free (the engine refuses, never over-commits, and reports a policy that over-asks).
  // Future placements are informative (the reservation scheme reads them); a policy may omit them.
  [[nodiscard]] virtual std::vector<Placement> plan(const OnlineState& state) = 0;
  // The next instant after the last plan() at which the plan may change without a release or a completion (OStrich:
  // a campaign that becomes eligible at its virtual start), or none; the engine then plans again.
  [[nodiscard]] virtual std::optional<double> next_wakeup() const { return std::nullopt; }
};

// Parameters of the registered policies; each policy reads the ones it names and refuses bad values.
struct OnlineOptions {
  double rho = 1.0;        // dbos: online factor (>= 1); split: number of groups (an integer >= 2)
  int reserve = 0;         // reservation: X auxiliary processors (1 <= X < m)
  double threshold = 0.0;  // reservation: stretch threshold T (> 0)
};

struct OnlinePolicyInfo {
  std::string_view name;
  std::string_view summary;                 // one line for --help and docs
  std::vector<std::string_view> options;    // the OnlineOptions it reads, by their flags ("--rho")
};

[[nodiscard]] std::vector<OnlinePolicyInfo> online_policies();
[[nodiscard]] std::vector<std::string> online_policy_names();
// Throws UsageError naming the first of `given` (flags of OnlineOptions the user set: "--rho", "--reserve",
// "--threshold") that the policy does not read, and the policies that do: an ignored option is a usage error.
void check_online_policy_options(std::string_view name, std::span<const std::string_view> given);
// Throws UsageError for an unknown name (listing the known ones) or options the policy refuses.
[[nodiscard]] std::unique_ptr<OnlinePolicy> make_online_policy(std::string_view name, const OnlineOptions& options,
                                                               const OnlineWorkload& workload);

// Helpers shared by policies and tests.
// Time of `job` at `alloc` (the instance's profile).
[[nodiscard]] double job_time(const OnlineWorkload& workload, std::size_t job, std::span<const int> alloc);
// The largest stretch among the placements of pending jobs of `state` (0 when empty): what the reservation scheme
// compares.
[[nodiscard]] double planned_max_stretch(const OnlineState& state, std::span<const Placement> plan);

}  // namespace cosched::online
