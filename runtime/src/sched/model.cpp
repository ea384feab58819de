#include "cosched/sched/model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "cosched/common/checked.hpp"
#include "cosched/common/error.hpp"
#include "cosched/common/identifier.hpp"

namespace cosched::sched {

namespace {

std::string describe(const std::vector<int>& capacities) {
  std::string text;
  for (const int capacity : capacities) text += (text.empty() ? "" : ",") + std::to_string(capacity);
  return text;
}

}  // namespace

AllocationSpace::AllocationSpace(std::vector<int> capacities) : capacities_(std::move(capacities)) {
  if (capacities_.empty()) throw InputError("resources", "at least one resource type is needed");
  strides_.assign(capacities_.size(), 1);
  for (std::size_t i = capacities_.size(); i-- > 0;) {
    if (capacities_[i] < 1) {
      throw InputError("resources[" + std::to_string(i) + "]",
                       "capacity " + std::to_string(capacities_[i]) + " is below 1");
    }
    strides_[i] = size_;
    const auto extent = static_cast<std::size_t>(capacities_[i]) + 1;
    if (size_ > kMaxAllocationVectors / extent) {
      throw ResourceError("the allocation space has more than 2^24 vectors (the product of capacity+1 over the " +
                          std::to_string(capacities_.size()) + " resources; capacities " + describe(capacities_) +
                          "): too large to schedule");
    }
    size_ *= extent;
  }
}

std::size_t AllocationSpace::index_of(std::span<const int> alloc) const {
  assert(contains(alloc));
  std::size_t index = 0;
  for (std::size_t i = 0; i < alloc.size(); ++i) index += static_cast<std::size_t>(alloc[i]) * strides_[i];
  return index;
}

void AllocationSpace::decode(std::size_t index, std::span<int> alloc) const {
  assert(index < size_ && alloc.size() == capacities_.size());
  for (std::size_t i = 0; i < capacities_.size(); ++i) {
    alloc[i] = static_cast<int>(index / strides_[i]);
    index %= strides_[i];
  }
}

std::vector<int> AllocationSpace::decode(std::size_t index) const {
  std::vector<int> alloc(capacities_.size());
  decode(index, alloc);
  return alloc;
}

bool AllocationSpace::contains(std::span<const int> alloc) const {
  if (alloc.size() != capacities_.size()) return false;
  for (std::size_t i = 0; i < alloc.size(); ++i) {
    if (alloc[i] < 0 || alloc[i] > capacities_[i]) return false;
  }
  return true;
}

double AllocationSpace::share_sum(std::span<const int> alloc) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < alloc.size(); ++i) sum += share(i, alloc[i]);
  return sum;
}

double area(const AllocationSpace& space, std::span<const int> alloc, double time) {
  if (std::isinf(time)) return std::numeric_limits<double>::infinity();
  return space.share_sum(alloc) * time;
}

void apply_monotone_closure(const AllocationSpace& space, std::span<double> times) {
  assert(times.size() == space.size());
  // The min over the box q <= p separates into one prefix-min per axis.
  for (std::size_t i = 0; i < space.dimensions(); ++i) {
    const std::size_t stride = space.stride(i);
    const std::size_t block = stride * (static_cast<std::size_t>(space.capacity(i)) + 1);
    for (std::size_t start = 0; start < times.size(); start += block) {
      for (std::size_t k = start + stride; k < start + block; ++k) times[k] = std::min(times[k], times[k - stride]);
    }
  }
}

DenseTimeTable::DenseTimeTable(const AllocationSpace& space, std::vector<double> raw_times)
    : times_(std::move(raw_times)) {
  assert(times_.size() == space.size());
  for (double& t : times_) {
    assert(!std::isnan(t) && t >= 0.0);
    t += 0.0;  // -0.0 -> +0.0, so bit patterns of times order like their values
  }
  apply_monotone_closure(space, times_);
}

void DenseTimeTable::fill_times([[maybe_unused]] const AllocationSpace& space, std::span<double> out) const {
  assert(out.size() == space.size() && out.size() == times_.size());
  std::copy(times_.begin(), times_.end(), out.begin());
}

double DenseTimeTable::time_at(const AllocationSpace& space, std::span<const int> alloc) const {
  return times_[space.index_of(alloc)];
}

namespace {

// The first task (in order) whose id an earlier task has. By sorted hashes rather than a hash set: a trace of
// millions of jobs is checked without a node (and a cache miss) per id.
std::optional<std::size_t> first_duplicate_id(const std::vector<Task>& tasks) {
  std::vector<std::pair<std::size_t, std::size_t>> hashed(tasks.size());  // (hash, index)
  for (std::size_t j = 0; j < tasks.size(); ++j) hashed[j] = {std::hash<std::string_view>{}(tasks[j].id), j};
  std::sort(hashed.begin(), hashed.end());
  std::optional<std::size_t> first;
  for (std::size_t begin = 0; begin < hashed.size();) {
    std::size_t end = begin + 1;
    while (end < hashed.size() && hashed[end].first == hashed[begin].first) ++end;
    for (std::size_t a = begin; a < end; ++a) {  // equal hashes: compare the ids (indices ascend in a run)
      for (std::size_t b = a + 1; b < end; ++b) {
        const std::size_t later = hashed[b].second;
        if (tasks[hashed[a].second].id == tasks[later].id && (!first || later < *first)) first = later;
      }
    }
    begin = end;
  }
  return first;
}

}  // namespace

