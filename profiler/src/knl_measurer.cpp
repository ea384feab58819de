#include "knl_measurer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "cosched/common/error.hpp"

namespace cosched::profiler {
namespace {

// The stream_bench kernels (issue 2). The model counts bytes as STREAM does — every array streamed once per
// pass — so a pass moves exactly the footprint whatever the kernel; kernels differ only through their footprint.
constexpr std::array<std::string_view, 6> kModelledKernels = {"write", "ddot", "copy", "scale", "add", "triad"};

class KnlModelMeasurer final : public PointMeasurer {
 public:
  KnlModelMeasurer(const MeasurerOptions& options, KnlModelParameters parameters)
      : options_(options), parameters_(parameters) {}

  std::string_view name() const override { return "knl-model"; }

  void check_kernel(const std::string& kernel) const override {
    if (std::find(kModelledKernels.begin(), kModelledKernels.end(), kernel) == kModelledKernels.end()) {
      throw UsageError(fmt::format("the KNL model has no kernel '{}' (known: {})", kernel,
                                   fmt::join(kModelledKernels, ", ")));
    }
  }

  Measurement measure(const ProfilePoint& point) override {
    const double f = fast_fraction(point.footprint_bytes, point.chunks, options_.platform.chunk_bytes());
    const double t = knl_model_time(parameters_, point.footprint_bytes, point.cores, f);
    Measurement m;
    m.times_s.assign(options_.reps, t);
    m.overhead_free_s = t * options_.reps;
    return m;
  }

  nlohmann::json describe() const override {
    return {{"measurer", "knl-model"},
            {"tier_backend", "model"},
            {"model",
             {{"name", "knl"},
              {"mcdram_gbs", parameters_.mcdram_gbs},
              {"ddr_gbs", parameters_.ddr_gbs},
              {"per_core_gbs", parameters_.per_core_gbs}}},
            {"topology",
             {{"source", "model"},
              {"cores", options_.platform.cores},
              {"fast_tier_bytes", options_.platform.fast_capacity_bytes}}}};
  }

 private:
  MeasurerOptions options_;
  KnlModelParameters parameters_;
};

}  // namespace

std::unique_ptr<PointMeasurer> make_knl_model_measurer(const MeasurerOptions& options,
                                                       KnlModelParameters parameters) {
  return std::make_unique<KnlModelMeasurer>(options, parameters);
}

}  // namespace cosched::profiler
