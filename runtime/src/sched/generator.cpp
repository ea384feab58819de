#include "cosched/sched/generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "cosched/common/constants.hpp"
#include "cosched/common/error.hpp"
#include "cosched/sched/rows.hpp"

namespace cosched::sched {

namespace {

// A separable profile: t(p) = finish(fold_i term_i(p_i)), the fold taken left to right from its identity. Every
// term table is non-increasing in p (for Amdahl-product the term is p itself and `finish` divides by the fold),
// and +, *, max and the finishing steps are monotone under IEEE rounding, so t is non-increasing bit for bit: the
// monotone closure of footnote 1 leaves it unchanged and time_at agrees with fill_times exactly.
class SyntheticProfile final : public TimeProfile {
 public:
  SyntheticProfile(const AllocationSpace& space, const SyntheticParameters& parameters) : kind_(parameters.kind) {
    const std::size_t d = space.dimensions();
    assert(parameters.s.size() == d && parameters.alpha.size() == d);
    const bool amdahl = kind_.law == SpeedupLaw::amdahl;
    work_ = parameters.work;
    s0_ = amdahl ? parameters.s0 : 0.0;
    terms_.resize(d);
    for (std::size_t i = 0; i < d; ++i) {
      auto& term = terms_[i];
      term.resize(static_cast<std::size_t>(space.capacity(i)) + 1);
      for (std::size_t p = 0; p < term.size(); ++p) {
        const auto amount = static_cast<double>(p);
        if (amdahl) {
          term[p] = kind_.combination == Combination::product ? amount
                                                                : (p == 0 ? kInfinity : parameters.s[i] / amount);
        } else {
          const double scale = kind_.combination == Combination::product ? 1.0 : parameters.s[i];
          term[p] = p == 0 ? kInfinity : scale * std::pow(amount, -parameters.alpha[i]);
          // pow is not guaranteed monotone to the last bit; the running min makes the table monotone.
          if (p > 0) term[p] = std::min(term[p], term[p - 1]);
        }
      }
    }
  }

  void fill_times(const AllocationSpace& space, std::span<double> out) const override {
    // One instantiation per profile keeps the inner loop free of branches on the kind.
    const bool amdahl = kind_.law == SpeedupLaw::amdahl;
    switch (kind_.combination) {
      case Combination::sum:
        return amdahl ? fill<Combination::sum, true>(space, out) : fill<Combination::sum, false>(space, out);
      case Combination::product:
        return amdahl ? fill<Combination::product, true>(space, out) : fill<Combination::product, false>(space, out);
      case Combination::max:
        return amdahl ? fill<Combination::max, true>(space, out) : fill<Combination::max, false>(space, out);
    }
  }

  double time_at(const AllocationSpace& space, std::span<const int> alloc) const override {
    assert(space.contains(alloc));
    (void)space;
    double acc = identity();
    for (std::size_t i = 0; i < alloc.size(); ++i) acc = combine(acc, terms_[i][static_cast<std::size_t>(alloc[i])]);
    return finish(acc);
  }

 private:
  [[nodiscard]] double identity() const { return kind_.combination == Combination::product ? 1.0 : 0.0; }
  [[nodiscard]] double combine(double a, double b) const {
    switch (kind_.combination) {
      case Combination::sum: return combine_as<Combination::sum>(a, b);
      case Combination::product: return combine_as<Combination::product>(a, b);
      case Combination::max: return combine_as<Combination::max>(a, b);
    }
    return a;
  }
  [[nodiscard]] double finish(double acc) const {
    const bool amdahl = kind_.law == SpeedupLaw::amdahl;
    if (kind_.combination == Combination::product) {
      return amdahl ? finish_as<Combination::product, true>(acc) : finish_as<Combination::product, false>(acc);
    }
    return amdahl ? finish_as<Combination::sum, true>(acc) : finish_as<Combination::sum, false>(acc);
  }

  template <Combination C>
  static double combine_as(double a, double b) {
    if constexpr (C == Combination::sum) return a + b;
    if constexpr (C == Combination::product) return a * b;
    if constexpr (C == Combination::max) return std::max(a, b);
  }
  // Extended Amdahl: 1/speedup = s0 + fold (sum, max) or s0 + (1 - s0) / prod p_i; power law: 1/speedup = fold.
  template <Combination C, bool Amdahl>
  double finish_as(double acc) const {
    if constexpr (!Amdahl) {
      return work_ * acc;
    } else if constexpr (C == Combination::product) {
      return work_ * (s0_ + (1.0 - s0_) / acc);
    } else {
      return work_ * (s0_ + acc);
    }
  }

