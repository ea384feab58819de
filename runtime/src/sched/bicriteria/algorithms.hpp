#pragma once
// The algorithms of seed 001 behind the Algorithm interface: the bi-criteria algorithm and its five baselines.
// Each one fixes an allotment per task and a list order; the list scheduler of rigid.hpp places them.
#include <functional>
#include <string>
#include <vector>

#include "cosched/sched/algorithm.hpp"

namespace cosched::sched::detail {

// What a list-based algorithm of seed 001 decides before the list scheduler runs.
struct AllottedList {
  std::vector<std::size_t> allocation;  // per task, linear index into the instance's AllocationSpace
  std::vector<double> time;             // t_j at that allocation
  std::vector<std::size_t> order;       // the list: a permutation of the tasks
  double allocation_bound = 0.0;        // L(p, d) of the allocation
};

// gang, sequential-lptf, list-mrt, list-wlptf, list-saf: an allotment and an order, then one list schedule.
class AllottedListAlgorithm final : public Algorithm {
 public:
  using Decide = std::function<AllottedList(const Instance&)>;
  AllottedListAlgorithm(std::string name, Decide decide) : name_(std::move(name)), decide_(std::move(decide)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] Schedule schedule(const Instance& instance) const override;

 private:
  std::string name_;
  Decide decide_;
};

// The bi-criteria algorithm (Sec. 3.2): batches, list compaction in batch order, shuffles of the batch order.
class BicriteriaAlgorithm final : public Algorithm {
 public:
  [[nodiscard]] std::string_view name() const override { return "bicriteria"; }
  [[nodiscard]] Schedule schedule(const Instance& instance) const override;
};

// The baselines of Sec. 4.1, as deciders for AllottedListAlgorithm.
[[nodiscard]] AllottedList gang_list(const Instance& instance);
[[nodiscard]] AllottedList sequential_lptf_list(const Instance& instance);
[[nodiscard]] AllottedList list_mrt_list(const Instance& instance);
[[nodiscard]] AllottedList list_wlptf_list(const Instance& instance);
[[nodiscard]] AllottedList list_saf_list(const Instance& instance);

// L(p, d) = max(A(p) / d, t_max(p)) of the allocation in `list`.
[[nodiscard]] double allocation_bound(const Instance& instance, const AllottedList& list);

// The list schedule of `list` as a Schedule of `instance`, named `name`.
[[nodiscard]] Schedule schedule_allotted_list(const Instance& instance, const std::string& name,
                                              const AllottedList& list);

}  // namespace cosched::sched::detail
