// The bi-criteria algorithm of seed 001 (Sec. 3.2): the batches of plan_batches, compacted by the list scheduler
// in batch order (the paper's third and best compaction), then a few shuffles of the batch order.
#include <numeric>
#include <random>

#include "cosched/sched/bicriteria.hpp"
#include "sched/bicriteria/algorithms.hpp"

namespace cosched::sched::detail {

namespace {

// "The batch order is shuffled several times and the best resulting compact schedule is kept" — how many times
// and which shuffles the paper does not say. Here: swaps of two neighbouring batches of the best order so far,
// from a fixed seed (plans are reproducible), kept when sum w_j C_j drops (ties: when the makespan drops).
constexpr int kShuffles = 16;
constexpr std::uint64_t kShuffleSeed = 2004;

std::vector<std::size_t> list_in_batch_order(const BatchPlan& plan, const std::vector<std::size_t>& batch_order) {
  std::vector<std::size_t> order;
  for (std::size_t b : batch_order) order.insert(order.end(), plan.batches[b].tasks.begin(), plan.batches[b].tasks.end());
  return order;
}

}  // namespace

Schedule BicriteriaAlgorithm::schedule(const Instance& instance) const {
  const BatchPlan plan = plan_batches(instance);
  AllottedList list;
  list.allocation.resize(instance.task_count());
  list.time.resize(instance.task_count());
  for (const Batch& batch : plan.batches) {
    for (std::size_t k = 0; k < batch.tasks.size(); ++k) {
      list.allocation[batch.tasks[k]] = batch.allocation[k];
      list.time[batch.tasks[k]] = batch.time[k];
    }
  }
  list.allocation_bound = allocation_bound(instance, list);

  std::vector<std::size_t> best_order(plan.batches.size());
  std::iota(best_order.begin(), best_order.end(), std::size_t{0});
  list.order = list_in_batch_order(plan, best_order);
  Schedule best = schedule_allotted_list(instance, std::string(name()), list);
  double best_sum = weighted_completion_sum(instance, best.tasks);
  std::mt19937_64 random(kShuffleSeed);
  for (int shuffle = 0; shuffle < kShuffles && best_order.size() >= 2; ++shuffle) {
    std::vector<std::size_t> order = best_order;
    const std::size_t i = static_cast<std::size_t>(random() % (order.size() - 1));
    std::swap(order[i], order[i + 1]);
    list.order = list_in_batch_order(plan, order);
    Schedule candidate = schedule_allotted_list(instance, std::string(name()), list);
    const double sum = weighted_completion_sum(instance, candidate.tasks);
    if (sum < best_sum || (sum == best_sum && candidate.makespan < best.makespan)) {
      best = std::move(candidate);
      best_sum = sum;
      best_order = std::move(order);
    }
  }
  return best;
}

}  // namespace cosched::sched::detail
