#include "cosched/knowledge/random.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cosched::knowledge {

double NormalDraws::next() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - random_.uniform01();  // (0, 1]: the log is finite
  const double u2 = random_.uniform01();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  spare_ = radius * std::sin(2.0 * std::numbers::pi * u2);
  has_spare_ = true;
  return radius * std::cos(2.0 * std::numbers::pi * u2);
}

double sample_quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("sample_quantile of an empty sample");
  std::sort(values.begin(), values.end());
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto low = static_cast<std::size_t>(std::floor(position));
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (position - static_cast<double>(low)) * (values[high] - values[low]);
}

}  // namespace cosched::knowledge
