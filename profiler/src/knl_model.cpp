#include "cosched/profiler/knl_model.hpp"

#include <algorithm>
#include <cassert>

namespace cosched::profiler {

double knl_model_time(const KnlModelParameters& parameters, std::uint64_t footprint_bytes, unsigned cores,
                      double fast_fraction) {
  assert(cores >= 1);
  const double f = std::clamp(fast_fraction, 0.0, 1.0);
  const double bytes = static_cast<double>(footprint_bytes);
  const double reachable = static_cast<double>(cores) * parameters.per_core_gbs;
  const double fast_gbs = std::min(reachable, parameters.mcdram_gbs);
  const double slow_gbs = std::min(reachable, parameters.ddr_gbs);
  // The fast and slow parts are streamed one after the other by all the task's cores (each thread's share of
  // every array is split the same way), so their times add: f*F/fast + (1-f)*F/slow. Written as "all slow minus
  // the saving of the fast part" so that rounding can never make more fast memory look slower.
  const double all_slow_s = bytes / slow_gbs / 1e9;
  const double saving_per_fraction_s = bytes * (1.0 / slow_gbs - 1.0 / fast_gbs) / 1e9;
  return all_slow_s - f * saving_per_fraction_s;
}

}  // namespace cosched::profiler
