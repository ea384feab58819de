#include "cosched/sched/transform.hpp"

#include <array>
#include <cassert>
#include <limits>
#include <numeric>
#include <string>

#include "cosched/common/error.hpp"

namespace cosched::sched {

namespace {

// t_j'(q) of the transformed task: the original profile read at the back-transformed vector, so that
// t_j(p_j) = t_j'(q_j') holds bit for bit (Lemma 2).
// The view kept inside the original profile refers to it by reference (a shared_ptr would be a cycle); a view
// that is not kept owns the original through `owner`.
class TransformedProfile final : public TimeProfile {
 public:
  TransformedProfile(const TimeProfile& original, std::shared_ptr<const TimeProfile> owner,
                     AllocationSpace original_space, int Q)
      : original_(&original), owner_(std::move(owner)), original_space_(std::move(original_space)), Q_(Q) {}

  [[nodiscard]] const std::vector<int>& original_capacities() const noexcept { return original_space_.capacities(); }

  void fill_times([[maybe_unused]] const AllocationSpace& space, std::span<double> out) const override {
    assert(space.dimensions() == 1 && space.capacity(0) == Q_ && out.size() == space.size());
    std::vector<int> alloc(original_space_.dimensions());
    for (int q = 0; q <= Q_; ++q) {
      back(q, alloc);
      out[static_cast<std::size_t>(q)] = original_->time_at(original_space_, alloc);
    }
  }

  double time_at(const AllocationSpace& space, std::span<const int> alloc) const override {
    assert(space.dimensions() == 1 && alloc.size() == 1);
    (void)space;
    // Called n * Q times per T-variant run: no heap allocation for the usual handful of resources.
    constexpr std::size_t inline_dimensions = 8;
    const std::size_t d = original_space_.dimensions();
    if (d <= inline_dimensions) {
      std::array<int, inline_dimensions> buffer{};
      const std::span<int> original_alloc(buffer.data(), d);
      back(alloc[0], original_alloc);
      return original_->time_at(original_space_, original_alloc);
    }
    std::vector<int> original_alloc(d);
    back(alloc[0], original_alloc);
    return original_->time_at(original_space_, original_alloc);
  }

 private:
  void back(int q, std::span<int> alloc) const {
    for (std::size_t i = 0; i < alloc.size(); ++i) {
      alloc[i] = static_cast<int>(static_cast<std::int64_t>(q) * original_space_.capacity(i) / Q_);
    }
  }

  const TimeProfile* original_;
  std::shared_ptr<const TimeProfile> owner_;
  AllocationSpace original_space_;
  int Q_;
};

}  // namespace

int transform_capacity(const std::vector<int>& capacities) {
  std::int64_t lcm = 1;
  for (int capacity : capacities) {
    lcm = std::lcm(lcm, static_cast<std::int64_t>(capacity));
    if (lcm > std::numeric_limits<int>::max()) {
      throw ResourceError("TF: lcm of the capacities exceeds " + std::to_string(std::numeric_limits<int>::max()));
    }
  }
  return static_cast<int>(lcm);
}

std::shared_ptr<const TimeProfile> transformed_profile(const std::shared_ptr<const TimeProfile>& original,
                                                      const AllocationSpace& space) {
  const int Q = transform_capacity(space.capacities());
  const auto matches = [&space](const std::shared_ptr<const TimeProfile>& view) {
    return static_cast<const TransformedProfile&>(*view).original_capacities() == space.capacities();
  };
  // Shares ownership with `original`, which owns the kept view.
  const auto owned_with_original = [&original](const std::shared_ptr<const TimeProfile>& view) {
    return std::shared_ptr<const TimeProfile>(original, view.get());
  };
  std::shared_ptr<const TimeProfile> kept = original->transformed_.load(std::memory_order_acquire);
  if (kept && matches(kept)) return owned_with_original(kept);
  if (!kept) {
    std::shared_ptr<const TimeProfile> fresh = std::make_shared<TransformedProfile>(*original, nullptr, space, Q);
    // The first space asked for is kept; a thread that loses the race uses the winner's view when it matches.
    if (original->transformed_.compare_exchange_strong(kept, fresh, std::memory_order_acq_rel)) {
      return owned_with_original(fresh);
    }
    if (matches(kept)) return owned_with_original(kept);
  }
  return std::make_shared<TransformedProfile>(*original, original, space, Q);
}

Instance transform_to_single_resource(const Instance& instance) {
  const int Q = transform_capacity(instance.space().capacities());
  std::vector<Task> tasks;
  tasks.reserve(instance.task_count());
  for (const auto& task : instance.tasks()) {
    tasks.push_back({task.id, transformed_profile(task.profile, instance.space()), nlohmann::json::object(), nullptr,
                     task.weight});
  }
  return Instance({Resource{"transformed", Q}}, std::move(tasks));
}

std::vector<int> transform_back(const std::vector<int>& capacities, int q, int Q) {
  assert(q >= 0 && q <= Q);
  std::vector<int> alloc(capacities.size());
  for (std::size_t i = 0; i < capacities.size(); ++i) {
    alloc[i] = static_cast<int>(static_cast<std::int64_t>(q) * capacities[i] / Q);
  }
  return alloc;
}

}  // namespace cosched::sched
