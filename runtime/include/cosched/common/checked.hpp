#pragma once
// Numbers are validated where they are parsed: finite, within the range the rest of the code relies on (never a
// NaN that sails through every comparison, never an infinity that turns a schedule's start into inf). One helper,
// so every parser says it the same way: `inst.json: task "t3": times[17] must be finite and > 0, got nan`.
#include <cmath>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace cosched {

struct Range {
  double min = 0.0;
  double max = 0.0;
  bool min_inclusive = true;
  bool max_inclusive = true;
  [[nodiscard]] bool contains(double value) const noexcept;  // false for NaN
  [[nodiscard]] std::string describe() const;                // "> 0 and <= 1e+09"
};

// Common ranges, with limits far beyond any real node yet small enough that sums and products stay finite.
inline constexpr double kMaxSeconds = 1e9;  // ~31 years: any time, duration or timeout
[[nodiscard]] Range positive_up_to(double max);        // (0, max]
[[nodiscard]] Range non_negative_up_to(double max);    // [0, max]
[[nodiscard]] Range makespan_range();                  // [0, 2 kMaxSeconds]: a start plus a duration

// `value` when it is finite and in `range`; else throws InputError(where, "<name> must be finite and <range>,
// got <value>").
double checked_number(double value, const Range& range, const std::string& where, std::string_view name);
// The same with the place named by `where()`, called only when the check fails: checking each of a million jobs
// then formats no message.
template <std::invocable Where>
double checked_number(double value, const Range& range, Where&& where, std::string_view name) {
  if (std::isfinite(value) && range.contains(value)) return value;
  return checked_number(value, range, std::string(std::forward<Where>(where)()), name);
}

// An integer count in [min, max], else InputError as above.
std::int64_t checked_count(std::int64_t value, std::int64_t min, std::int64_t max, const std::string& where,
                           std::string_view name);

}  // namespace cosched
