#include "cosched/sched/pareto_front.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cosched/common/constants.hpp"
#include "cosched/sched/allocation.hpp"
#include "sched/front_search.hpp"

namespace cosched::sched {

namespace {

// The searches of a front read at most this many times before the front is scanned whole (AdmissibleScanner, P
// times): a time read by the search costs a few times one streamed by the scan, so past this share of P the
// queries still to come would likely cost more than the scan. A front never costs more than P/kLazyShare + P reads.
// (Measured on the synthetic instances: 4 is better than 16 for d = 2, where RA's queries on TF's 321 allocations
// then finish before the budget runs out, and the same for d = 4.)
constexpr std::size_t kLazyShare = 4;
// Spaces this small are scanned at the first query: a search would give up before it paid off (TF's 65
// allocations per task at d = 4).
constexpr std::size_t kScanUpTo = 128;
std::size_t lazy_budget(std::size_t size) { return size <= kScanUpTo ? 0 : size / kLazyShare; }

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
  if (!(fastest_time_ <= limit) || fastest_time_ == kInfinity) return std::nullopt;
  const std::lock_guard lock(mutex_);
  if (auto known = cached_within(limit)) return known;
  const std::size_t budget = lazy_budget(space_.size());
  if (!whole_ && evaluations_ < budget) {
    // The known entry nearest below the limit qualifies: it prunes the search from the start.
    std::optional<AdmissibleAllocation> incumbent;
    const auto after = std::upper_bound(known_.begin(), known_.end(), limit, [](double value, const auto& entry) {
      return value < entry.time;
    });
    if (after != known_.begin()) incumbent = *(after - 1);
    detail::FrontSearch search(space_, profile_, fastest_time_, budget - evaluations_);
    const detail::FrontSearch::Outcome outcome = search.least_area(limit, incumbent);
    evaluations_ += search.evaluations();
    if (outcome.finished) {
      remember(outcome.allocation, limit);
      return outcome.allocation;
    }
  }
  if (!whole_) materialise();
  return cached_within(limit);
}

std::optional<AdmissibleAllocation> ParetoFront::least_area() const { return within(kInfinity); }

std::optional<AdmissibleAllocation> ParetoFront::fastest() const { return within(fastest_time_); }

std::optional<AdmissibleAllocation> ParetoFront::shorter_than(const AdmissibleAllocation& entry) const {
  return within(std::nextafter(entry.time, -kInfinity));
}

std::vector<AdmissibleAllocation> ParetoFront::entries() const {
  const std::lock_guard lock(mutex_);
  if (!whole_) materialise();
  return known_;
}

std::optional<AdmissibleAllocation> ParetoFront::least_share() const {
  const std::lock_guard lock(mutex_);
  if (!least_share_) {
    // One query per task, and cheap: it follows the boundary of the finite times down to their least share.
    detail::FrontSearch search(space_, profile_, fastest_time_, std::numeric_limits<std::size_t>::max());
    least_share_ = search.least_share().allocation;
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
    return std::nextafter(range.high, kInfinity) < low;
  });
  auto last = first;
  while (last != complete_.end() && last->low <= std::nextafter(merged.high, kInfinity)) {
    merged.low = std::min(merged.low, last->low);
    merged.high = std::max(merged.high, last->high);
    ++last;
  }
  complete_.insert(complete_.erase(first, last), merged);
}

void ParetoFront::materialise() const {
  // A small space's scanner is kept per thread, so its buffers and per-space weights serve every front of the
  // thread (TF's and d = 2's fronts are scanned by the hundred); a large one's buffers (up to 2^24 doubles each)
  // are not held on to.
  constexpr std::size_t kKeptScannerSize = std::size_t{1} << 16;
  thread_local AdmissibleScanner kept;
  AdmissibleScanner local;
  AdmissibleScanner& scanner = space_.size() <= kKeptScannerSize ? kept : local;
  scanner.scan(space_, profile_, known_);
  evaluations_ += space_.size();
  whole_ = true;
  complete_.assign(1, {-kInfinity, kInfinity});
}

}  // namespace cosched::sched