  template <Combination C, bool Amdahl>
  void fill(const AllocationSpace& space, std::span<double> out) const {
    assert(out.size() == space.size());
    const std::vector<double>& last = terms_.back();
    for (RowWalker row(space); row.valid(); row.advance()) {
      double outer = C == Combination::product ? 1.0 : 0.0;
      const auto coordinates = row.outer();
      for (std::size_t i = 0; i < coordinates.size(); ++i) {
        outer = combine_as<C>(outer, terms_[i][static_cast<std::size_t>(coordinates[i])]);
      }
      double* target = out.data() + row.base();
      for (std::size_t k = 0; k < last.size(); ++k) target[k] = finish_as<C, Amdahl>(combine_as<C>(outer, last[k]));
    }
  }

  ProfileKind kind_;
  double work_ = 1.0;
  double s0_ = 0.0;
  std::vector<std::vector<double>> terms_;
};

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

const std::array<ProfileKind, 6>& all_profiles() {
  static const std::array<ProfileKind, 6> kinds = {
      ProfileKind{SpeedupLaw::amdahl, Combination::sum},    ProfileKind{SpeedupLaw::amdahl, Combination::product},
      ProfileKind{SpeedupLaw::amdahl, Combination::max},    ProfileKind{SpeedupLaw::power_law, Combination::sum},
      ProfileKind{SpeedupLaw::power_law, Combination::product}, ProfileKind{SpeedupLaw::power_law, Combination::max}};
  return kinds;
}

std::string profile_name(ProfileKind kind) {
  const char* law = kind.law == SpeedupLaw::amdahl ? "amdahl" : "power";
  const char* combination = kind.combination == Combination::sum       ? "sum"
                            : kind.combination == Combination::product ? "product"
                                                                       : "max";
  return fmt::format("{}-{}", law, combination);
}

ProfileKind parse_profile(std::string_view name) {
  std::vector<std::string> names;
  for (const auto kind : all_profiles()) {
    if (profile_name(kind) == name) return kind;
    names.push_back(profile_name(kind));
  }
  throw UsageError(fmt::format("unknown profile \"{}\" (known: {})", name, fmt::join(names, ", ")));
}

std::shared_ptr<const TimeProfile> make_synthetic_profile(const AllocationSpace& space,
                                                          const SyntheticParameters& parameters) {
  return std::make_shared<SyntheticProfile>(space, parameters);
}

std::size_t Random::index(std::size_t count) {
  assert(count > 0);
  const auto n = static_cast<std::uint64_t>(count);
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n: drop the incomplete last block
  std::uint64_t x = engine_();
  while (x < reject_below) x = engine_();
  return static_cast<std::size_t>(x % n);
}

SyntheticParameters draw_parameters(Random& random, std::size_t resources, std::optional<ProfileKind> fixed_kind) {
  SyntheticParameters parameters;
  parameters.kind = fixed_kind ? *fixed_kind : all_profiles()[random.index(all_profiles().size())];
  parameters.work = random.uniform_above(0.0, 1.0);
  parameters.s0 = random.uniform_above(0.0, 0.2);
  parameters.s.resize(resources);
  double total = 0.0;
  for (double& s : parameters.s) {
    s = random.uniform_above(0.0, 1.0);
    total += s;
  }
  for (double& s : parameters.s) s = s * (1.0 - parameters.s0) / total;
  parameters.alpha.resize(resources);
  for (double& alpha : parameters.alpha) alpha = random.uniform_below(0.3, 1.0);
  return parameters;
}

std::uint64_t instance_seed(std::uint64_t seed, std::uint64_t instance) {
  return splitmix64(splitmix64(seed) ^ instance);
}

Instance generate_instance(const GeneratorConfig& config, std::uint64_t seed) {
  std::vector<Resource> resources;
  for (std::size_t i = 0; i < config.capacities.size(); ++i) {
    resources.push_back({fmt::format("r{}", i + 1), config.capacities[i]});
  }
  const AllocationSpace space(config.capacities);
  Random random(seed);
  std::vector<Task> tasks;
  tasks.reserve(config.tasks);
  for (std::size_t j = 0; j < config.tasks; ++j) {
    const SyntheticParameters parameters = draw_parameters(random, config.capacities.size(), config.profile);
    tasks.push_back({fmt::format("t{}", j), make_synthetic_profile(space, parameters)});
  }
  return Instance(std::move(resources), std::move(tasks));
}

}  // namespace cosched::sched
