#include "cosched/knowledge/speedup_models.hpp"

#include <fmt/format.h>

#include <cmath>

#include "knowledge/named_table.hpp"

namespace cosched::knowledge {

double SpeedupModel::seconds(std::span<const double> theta, double cores) const {
  const std::vector<double> x = terms(cores);
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += theta[i] * x[i];
  return log_space() ? std::exp(sum) : sum;
}

namespace {

std::string serial_fraction(double a, double b) {
  const double t1 = a + b;
  return t1 > 0.0 ? fmt::format("t1 {:.4g} s, serial fraction {:.2f} %", t1, 100.0 * a / t1)
                  : std::string("no time at one core");
}

class Amdahl final : public SpeedupModel {
 public:
  [[nodiscard]] std::string_view name() const override { return "amdahl"; }
  [[nodiscard]] bool log_space() const override { return false; }
  [[nodiscard]] std::vector<double> terms(double cores) const override { return {1.0, 1.0 / cores}; }
  [[nodiscard]] std::vector<bool> nonnegative() const override { return {true, true}; }
  [[nodiscard]] std::string describe(std::span<const double> theta) const override {
    return serial_fraction(theta[0], theta[1]);
  }
};

class AmdahlOverhead final : public SpeedupModel {
 public:
  [[nodiscard]] std::string_view name() const override { return "amdahl-overhead"; }
  [[nodiscard]] bool log_space() const override { return false; }
  [[nodiscard]] std::vector<double> terms(double cores) const override { return {1.0, 1.0 / cores, cores - 1.0}; }
  [[nodiscard]] std::vector<bool> nonnegative() const override { return {true, true, true}; }
  [[nodiscard]] std::string describe(std::span<const double> theta) const override {
    return fmt::format("{}, {:.3g} s per added core", serial_fraction(theta[0], theta[1]), theta[2]);
  }
};

class PowerLaw final : public SpeedupModel {
 public:
  [[nodiscard]] std::string_view name() const override { return "power-law"; }
  [[nodiscard]] bool log_space() const override { return true; }
  [[nodiscard]] std::vector<double> terms(double cores) const override { return {1.0, -std::log(cores)}; }
  [[nodiscard]] std::vector<bool> nonnegative() const override { return {false, true}; }
  [[nodiscard]] std::string describe(std::span<const double> theta) const override {
    return fmt::format("t1 {:.4g} s, alpha {:.3f}", std::exp(theta[0]), theta[1]);
  }
};

}  // namespace

const std::vector<const SpeedupModel*>& speedup_models() {
  static const Amdahl amdahl;
  static const AmdahlOverhead amdahl_overhead;
  static const PowerLaw power_law;
  static const std::vector<const SpeedupModel*> table{&amdahl, &amdahl_overhead, &power_law};
  return table;
}

std::vector<std::string> speedup_model_names() { return detail::names_of(speedup_models()); }

const SpeedupModel& find_speedup_model(std::string_view name) {
  return detail::find_named(speedup_models(), name, "speedup model");
}

}  // namespace cosched::knowledge
