#include "cosched/knowledge/measurement.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cosched/common/error.hpp"

namespace cosched::knowledge {

bool same_work(double a, double b) noexcept { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

void check_measurements(const NodeShape& node, const TaskWork& work, const std::vector<Measurement>& measurements,
                        const char* where) {
  if (node.cores < 1 || node.fast_chunks < 0) {
    throw InputError(where, fmt::format("a node of {} cores and {} fast chunks", node.cores, node.fast_chunks));
  }
  if (!(std::isfinite(work.production) && work.production > 0.0)) {
    throw InputError(where, "the production amount of work must be finite and > 0");
  }
  double previous = 0.0;
  for (const double amount : work.profiling) {
    if (!(amount > previous && amount < work.production)) {
      throw InputError(where, fmt::format("profiling amounts must ascend within (0, {}); {} does not",
                                          work.production, amount));
    }
    previous = amount;
  }
  for (const Measurement& m : measurements) {
    if (m.cores < 1 || m.cores > node.cores || m.fast_chunks < 0 || m.fast_chunks > node.fast_chunks) {
      throw InputError(where, fmt::format("a run at {} cores and {} chunks is not on a node of {} cores and {} chunks",
                                          m.cores, m.fast_chunks, node.cores, node.fast_chunks));
    }
    if (!(std::isfinite(m.work) && m.work > 0.0) || !(std::isfinite(m.seconds) && m.seconds > 0.0)) {
      throw InputError(where, fmt::format("a run at {} cores with work {} and {} s: both must be finite and > 0",
                                          m.cores, m.work, m.seconds));
    }
  }
}

}  // namespace cosched::knowledge
