#pragma once
// Synthetic moldable tasks of Sec. 5.4: the extended Amdahl and power-law speedup profiles in their sum, product
// and max flavours, with the paper's parameter distributions. Deterministic for a seed on every platform: the
// engine is std::mt19937_64 (fully specified by the standard) and every distribution is implemented here.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

enum class SpeedupLaw { amdahl, power_law };
enum class Combination { sum, product, max };

struct ProfileKind {
  SpeedupLaw law;
  Combination combination;
  friend bool operator==(const ProfileKind&, const ProfileKind&) = default;
};

// The six profiles in the paper's order: amdahl-sum, amdahl-product, amdahl-max, power-sum, power-product,
// power-max.
[[nodiscard]] const std::array<ProfileKind, 6>& all_profiles();
[[nodiscard]] std::string profile_name(ProfileKind kind);
// Throws UsageError listing the six names.
[[nodiscard]] ProfileKind parse_profile(std::string_view name);

struct SyntheticParameters {
  ProfileKind kind{};
  double work = 1.0;          // total work, the time at speedup 1
  double s0 = 0.0;            // sequential fraction (Amdahl)
  std::vector<double> s;      // per-resource parallel fractions, sum = 1 - s0
  std::vector<double> alpha;  // per-resource power-law exponents
};

// t(p) = work / speedup(p). p_i = 0 for any resource gives +inf (every profile needs every resource).
[[nodiscard]] std::shared_ptr<const TimeProfile> make_synthetic_profile(const AllocationSpace& space,
                                                                        const SyntheticParameters& parameters);

// std::mt19937_64 with explicitly implemented distributions.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }            // [0, 1)
  double uniform_above(double low, double high) { return low + (high - low) * (1.0 - uniform01()); }  // (low, high]
  double uniform_below(double low, double high) { return low + (high - low) * uniform01(); }  // [low, high)
  std::size_t index(std::size_t count);  // uniform in [0, count), unbiased

 private:
  std::mt19937_64 engine_;
};

// Draws one task's parameters (Sec. 5.4): profile uniform over the six (unless fixed), work in (0, 1],
// s0 in (0, 0.2], s_i in (0, 1] scaled so that sum s_i = 1 - s0, alpha_i in [0.3, 1).
[[nodiscard]] SyntheticParameters draw_parameters(Random& random, std::size_t resources,
                                                  std::optional<ProfileKind> fixed_kind);

struct GeneratorConfig {
  std::vector<int> capacities{64, 32, 16, 8};
  std::size_t tasks = 150;
  std::optional<ProfileKind> profile;  // all tasks of this profile; otherwise each task picks one of the six
};

// The seed of instance k of a run seeded with `seed` (SplitMix64 of both), so instance k does not depend on how
// many instances come before it.
[[nodiscard]] std::uint64_t instance_seed(std::uint64_t seed, std::uint64_t instance);

// Resources are named r1..rd, tasks t0..t{n-1}.
[[nodiscard]] Instance generate_instance(const GeneratorConfig& config, std::uint64_t seed);

}  // namespace cosched::sched
