#pragma once
// A bandwidth model of a KNL 7210-class node in flat mode, calibrated on published figures (see docs/profiler.md
// for each constant's source). One pass of a STREAM kernel over a footprint of F bytes with c cores and a fast
// fraction f takes
//   t(c, f) = f*F / min(c*b_core, B_mcdram) + (1-f)*F / min(c*b_core, B_ddr)
// so time falls ~1/c until the tier's bandwidth saturates, falls linearly with fast memory until the footprint
// fits (f = 1), then stays flat — the shape of Fig. 2 in Sun et al.
#include <cstdint>

namespace cosched::profiler {

struct KnlModelParameters {
  double mcdram_gbs = 450.0;   // sustained STREAM bandwidth of MCDRAM in flat mode, all cores
  double ddr_gbs = 90.0;       // sustained STREAM bandwidth of the six DDR4-2400 channels
  double per_core_gbs = 7.0;   // what one core can pull from either tier (concurrency-limited)
};

// Seconds for one pass over `footprint_bytes` with `cores` cores and fast fraction `fast_fraction` (capped to
// [0,1]). cores must be >= 1.
[[nodiscard]] double knl_model_time(const KnlModelParameters& parameters, std::uint64_t footprint_bytes,
                                    unsigned cores, double fast_fraction);

}  // namespace cosched::profiler
