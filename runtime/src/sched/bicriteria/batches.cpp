// The doubling batches of seed 001 (Sec. 3.2): per batch the candidates at their canonical allotment, the merge of
// the small tasks and the max-weight knapsack.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "cosched/sched/bicriteria.hpp"

namespace cosched::sched {

namespace {

struct Candidate {
  std::size_t task;
  AdmissibleAllocation allotment;
};

// A knapsack item: one task, or small tasks with the same allotment stacked on it one after the other.
struct Item {
  std::vector<Candidate> members;
  double length = 0.0;
  double weight = 0.0;
};

// Next fit by decreasing weight ("merge ... sorted by decreasing weight", the most literal reading): small tasks
// with the same allotment share it in sequence while the stack stays within the batch.
std::vector<Item> merge_candidates(const Instance& instance, const std::vector<Candidate>& candidates, double length) {
  std::vector<Item> items;
  std::map<std::size_t, std::vector<Candidate>> small_by_allotment;
  for (const Candidate& candidate : candidates) {
    if (candidate.allotment.time <= length / 2) {
      small_by_allotment[candidate.allotment.index].push_back(candidate);
    } else {
      const double weight = instance.tasks()[candidate.task].weight;
      items.push_back({{candidate}, candidate.allotment.time, weight});
    }
  }
  for (auto& [index, group] : small_by_allotment) {
    std::stable_sort(group.begin(), group.end(), [&](const Candidate& a, const Candidate& b) {
      return instance.tasks()[a.task].weight > instance.tasks()[b.task].weight;
    });
    Item stack;
    for (const Candidate& candidate : group) {
      if (!stack.members.empty() && stack.length + candidate.allotment.time > length) {
        items.push_back(std::move(stack));
        stack = Item{};
      }
      stack.members.push_back(candidate);
      stack.length += candidate.allotment.time;
      stack.weight += instance.tasks()[candidate.task].weight;
    }
    if (!stack.members.empty()) items.push_back(std::move(stack));
  }
  return items;
}

// The batch's tasks in the local order the compaction lists them: items by Smith's ratio weight / length
// (heaviest per unit of time first), a stack's members consecutively.
Batch make_batch(const std::vector<Item>& items, const std::vector<std::size_t>& chosen, double start, double length) {
  std::vector<std::size_t> order = chosen;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return items[a].weight * items[b].length > items[b].weight * items[a].length;
  });
  Batch batch{start, length, {}, {}, {}};
  for (std::size_t k : order) {
    for (const Candidate& member : items[k].members) {
      batch.tasks.push_back(member.task);
      batch.allocation.push_back(member.allotment.index);
      batch.time.push_back(member.allotment.time);
    }
  }
  return batch;
}

}  // namespace

double first_batch_length(const Instance& instance, const CanonicalAllotments& allotments, double estimate) {
  double t_min = std::numeric_limits<double>::infinity();  // a time of 0 fits every batch: it never sets t_min
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    const double fastest = allotments.fastest(j).time;
    if (fastest > 0) t_min = std::min(t_min, fastest);
  }
  if (!std::isfinite(t_min) || estimate <= 0) return 1.0;
  const int K = std::max(0, static_cast<int>(std::floor(std::log2(estimate / t_min))));
  return std::ldexp(estimate, -K);
}

double batch_grid_estimate(const Instance& instance) {
  const std::optional<double> bound = two_shelf_lower_bound(instance);
  return bound ? *bound : lower_bound(instance);
}

BatchPlan plan_batches(const Instance& instance) {
  BatchPlan plan;
  const std::size_t n = instance.task_count();
  if (n == 0) return plan;
  const CanonicalAllotments allotments(instance);
  plan.estimate = batch_grid_estimate(instance);
  double length = first_batch_length(instance, allotments, plan.estimate);
  plan.first_length = length;
  // Past the longest time of any canonical allotment nothing changes but the start: the doubling stops there.
  double longest = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    longest = std::max(longest, allotments.within(j, std::numeric_limits<double>::infinity())->time);
  }

  std::vector<bool> placed(n, false);
  std::size_t left = n;
  double start = length;
  const std::vector<int>& capacities = instance.space().capacities();
  while (left > 0) {
    std::vector<Candidate> candidates;
    for (std::size_t j = 0; j < n; ++j) {
      if (placed[j]) continue;
      if (const auto allotment = allotments.within(j, length)) candidates.push_back({j, *allotment});
    }
    const std::vector<Item> items = merge_candidates(instance, candidates, length);
    std::vector<KnapsackItem> knapsack;
    knapsack.reserve(items.size());
    for (const Item& item : items) {
      knapsack.push_back({instance.space().decode(item.members.front().allotment.index), item.weight});
    }
    const std::vector<std::size_t> chosen = max_weight_knapsack(knapsack, capacities);
    Batch batch = make_batch(items, chosen, start, length);
    for (std::size_t task : batch.tasks) placed[task] = true;
    left -= batch.tasks.size();
    if (!batch.tasks.empty()) plan.batches.push_back(std::move(batch));
    start += length;
    if (length < longest) length *= 2;
  }
  return plan;
}

}  // namespace cosched::sched
