#pragma once
// A machine cut into parts, each running its own copy of a policy on its own jobs: the reservation scheme of
// Sec. 4 (main + auxiliary part) and Split of Sec. 3.3.2 (rho groups). A job is committed to one part when it is
// released (choose_part: the two schemes differ only there) and stays there. A part's copy sees the pending and
// running jobs committed to it, and as free amounts the part's capacity minus what its running jobs hold.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "online/policies/policies.hpp"

namespace cosched::online::policies {

// Splits `capacity` into parts with `processors[p]` units of resource 0 each (they sum to capacity[0]); every
// other resource in proportion, rounded down, the units left over going to the part with the most processors
// (the last of equals).
[[nodiscard]] std::vector<std::vector<int>> proportional_parts(const std::vector<int>& capacity,
                                                               const std::vector<int>& processors);

class PartitionedPolicy : public OnlinePolicy {
 public:
  using MakeCopy = std::function<std::unique_ptr<OnlinePolicy>()>;
  PartitionedPolicy(std::string name, SharedJobs jobs, std::vector<std::vector<int>> part_capacities,
                    const MakeCopy& make_copy);

  [[nodiscard]] std::string_view name() const final { return name_; }
  void released(std::size_t job, const OnlineState& state) final;
  [[nodiscard]] std::vector<Placement> plan(const OnlineState& state) final;

 protected:
  [[nodiscard]] virtual std::size_t choose_part(std::size_t job, const OnlineState& state) = 0;

  [[nodiscard]] const ReferenceJobs& jobs() const noexcept { return *jobs_; }
  [[nodiscard]] std::size_t part_count() const noexcept { return parts_.size(); }
  // Whether `job`'s allocation fits part `part`'s capacity at all.
  [[nodiscard]] bool holds(std::size_t part, std::size_t job) const;
  // Part `part`'s plan with `job` added to its pending jobs: a trial, nothing is committed.
  [[nodiscard]] std::vector<Placement> plan_with(std::size_t part, std::size_t job, const OnlineState& state);

 private:
  static constexpr std::size_t kUncommitted = static_cast<std::size_t>(-1);
  struct Part {
    std::vector<int> capacity;
    std::unique_ptr<OnlinePolicy> policy;
    // The part's view of the current state, rebuilt at each call; the buffers are kept so that copying the
    // running jobs' allocations reuses their storage.
    std::vector<std::size_t> pending;
    std::vector<RunningJob> running;
    std::size_t running_count = 0;
    std::vector<int> free;
  };
  // Fills part.pending/running/free from `state` and returns the part's state.
  OnlineState view(Part& part, std::size_t index, const OnlineState& state);
  void commit_if_needed(std::size_t job, const OnlineState& state);
  // Running jobs the policy never saw released (a resumed run): each goes to the first part with room for it.
  void adopt_running(const OnlineState& state);

  std::string name_;
  SharedJobs jobs_;
  std::vector<Part> parts_;
  std::vector<std::size_t> part_of_;  // per job of the workload
};

}  // namespace cosched::online::policies
