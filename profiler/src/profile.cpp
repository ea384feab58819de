#include "cosched/profiler/profile.hpp"

#include <algorithm>
#include <cassert>

namespace cosched::profiler {

double fast_bytes(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes) {
  return std::min(static_cast<double>(chunks) * chunk_bytes, static_cast<double>(footprint_bytes));
}

double fast_fraction(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes) {
  if (footprint_bytes == 0) return 1.0;
  return fast_bytes(footprint_bytes, chunks, chunk_bytes) / static_cast<double>(footprint_bytes);
}

TimeSummary summarize_times(std::vector<double> times) {
  assert(!times.empty());
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  const double median = n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
  return {median, times.front(), times.back()};
}

}  // namespace cosched::profiler
