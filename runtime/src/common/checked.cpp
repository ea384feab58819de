#include "cosched/common/checked.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cosched/common/error.hpp"

namespace cosched {

bool Range::contains(double value) const noexcept {
  if (std::isnan(value)) return false;
  const bool above_min = min_inclusive ? value >= min : value > min;
  const bool below_max = max_inclusive ? value <= max : value < max;
  return above_min && below_max;
}

std::string Range::describe() const {
  return fmt::format("{} {:g} and {} {:g}", min_inclusive ? ">=" : ">", min, max_inclusive ? "<=" : "<", max);
}

Range positive_up_to(double max) { return {0.0, max, false, true}; }
Range non_negative_up_to(double max) { return {0.0, max, true, true}; }
Range makespan_range() { return non_negative_up_to(2 * kMaxSeconds); }

double checked_number(double value, const Range& range, const std::string& where, std::string_view name) {
  if (std::isfinite(value) && range.contains(value)) return value;
  throw InputError(where, fmt::format("{} must be finite, {}, got {:g}", name, range.describe(), value));
}

std::int64_t checked_count(std::int64_t value, std::int64_t min, std::int64_t max, const std::string& where,
                           std::string_view name) {
  if (value >= min && value <= max) return value;
  throw InputError(where, fmt::format("{} must be an integer from {} to {}, got {}", name, min, max, value));
}

}  // namespace cosched
