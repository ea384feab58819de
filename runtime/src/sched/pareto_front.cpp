#include "cosched/sched/pareto_front.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/sched/allocation.hpp"
#include "sched/front_search.hpp"

namespace cosched::sched {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// Lazy queries stop once they have read a quarter of the space's times: past that, one O(P) scan of the whole
// front costs about as much as the queries still to come (a time_at call of the search costs a few times a
// streamed time of the scan). So a front never costs much more than the scan it replaces.
constexpr std::size_t kLazyShare = 4;

bool by_time(const AdmissibleAllocation& entry, double time) { return entry.time < time; }

}  // namespace

TimeProfile::~TimeProfile() = default;

std::shared_ptr<const ParetoFront> TimeProfile::front(const AllocationSpace& space) const {
  std::shared_ptr<const ParetoFront> kept = front_.load(std::memory_order_acquire);
  if (kept && kept->capacities() == space.capacities()) return kept;
  auto fresh = std::make_shared<const ParetoFront>(space, *this);
  // The first space asked for is kept; a thread that loses the race uses the winner's front when it is the same.
  if (!kept && !front_.compare_exchange_strong(kept, fresh, std::memory_order_acq_rel)) {
    if (kept->capacities() == space.capacities()) return kept;
  }
  return fresh;
}

ParetoFront::ParetoFront(const AllocationSpace& space, const TimeProfile& profile)
    : space_(space), profile_(profile), fastest_time_(profile.time_at(space, space.capacities())), evaluations_(1) {}

std::optional<AdmissibleAllocation> ParetoFront::within(double limit) const {
  if (!(fastest_time_ <= limit) || fastest_time_ == infinity) return std::nullopt;
  const std::lock_guard lock(mutex_);
  if (auto known = cached_within(limit)) return known;
  if (!whole_ && evaluations_ > space_.size() / kLazyShare) materialise();
  if (whole_) return cached_within(limit);
  // The known entry nearest below the limit qualifies: it prunes the search from the start.
  std::optional<AdmissibleAllocation> incumbent;
  const auto after = std::upper_bound(known_.begin(), known_.end(), limit,
                                      [](double value, const AdmissibleAllocation& entry) { return value < entry.time; });
  if (after != known_.begin()) incumbent = *(after - 1);
  detail::FrontSearch search(space_, profile_, fastest_time_);
  std::optional<AdmissibleAllocation> found = search.least_area(limit, incumbent);
  evaluations_ += search.evaluations();
  remember(found, limit);
  return found;
}

std::optional<AdmissibleAllocation> ParetoFront::least_area() const { return within(infinity); }

std::optional<AdmissibleAllocation> ParetoFront::fastest() const { return within(fastest_time_); }

std::optional<AdmissibleAllocation> ParetoFront::shorter_than(const AdmissibleAllocation& entry) const {
  return within(std::nextafter(entry.time, -infinity));
}

std::vector<AdmissibleAllocation> ParetoFront::entries() const {
  const std::lock_guard lock(mutex_);
  if (!whole_) materialise();
  return known_;
}

std::optional<AdmissibleAllocation> ParetoFront::least_share() const {
  const std::lock_guard lock(mutex_);
  if (!least_share_) {
    detail::FrontSearch search(space_, profile_, fastest_time_);
    least_share_ = search.least_share();
    evaluations_ += search.evaluations();
  }
  return *least_share_;
}

std::size_t ParetoFront::evaluations() const {
  const std::lock_guard lock(mutex_);
  return evaluations_;
}

// The answer when every front entry between some known entry at or below `limit` and `limit` is known: the last
// known entry at or below it. Requires limit >= fastest_time_ (some entry qualifies).
std::optional<AdmissibleAllocation> ParetoFront::cached_within(double limit) const {
  if (!whole_) {
    const auto interval = std::upper_bound(complete_.begin(), complete_.end(), limit,
                                           [](double value, const Interval& range) { return value < range.low; });
    if (interval == complete_.begin() || (interval - 1)->high < limit) return std::nullopt;
  }
  const auto after = std::upper_bound(known_.begin(), known_.end(), limit,
                                      [](double value, const AdmissibleAllocation& entry) { return value < entry.time; });
  return after == known_.begin() ? std::nullopt : std::optional(*(after - 1));
}

// `entry` is the last front entry with time <= limit: no entry lies in (entry.time, limit].
void ParetoFront::remember(const std::optional<AdmissibleAllocation>& entry, double limit) const {
  if (!entry) return;
  const auto position = std::lower_bound(known_.begin(), known_.end(), entry->time, by_time);
  if (position == known_.end() || position->time != entry->time) known_.insert(position, *entry);
  // Insert [entry.time, limit] and merge it with the intervals it overlaps or touches (no double lies between).
  Interval merged{entry->time, limit};
  auto first = std::lower_bound(complete_.begin(), complete_.end(), merged.low, [](const Interval& range, double low) {
    return std::nextafter(range.high, infinity) < low;
  });
  auto last = first;
  while (last != complete_.end() && last->low <= std::nextafter(merged.high, infinity)) {
    merged.low = std::min(merged.low, last->low);
    merged.high = std::max(merged.high, last->high);
    ++last;
  }
  complete_.insert(complete_.erase(first, last), merged);
}

void ParetoFront::materialise() const {
  AdmissibleScanner scanner;
  scanner.scan(space_, profile_, known_);
  evaluations_ += space_.size();
  whole_ = true;
  complete_.assign(1, {-infinity, infinity});
}

}  // namespace cosched::sched
