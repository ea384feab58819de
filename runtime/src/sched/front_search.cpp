#include "sched/front_search.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <span>

namespace cosched::sched::detail {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

}  // namespace

FrontSearch::FrontSearch(const AllocationSpace& space, const TimeProfile& profile, double fastest_time)
    : space_(space), profile_(profile), fastest_time_(fastest_time), dimensions_(space.dimensions()) {
  for (std::size_t i = 0; i < dimensions_; ++i) {
    share_offset_.push_back(shares_.size());
    for (int k = 0; k <= space.capacity(i); ++k) shares_.push_back(space.share(i, k));
  }
}

double FrontSearch::time_at(const int* alloc) {
  ++evaluations_;
  return profile_.time_at(space_, std::span<const int>(alloc, dimensions_));
}

// The fold of AllocationSpace::share_sum, term for term: 0.0 + p_1/P(1) + ... + p_d/P(d).
double FrontSearch::share_of(const int* alloc) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < dimensions_; ++i) sum += shares_[share_offset_[i] + static_cast<std::size_t>(alloc[i])];
  return sum;
}

std::uint32_t FrontSearch::new_box() {
  if (!free_boxes_.empty()) {
    const std::uint32_t box = free_boxes_.back();
    free_boxes_.pop_back();
    return box;
  }
  boxes_.emplace_back();
  corners_.resize(corners_.size() + 2 * dimensions_);
  return static_cast<std::uint32_t>(boxes_.size() - 1);
}

// Every allocation p of the box has key(p) >= this, lexicographically: its primary value is at least share(lo)
// (times t(hi) for the area), and when equal its time is at least t(hi) and its index at least lo's.
FrontSearch::Key FrontSearch::bound_of(Objective objective, const Box& box) const {
  const double primary = objective == Objective::area ? box.low_share * box.high_time : box.low_share;
  return {primary, box.high_time, box.low_index};
}

FrontSearch::Key FrontSearch::candidate_of(Objective objective, const Box& box) const {
  const double primary = objective == Objective::area ? box.low_share * box.low_time : box.low_share;
  return {primary, box.low_time, box.low_index};
}

std::optional<AdmissibleAllocation> FrontSearch::least_area(double limit,
                                                            std::optional<AdmissibleAllocation> incumbent) {
  std::optional<Key> best;
  if (incumbent) best = Key{incumbent->area, incumbent->time, incumbent->index};
  return search(Objective::area, limit, best);
}

std::optional<AdmissibleAllocation> FrontSearch::least_share() {
  return search(Objective::share, infinity, std::nullopt);
}

std::optional<AdmissibleAllocation> FrontSearch::search(Objective objective, double limit, std::optional<Key> best) {
  // A box holds an allocation the limit admits iff its fastest one does.
  const auto admits = [limit](double time) { return time != infinity && time <= limit; };
  const auto later = [](const Queued& a, const Queued& b) { return b.bound < a.bound; };
  boxes_.clear();
  corners_.clear();
  free_boxes_.clear();
  queue_.clear();
  if (!admits(fastest_time_)) return std::nullopt;

  const std::uint32_t root = new_box();
  std::fill(low(root), low(root) + dimensions_, 0);
  std::copy(space_.capacities().begin(), space_.capacities().end(), high(root));
  boxes_[root] = {time_at(low(root)), fastest_time_, 0.0, 0};
  queue_.push_back({bound_of(objective, boxes_[root]), root});

  while (!queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), later);
    const Queued top = queue_.back();
    queue_.pop_back();
    if (best && *best < top.bound) break;  // every box left is bounded above the best: nothing in them beats it
    const std::uint32_t id = top.box;
    const Box box = boxes_[id];
    free_boxes_.push_back(id);  // its corners stay readable until new_box() hands it out below
    if (admits(box.low_time)) {
      const Key candidate = candidate_of(objective, box);
      if (!best || candidate < *best) best = candidate;
      if (box.low_time == box.high_time) continue;  // constant in time: lo is the box's minimum
    }
    // Split along the resource of largest share extent (ties: the first), compared exactly in integers.
    std::size_t axis = dimensions_;
    for (std::size_t i = 0; i < dimensions_; ++i) {
      const std::int64_t extent = high(id)[i] - low(id)[i];
      if (extent == 0) continue;
      if (axis == dimensions_ || extent * space_.capacity(axis) >
                                     static_cast<std::int64_t>(high(id)[axis] - low(id)[axis]) * space_.capacity(i)) {
        axis = i;
      }
    }
    if (axis == dimensions_) continue;  // a single allocation, already a candidate or not admitted
    const int middle = low(id)[axis] + (high(id)[axis] - low(id)[axis]) / 2;

    const std::uint32_t lower = new_box();  // may reuse `id`: copy the corners out first
    const std::uint32_t upper = new_box();
    std::vector<int>::size_type base = static_cast<std::size_t>(id) * 2 * dimensions_;
    std::copy_n(corners_.begin() + static_cast<std::ptrdiff_t>(base), 2 * dimensions_,
                corners_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(upper) * 2 * dimensions_));
    if (lower != id) {
      std::copy_n(corners_.begin() + static_cast<std::ptrdiff_t>(base), 2 * dimensions_,
                  corners_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(lower) * 2 * dimensions_));
    }
    high(lower)[axis] = middle;
    low(upper)[axis] = middle + 1;
    boxes_[lower] = {box.low_time, time_at(high(lower)), box.low_share, box.low_index};
    boxes_[upper] = {time_at(low(upper)), box.high_time, share_of(low(upper)),
                     box.low_index + static_cast<std::size_t>(middle + 1 - low(lower)[axis]) * space_.stride(axis)};
    for (const std::uint32_t child : {lower, upper}) {
      const Key bound = bound_of(objective, boxes_[child]);
      if (admits(boxes_[child].high_time) && !(best && *best < bound)) {
        queue_.push_back({bound, child});
        std::push_heap(queue_.begin(), queue_.end(), later);
      } else {
        free_boxes_.push_back(child);
      }
    }
  }
  if (!best) return std::nullopt;
  const double area = objective == Objective::area ? best->primary : best->primary * best->time;
  return AdmissibleAllocation{best->time, area, best->index};
}

}  // namespace cosched::sched::detail
