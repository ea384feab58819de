// How a fast fraction becomes a count of fast elements: shared by every backend so that all of them split an
// array the same way and the fast/slow boundary always falls on a page boundary (mbind works on whole pages),
// never placing more than the fraction asks.
#include <unistd.h>

#include <cmath>
#include <string>

#include "cosched/common/error.hpp"
#include "cosched/platform/tier_backends.hpp"

namespace cosched::platform {

std::size_t page_bytes() {
  static const std::size_t bytes = [] {
    const long value = sysconf(_SC_PAGESIZE);
    if (value <= 0) throw PlatformError("sysconf(_SC_PAGESIZE)", "no page size", errno);
    return static_cast<std::size_t>(value);
  }();
  return bytes;
}

std::size_t fast_element_count(std::size_t count, double fast_fraction) {
  if (!(fast_fraction >= 0.0 && fast_fraction <= 1.0)) {  // also rejects NaN
    throw UsageError("fast fraction must be within [0, 1], got " + std::to_string(fast_fraction));
  }
  const std::size_t total_bytes = count * sizeof(double);
  // long double keeps f * B exact enough for any array that fits in memory.
  const long double wanted = static_cast<long double>(fast_fraction) * static_cast<long double>(total_bytes);
  // The whole array when f covers it (a partial last page included); else whole pages, rounded DOWN: a share is
  // never more than f of the array, so the shares of a task's arrays never add up to more than the fast bytes it
  // was granted (rounded up, three arrays of a task granted the whole tier asked for three pages more: issue #27).
  if (wanted >= static_cast<long double>(total_bytes)) return count;
  const std::size_t page = page_bytes();
  const auto whole_pages = static_cast<std::size_t>(std::floor(wanted / static_cast<long double>(page)));
  // A page holds a whole number of doubles, so the byte count divides exactly.
  return whole_pages * page / sizeof(double);
}

}  // namespace cosched::platform
