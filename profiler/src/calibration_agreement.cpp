// Two calibrations of one node compared pool capacity by pool capacity (calibration.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "cosched/common/error.hpp"
#include "cosched/profiler/calibration.hpp"

namespace cosched::profiler {

bool CalibrationAgreement::agrees() const {
  return std::all_of(compared.begin(), compared.end(),
                     [&](const CapacityComparison& c) { return std::fabs(c.relative_change()) <= tolerance; });
}

CalibrationAgreement compare_calibrations(const config::NodeModel& previous, const config::NodeModel& current,
                                          double tolerance) {
  if (!(tolerance > 0.0 && tolerance <= 10.0)) {
    throw UsageError(fmt::format("the calibration tolerance must be > 0 and at most 10 (a relative change), got {}",
                                 tolerance));
  }
  CalibrationAgreement agreement;
  agreement.tolerance = tolerance;
  for (const config::MemoryPool& pool : current.pools) {
    const auto before = std::find_if(previous.pools.begin(), previous.pools.end(),
                                     [&](const config::MemoryPool& p) { return p.name == pool.name; });
    if (before == previous.pools.end()) {
      agreement.not_compared.push_back(fmt::format("pool {} is new", pool.name));
      continue;
    }
    const config::BandwidthCurve& old_curve = before->bandwidth;
    for (std::size_t k = 0; k < pool.bandwidth.cores.size(); ++k) {
      const unsigned cores = pool.bandwidth.cores[k];
      const auto at = std::find(old_curve.cores.begin(), old_curve.cores.end(), cores);
      if (at == old_curve.cores.end()) {
        agreement.not_compared.push_back(fmt::format("pool {}: {} cores measured only now", pool.name, cores));
        continue;
      }
      agreement.compared.push_back({pool.name, cores, old_curve.gbs[static_cast<std::size_t>(at - old_curve.cores.begin())],
                                    pool.bandwidth.gbs[k]});
    }
  }
  for (const config::MemoryPool& pool : previous.pools) {
    const bool kept = std::any_of(current.pools.begin(), current.pools.end(),
                                  [&](const config::MemoryPool& p) { return p.name == pool.name; });
    if (!kept) agreement.not_compared.push_back(fmt::format("pool {} is gone", pool.name));
  }
  return agreement;
}

std::string agreement_table(const CalibrationAgreement& agreement, const std::string& previous) {
  std::string text = fmt::format("compared with {} (tolerance ±{:.0f} %):\n", previous, agreement.tolerance * 100);
  for (const CapacityComparison& c : agreement.compared) {
    const bool within = std::fabs(c.relative_change()) <= agreement.tolerance;
    text += fmt::format("  {:<10} {:>5} cores  {:>9.2f} -> {:>9.2f} GB/s  {:+6.1f} %{}\n", c.pool, c.cores,
                        c.previous_gbs, c.current_gbs, c.relative_change() * 100, within ? "" : "  DISAGREES");
  }
  for (const std::string& what : agreement.not_compared) text += fmt::format("  not compared: {}\n", what);
  if (agreement.compared.empty()) {
    text += "no pool capacity in common: the two calibrations cannot be compared\n";
  } else if (agreement.agrees()) {
    text += fmt::format("every pool capacity agrees with {} within ±{:.0f} %\n", previous, agreement.tolerance * 100);
  } else {
    text += fmt::format("the calibrations DISAGREE beyond ±{:.0f} %: the node was in another state for one of them "
                        "(bandwidth that changes between runs, or other work during one); predictions made with "
                        "either describe that state only — calibrate again on a quiet machine, or in the same run "
                        "as the launches it serves\n",
                        agreement.tolerance * 100);
  }
  return text;
}

std::optional<std::pair<std::string, config::NodeModel>> previous_calibration(const std::string& compare,
                                                                              const std::string& output) {
  if (!compare.empty()) return std::pair{compare, config::load_node_model(compare)};
  std::error_code error;
  if (output == "-" || !std::filesystem::is_regular_file(output, error)) return std::nullopt;
  try {
    return std::pair{output, config::load_node_model(output)};
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace cosched::profiler
