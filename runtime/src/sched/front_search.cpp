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

FrontSearch::FrontSearch(const AllocationSpace& space, const TimeProfile& profile, double fastest_time,
                         std::size_t max_evaluations)
    : space_(space),
      profile_(profile),
      fastest_time_(fastest_time),
      dimensions_(space.dimensions()),
      max_evaluations_(max_evaluations),
      buffers_([]() -> Buffers& {
        thread_local Buffers buffers;
        return buffers;
      }()) {}

FrontSearch::~FrontSearch() {
  constexpr std::size_t kKeptBoxes = std::size_t{1} << 16;
  if (buffers_.boxes.capacity() > kKeptBoxes) buffers_ = Buffers{};
}

double FrontSearch::time_at(const int* alloc) {
  ++evaluations_;
  return profile_.time_at(space_, std::span<const int>(alloc, dimensions_));
}

// The fold of AllocationSpace::share_sum, term for term: 0.0 + p_1/P(1) + ... + p_d/P(d).
double FrontSearch::share_of(const int* alloc) const {
  double sum = 0.0;
  for (std::size_t i = 0; i < dimensions_; ++i) sum += space_.share(i, alloc[i]);
  return sum;
}

std::uint32_t FrontSearch::new_box() {
  if (!buffers_.free_boxes.empty()) {
    const std::uint32_t box = buffers_.free_boxes.back();
    buffers_.free_boxes.pop_back();
    return box;
  }
  buffers_.boxes.emplace_back();
  buffers_.corners.resize(buffers_.corners.size() + 2 * dimensions_);
  return static_cast<std::uint32_t>(buffers_.boxes.size() - 1);
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

FrontSearch::Outcome FrontSearch::least_area(double limit, std::optional<AdmissibleAllocation> incumbent) {
  std::optional<Key> best;
  if (incumbent) best = Key{incumbent->area, incumbent->time, incumbent->index};
  return search(Objective::area, limit, best);
}

FrontSearch::Outcome FrontSearch::least_share() {
  return search(Objective::share, infinity, std::nullopt);
}

FrontSearch::Outcome FrontSearch::search(Objective objective, double limit, std::optional<Key> best) {
  // A box holds an allocation the limit admits iff its fastest one does.
  const auto admits = [limit](double time) { return time != infinity && time <= limit; };
  const auto later = [](const Queued& a, const Queued& b) { return b.bound < a.bound; };
  buffers_.boxes.clear();
  buffers_.corners.clear();
  buffers_.free_boxes.clear();
  buffers_.queue.clear();
  if (!admits(fastest_time_)) return {true, std::nullopt};

  const std::uint32_t root = new_box();
  std::fill(low(root), low(root) + dimensions_, 0);
  std::copy(space_.capacities().begin(), space_.capacities().end(), high(root));
  buffers_.boxes[root] = {time_at(low(root)), fastest_time_, 0.0, 0};
  buffers_.queue.push_back({bound_of(objective, buffers_.boxes[root]), root});

  while (!buffers_.queue.empty()) {
    std::pop_heap(buffers_.queue.begin(), buffers_.queue.end(), later);
    const Queued top = buffers_.queue.back();
    buffers_.queue.pop_back();
    if (best && *best < top.bound) break;  // every box left is bounded above the best: nothing in them beats it
    if (evaluations_ >= max_evaluations_) return {false, std::nullopt};
    const std::uint32_t id = top.box;
    const Box box = buffers_.boxes[id];
    buffers_.free_boxes.push_back(id);  // its corners stay as they are until it is split below
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

    const std::uint32_t lower = new_box();  // `id` itself: it was freed last
    const std::uint32_t upper = new_box();
    assert(lower == id);
    std::copy_n(low(lower), 2 * dimensions_, low(upper));
    high(lower)[axis] = middle;
    low(upper)[axis] = middle + 1;
    const std::size_t upper_index =
        box.low_index + static_cast<std::size_t>(middle + 1 - low(lower)[axis]) * space_.stride(axis);
    buffers_.boxes[lower] = {box.low_time, time_at(high(lower)), box.low_share, box.low_index};
    buffers_.boxes[upper] = {time_at(low(upper)), box.high_time, share_of(low(upper)), upper_index};
    for (const std::uint32_t child : {lower, upper}) {
      const Key bound = bound_of(objective, buffers_.boxes[child]);
      if (admits(buffers_.boxes[child].high_time) && !(best && *best < bound)) {
        buffers_.queue.push_back({bound, child});
        std::push_heap(buffers_.queue.begin(), buffers_.queue.end(), later);
      } else {
        buffers_.free_boxes.push_back(child);
      }
    }
  }
  if (!best) return {true, std::nullopt};
  const double area = objective == Objective::area ? best->primary : best->primary * best->time;
  return {true, AdmissibleAllocation{best->time, area, best->index}};
}

}  // namespace cosched::sched::detail
