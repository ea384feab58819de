#pragma once
// The speedup laws a task's time over cores is fitted with, each behind one small interface and registered by
// name. Every law here is linear in its parameters once written in the right space, so it is fitted exactly
// (bounded weighted least squares, speedup_fit.hpp) and its parameter covariance is exact for that fit:
//   amdahl            t(p) = a + b / p                      a = t1 s, b = t1 (1 - s)       (seconds)
//   amdahl-overhead   t(p) = a + b / p + c (p - 1)          + a per-core overhead c        (seconds)
//   power-law         ln t(p) = ln t1 - alpha ln p          t1 p^-alpha                    (log seconds)
// The first and last are seed 003's Sec. 5.4 laws (cosched/sched/generator.hpp) on one resource; the overhead
// term lets a curve turn back up past some core count (the fitted curve is then closed: speedup_fit.hpp).
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::knowledge {

class SpeedupModel {
 public:
  virtual ~SpeedupModel() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // true: ln t(p) = sum_i theta_i x_i(p); false: t(p) = sum_i theta_i x_i(p).
  [[nodiscard]] virtual bool log_space() const = 0;
  // x(p), one term per parameter.
  [[nodiscard]] virtual std::vector<double> terms(double cores) const = 0;
  // Per parameter: true when it must be >= 0 (the law's physical range), false when it is free.
  [[nodiscard]] virtual std::vector<bool> nonnegative() const = 0;
  // The fitted parameters in the law's own words ("t1 12.3 s, serial fraction 4.1 %").
  [[nodiscard]] virtual std::string describe(std::span<const double> theta) const = 0;

  [[nodiscard]] std::size_t parameter_count() const { return nonnegative().size(); }
  // The model's time at `cores` (seconds) for parameters theta; 0 or below means the parameters do not describe
  // a time there.
  [[nodiscard]] double seconds(std::span<const double> theta, double cores) const;
};

// Every registered law, in the table's order.
[[nodiscard]] const std::vector<const SpeedupModel*>& speedup_models();
[[nodiscard]] std::vector<std::string> speedup_model_names();
// Throws UsageError listing the known names.
[[nodiscard]] const SpeedupModel& find_speedup_model(std::string_view name);

}  // namespace cosched::knowledge
