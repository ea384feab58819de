// The KNL model has the shape of Fig. 2 in Sun et al.: ~1/cores until bandwidth saturates, linear in fast memory
// until the footprint fits, flat after.
#include "cosched/profiler/knl_model.hpp"

#include <gtest/gtest.h>

#include "cosched/common/error.hpp"
#include "cosched/config/platform.hpp"
#include "cosched/profiler/measurer.hpp"

namespace cosched::profiler {
namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;

TEST(KnlModel, TimeNeverGrowsWithCoresOrChunks) {
  const KnlModelParameters knl;
  const auto platform = config::knl_7210_flat_platform();
  for (std::uint64_t footprint : {kGiB / 2, 8 * kGiB, 16 * kGiB, 40 * kGiB}) {
    for (unsigned c = 1; c <= 64; ++c) {
      for (unsigned k = 0; k <= 20; ++k) {
        const double t = knl_model_time(knl, footprint, c, fast_fraction(footprint, k, platform.chunk_bytes()));
        ASSERT_GT(t, 0.0);
        if (c > 1) {
          ASSERT_LE(t, knl_model_time(knl, footprint, c - 1, fast_fraction(footprint, k, platform.chunk_bytes())));
        }
        if (k > 0) {
          ASSERT_LE(t, knl_model_time(knl, footprint, c, fast_fraction(footprint, k - 1, platform.chunk_bytes())));
        }
      }
    }
  }
}

TEST(KnlModel, FlatOnceTheFootprintFits) {
  const KnlModelParameters knl;
  const auto platform = config::knl_7210_flat_platform();
  const std::uint64_t footprint = 16 * kGiB * 6 / 10;  // 60 % of MCDRAM: fits from chunk 12 on
  const double fitted = knl_model_time(knl, footprint, 32, fast_fraction(footprint, 12, platform.chunk_bytes()));
  EXPECT_LT(fitted, knl_model_time(knl, footprint, 32, fast_fraction(footprint, 11, platform.chunk_bytes())));
  for (unsigned k = 13; k <= 20; ++k) {
    EXPECT_EQ(knl_model_time(knl, footprint, 32, fast_fraction(footprint, k, platform.chunk_bytes())), fitted);
  }
}

TEST(KnlModel, LinearInFastMemoryBeforeItFits) {
  const KnlModelParameters knl;
  const std::uint64_t footprint = 16 * kGiB;
  const double t0 = knl_model_time(knl, footprint, 64, 0.0);
  const double t1 = knl_model_time(knl, footprint, 64, 1.0);
  for (double f : {0.25, 0.5, 0.75}) {
    EXPECT_NEAR(knl_model_time(knl, footprint, 64, f), t0 + f * (t1 - t0), 1e-9 * t0);
  }
  // With all 64 cores the tiers' bandwidth ratio shows: 64 x 7 = 448 GB/s from MCDRAM (just below its 450)
  // against DDR's saturated 90 GB/s — the paper's "about 5x".
  EXPECT_NEAR(t0 / t1, 64 * knl.per_core_gbs / knl.ddr_gbs, 1e-9);
}

TEST(KnlModel, InverseInCoresUntilBandwidthSaturates) {
  const KnlModelParameters knl;
  const std::uint64_t footprint = 8 * kGiB;
  // All in MCDRAM: 64 cores x 7 GB/s stays below 450 GB/s, so the speedup is perfect to 64 (Fig. 2).
  EXPECT_NEAR(knl_model_time(knl, footprint, 1, 1.0) / knl_model_time(knl, footprint, 64, 1.0), 64.0, 1e-9);
  // All in DDR: saturates at 90 / 7 ~ 13 cores; more cores do not help.
  EXPECT_NEAR(knl_model_time(knl, footprint, 1, 0.0) / knl_model_time(knl, footprint, 8, 0.0), 8.0, 1e-9);
  const double saturated = knl_model_time(knl, footprint, 13, 0.0);
  EXPECT_DOUBLE_EQ(knl_model_time(knl, footprint, 64, 0.0), saturated);
  EXPECT_DOUBLE_EQ(knl_model_time(knl, footprint, 20, 0.0), saturated);
  EXPECT_NEAR(saturated, static_cast<double>(footprint) / (knl.ddr_gbs * 1e9), 1e-12);
}

TEST(KnlModel, MeasurerUsesThePlatformChunksAndRejectsUnknownKernels) {
  MeasurerOptions options{config::knl_7210_flat_platform(), 3, 0};
  const auto measurer = make_measurer("knl-model", options);
  EXPECT_NO_THROW(measurer->check_kernel("ddot"));
  EXPECT_THROW(measurer->check_kernel("stencil"), UsageError);
  const std::uint64_t footprint = 16 * kGiB;
  const auto m = measurer->measure({"triad", footprint, 64, 10});
  ASSERT_EQ(m.times_s.size(), 3U);
  EXPECT_DOUBLE_EQ(m.times_s[0], knl_model_time({}, footprint, 64, 0.5));
  EXPECT_EQ(measurer->describe().at("measurer"), "knl-model");
}

}  // namespace
}  // namespace cosched::profiler
