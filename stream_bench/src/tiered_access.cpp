#include "tiered_access.hpp"

#include <algorithm>
#include <cmath>

namespace cosched::stream::detail {

namespace {

// Reads through a may_alias type: the slow parts hold doubles or integers, and a sweep reads them all.
using AnyWord = std::uint64_t __attribute__((may_alias));

std::uint64_t xor_words(const double* words, std::size_t n) noexcept {
  const auto* p = reinterpret_cast<const AnyWord*>(words);
  std::uint64_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc ^= p[i];
  return acc;
}

double traffic_per_footprint_byte(const KernelShape& shape) noexcept {
  const auto footprint = static_cast<double>(shape.footprint_bytes());
  return footprint > 0 ? static_cast<double>(shape.bytes_per_rep) / footprint : 1.0;
}

}  // namespace

SlowTierEmulation::SlowTierEmulation(const WorkContext& context)
    : extra_(slow_passes_for(1.0 + (context.slow_pass_factor - 1.0) * traffic_per_footprint_byte(context.shape))),
      threads_(context.threads) {}

void SlowTierEmulation::charge(unsigned thread, const ArraySpanList& arrays, double& discarded) const noexcept {
  if (extra_.full_passes <= 1 && extra_.last_pass_fraction == 0.0) return;
  std::uint64_t acc = 0;
  for (const platform::TieredSpan& span : arrays) {
    if (span.slow_count == 0) continue;
    const RowRange part = row_range(span.slow_count, threads_, thread);
    const double* first = span.slow + part.begin;
    const std::size_t n = part.end - part.begin;
    for (std::size_t pass = 1; pass < extra_.full_passes; ++pass) acc ^= xor_words(first, n);
    const auto prefix = static_cast<std::size_t>(std::llround(extra_.last_pass_fraction * static_cast<double>(n)));
    acc ^= xor_words(first, std::min(prefix, n));
  }
  discarded += static_cast<double>(acc & 1U);
}

}  // namespace cosched::stream::detail
