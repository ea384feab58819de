#include "cosched/common/stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace cosched {

double median(std::vector<double> values) { return summarize(std::move(values)).median; }

SampleSummary summarize(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of an empty sample");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double middle = n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  return {middle, values.front(), values.back()};
}

double relative_half_range(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const SampleSummary summary = summarize(values);
  return summary.median > 0 ? (summary.max - summary.min) / (2.0 * summary.median) : 0.0;
}

}  // namespace cosched
