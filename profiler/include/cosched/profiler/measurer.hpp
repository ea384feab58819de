#pragma once
// The seam between the sweep and whatever produces times: a PointMeasurer times one point (real stream kernels,
// or the KNL bandwidth model). The sweep loop, CSV, resume and progress are shared by all of them.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/config/platform.hpp"
#include "cosched/profiler/profile.hpp"

namespace cosched::profiler {

struct Measurement {
  std::vector<double> times_s;   // one entry per timed repetition
  double overhead_free_s = 0.0;  // time the kernels themselves ran (timed reps + warm-ups), for overhead accounting
  // How the point's arrays were obtained: a new allocation with its first touch, a split moved in place, or as
  // the previous point left them. Only the stream measurer sets these.
  bool allocated = false;
  bool resplit = false;
};

class PointMeasurer {
 public:
  virtual ~PointMeasurer() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Throws UsageError when this measurer cannot run `kernel`.
  virtual void check_kernel(const std::string& kernel) const = 0;
  [[nodiscard]] virtual Measurement measure(const ProfilePoint& point) = 0;
  // Called once after the last point of a sweep (also an interrupted one): a measurer that keeps state across
  // points (the stream measurer's session) finishes it here and throws RuntimeFailure if that finds a problem.
  virtual void finish() {}
  // Context for the sidecar: tier backend, emulation ratio, host topology summary, ...
  [[nodiscard]] virtual nlohmann::json describe() const = 0;
};

struct MeasurerOptions {
  config::PlatformConfig platform;
  unsigned reps = 5;
  unsigned warmup = 1;
};

// "knl-model" (always) and "stream" (when built with the stream library). Throws UsageError for an unknown name
// or ResourceError when the measurer cannot work here.
[[nodiscard]] std::unique_ptr<PointMeasurer> make_measurer(std::string_view name, const MeasurerOptions& options);
[[nodiscard]] std::vector<std::string> measurer_names();

}  // namespace cosched::profiler
