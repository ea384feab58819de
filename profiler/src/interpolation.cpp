#include "cosched/profiler/interpolation.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <map>

namespace cosched::profiler {
namespace {

// Measured times of one core count as a function of fast bytes: sorted, duplicate x averaged.
class FastAxisCurve {
 public:
  void add(double x, double t) { sums_[x].push_back(t); }

  void finalize() {
    for (const auto& [x, times] : sums_) {
      double total = 0.0;
      for (double t : times) total += t;
      xs_.push_back(x);
      ts_.push_back(total / static_cast<double>(times.size()));
    }
  }

  [[nodiscard]] double at(double x) const {
    assert(!xs_.empty());
    if (xs_.size() == 1 || x >= xs_.back()) return x >= xs_.back() ? ts_.back() : ts_.front();
    if (x <= xs_.front()) {
      const double slope = (ts_[1] - ts_[0]) / (xs_[1] - xs_[0]);
      // Only a benefit from fast memory is extrapolated; a curve that rises with fast memory (noise) stays flat.
      return slope < 0.0 ? ts_[0] + slope * (x - xs_[0]) : ts_[0];
    }
    const auto upper = std::upper_bound(xs_.begin(), xs_.end(), x);
    const std::size_t i = static_cast<std::size_t>(std::distance(xs_.begin(), upper));
    const double w = (x - xs_[i - 1]) / (xs_[i] - xs_[i - 1]);
    return ts_[i - 1] + w * (ts_[i] - ts_[i - 1]);
  }

 private:
  std::map<double, std::vector<double>> sums_;
  std::vector<double> xs_;
  std::vector<double> ts_;
};

double interpolate_cores(const std::map<unsigned, FastAxisCurve>& curves, unsigned c, double x) {
  const auto exact = curves.find(c);
  if (exact != curves.end()) return exact->second.at(x);
  const auto upper = curves.upper_bound(c);
  if (upper == curves.begin()) {
    // Fewer cores than any measured: assume the speedup is perfect down there (time ~ 1/cores).
    return upper->second.at(x) * static_cast<double>(upper->first) / static_cast<double>(c);
  }
  const auto lower = std::prev(upper);
  if (upper == curves.end()) return lower->second.at(x);
  const double inv_c = 1.0 / c, inv_a = 1.0 / lower->first, inv_b = 1.0 / upper->first;
  const double w = (inv_a - inv_c) / (inv_a - inv_b);
  return lower->second.at(x) + w * (upper->second.at(x) - lower->second.at(x));
}

}  // namespace

std::vector<std::vector<double>> fill_monotone_grid(const std::vector<TimeSample>& samples, unsigned max_cores,
                                                    const std::vector<double>& fast_axis) {
  assert(!samples.empty());
  assert(std::is_sorted(fast_axis.begin(), fast_axis.end()));
  std::map<unsigned, FastAxisCurve> curves;
  for (const auto& s : samples) {
    assert(s.cores >= 1 && s.time_s > 0.0);
    curves[s.cores].add(s.fast_bytes, s.time_s);
  }
  for (auto& [cores, curve] : curves) curve.finalize();

  std::vector<std::vector<double>> grid(max_cores, std::vector<double>(fast_axis.size()));
  for (unsigned c = 1; c <= max_cores; ++c) {
    for (std::size_t k = 0; k < fast_axis.size(); ++k) {
      // Every step is a convex combination of measured times or scales one up, so t stays positive.
      double t = interpolate_cores(curves, c, fast_axis[k]);
      assert(t > 0.0);
      if (c > 1) t = std::min(t, grid[c - 2][k]);
      if (k > 0) t = std::min(t, grid[c - 1][k - 1]);
      grid[c - 1][k] = t;
    }
  }
  return grid;
}

}  // namespace cosched::profiler
