#pragma once
// Standard normal draws that are the same on every platform for a seed (std::normal_distribution is not: its
// algorithm is the library's choice), and the quantile of a sample — for the makespan distributions and for the
// simulated study's noise.
#include <cstdint>
#include <vector>

#include "cosched/sched/generator.hpp"

namespace cosched::knowledge {

class NormalDraws {
 public:
  explicit NormalDraws(std::uint64_t seed) : random_(seed) {}
  // Box-Muller on sched::Random's uniform draws; the second value of each pair is kept for the next call.
  double next();
  // A uniform draw in [0, 1) from the same stream.
  double uniform() { return random_.uniform01(); }

 private:
  sched::Random random_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// The q-quantile (q in [0, 1]) of a non-empty sample, interpolating linearly between order statistics (Hyndman
// and Fan's type 7, numpy's default). Throws std::invalid_argument on an empty sample.
[[nodiscard]] double sample_quantile(std::vector<double> values, double q);

}  // namespace cosched::knowledge
