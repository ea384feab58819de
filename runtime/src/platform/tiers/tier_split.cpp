// How a fast fraction becomes a count of fast elements: shared by every backend so that all of them split an
// array the same way and the fast/slow boundary always falls on a page boundary (mbind works on whole pages).
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
  // long double keeps ceil(f * B) exact for any array that fits in memory.
  const auto wanted = static_cast<std::size_t>(
      std::ceil(static_cast<long double>(fast_fraction) * static_cast<long double>(total_bytes)));
  const std::size_t page = page_bytes();
  const std::size_t rounded = (wanted + page - 1) / page * page;
  const std::size_t fast_bytes = rounded < total_bytes ? rounded : total_bytes;
  // A page holds a whole number of doubles, so fast_bytes is a multiple of sizeof(double) unless capped at the
  // array, which is one too.
  return fast_bytes / sizeof(double);
}

}  // namespace cosched::platform