Instance::Instance(std::vector<Resource> resources, std::vector<Task> tasks, nlohmann::json attributes,
                   BandwidthModel bandwidth)
    : resources_(std::move(resources)),
      space_(capacities_of(resources_)),
      tasks_(std::move(tasks)),
      attributes_(std::move(attributes)),
      bandwidth_(std::move(bandwidth)) {
  check_bandwidth_model(bandwidth_, "bandwidth");
  std::unordered_set<std::string> names;
  for (std::size_t i = 0; i < resources_.size(); ++i) {
    const std::string where = "resources[" + std::to_string(i) + "]";
    if (resources_[i].name.empty()) throw InputError(where, "the name is empty");
    if (!names.insert(resources_[i].name).second) {
      throw InputError(where, "resource \"" + resources_[i].name + "\" is named twice");
    }
  }
  if (!attributes_.is_object()) throw InputError("instance", "the attributes are not a JSON object");
  const std::optional<std::size_t> duplicate = first_duplicate_id(tasks_);
  for (std::size_t j = 0; j < tasks_.size(); ++j) {
    const Task& task = tasks_[j];
    check_identifier(task.id, "task id");
    const auto where = [&] { return "task \"" + task.id + "\""; };
    if (duplicate == j) throw InputError(where(), "duplicate task id");
    if (!task.attributes.is_object() && !task.attributes.is_null()) {
      throw InputError(where(), "the attributes are not a JSON object");
    }
    assert(task.profile != nullptr);
    if (task.traffic != nullptr) check_traffic(*task.traffic, where());
    (void)checked_number(task.weight, positive_up_to(kMaxWeight), where, "weight");
  }
}

void Instance::check_traffic(const TrafficTable& traffic, const std::string& where) const {
  if (traffic.size() != bandwidth_.pools.size()) {
    throw InputError(where, fmt::format("traffic for {} memory pools, the bandwidth model has {}", traffic.size(),
                                        bandwidth_.pools.size()));
  }
  for (std::size_t q = 0; q < traffic.size(); ++q) {
    if (traffic[q].size() != space_.size()) {
      throw InputError(where, fmt::format("traffic of pool \"{}\" has {} entries, expected {} (one per allocation "
                                          "vector)",
                                          bandwidth_.pools[q].name, traffic[q].size(), space_.size()));
    }
    for (const double bytes : traffic[q]) {
      if (!(std::isfinite(bytes) && bytes >= 0.0)) {
        throw InputError(where, fmt::format("traffic of pool \"{}\": {} bytes is not finite and >= 0",
                                            bandwidth_.pools[q].name, bytes));
      }
    }
  }
}

FlowDemand Instance::demand(std::size_t task, std::span<const int> alloc) const {
  return flow_of_traffic(bandwidth_, traffic(task, alloc), time(task, alloc), std::max(1, alloc[0]));
}

std::vector<double> Instance::traffic(std::size_t task, std::span<const int> alloc) const {
  const Task& entry = tasks_[task];
  if (entry.traffic == nullptr) return {};
  const std::size_t index = space_.index_of(alloc);
  std::vector<double> bytes;
  bytes.reserve(entry.traffic->size());
  for (const auto& pool : *entry.traffic) bytes.push_back(pool[index]);
  return bytes;
}

std::vector<int> capacities_of(const std::vector<Resource>& resources) {
  std::vector<int> capacities;
  capacities.reserve(resources.size());
  for (const auto& resource : resources) capacities.push_back(resource.capacity);
  return capacities;
}

Instance leading_resources(const Instance& instance, std::size_t count) {
  assert(count >= 1 && count <= instance.dimensions());
  const std::vector<Resource> kept(instance.resources().begin(), instance.resources().begin() + static_cast<std::ptrdiff_t>(count));
  const AllocationSpace space(capacities_of(kept));
  std::vector<int> full(instance.dimensions(), 0);
  std::vector<Task> tasks;
  tasks.reserve(instance.task_count());
  for (std::size_t j = 0; j < instance.task_count(); ++j) {
    std::vector<double> times(space.size());
    for (std::size_t index = 0; index < space.size(); ++index) {
      space.decode(index, std::span<int>(full.data(), count));
      times[index] = instance.time(j, full);
    }
    const Task& task = instance.tasks()[j];
    std::shared_ptr<const TrafficTable> traffic;
    if (task.traffic != nullptr) {
      auto kept_traffic = std::make_shared<TrafficTable>(task.traffic->size(), std::vector<double>(space.size()));
      for (std::size_t index = 0; index < space.size(); ++index) {
        space.decode(index, std::span<int>(full.data(), count));
        const std::size_t from = instance.space().index_of(full);
        for (std::size_t q = 0; q < kept_traffic->size(); ++q) (*kept_traffic)[q][index] = (*task.traffic)[q][from];
      }
      traffic = std::move(kept_traffic);
    }
    tasks.push_back({task.id, std::make_shared<DenseTimeTable>(space, std::move(times)), task.attributes,
                     std::move(traffic), task.weight});
  }
  return Instance(kept, std::move(tasks), instance.attributes(), instance.bandwidth());
}

}  // namespace cosched::sched
