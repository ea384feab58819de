#include "cosched/knowledge/fast_memory.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "cosched/common/error.hpp"

namespace cosched::knowledge {

FastMemoryFit::FastMemoryFit(const std::vector<ChunkSample>& samples, double transfer_error)
    : transfer_error_(transfer_error) {
  if (!(std::isfinite(transfer_error) && transfer_error >= 0.0)) {
    throw InputError("fast-memory fit", "the transfer error must be finite and >= 0");
  }
  // cores -> chunks -> (sum of ratios, sum of variances, count): repeated samples of one point are averaged.
  std::map<int, std::map<int, std::tuple<double, double, int>>> grouped;
  for (const ChunkSample& sample : samples) {
    if (sample.cores < 1 || sample.fast_chunks < 1) {
      throw InputError("fast-memory fit", "a ratio at " + std::to_string(sample.cores) + " cores and " +
                                              std::to_string(sample.fast_chunks) + " chunks");
    }
    if (!std::isfinite(sample.log_ratio) || !(std::isfinite(sample.log_variance) && sample.log_variance >= 0.0)) {
      throw InputError("fast-memory fit", "a ratio or variance that is not finite");
    }
    auto& [sum, variance, count] = grouped[sample.cores][sample.fast_chunks];
    sum += sample.log_ratio;
    variance += sample.log_variance;
    ++count;
  }
  for (const auto& [cores, by_chunks] : grouped) {
    Reference reference{cores, {}, {}, {}};
    for (const auto& [chunks, moments] : by_chunks) {
      const auto& [sum, variance, count] = moments;
      reference.chunks.push_back(chunks);
      reference.mean.push_back(sum / count);
      reference.variance.push_back(variance / (static_cast<double>(count) * count));
    }
    references_.push_back(std::move(reference));
  }
}

std::pair<double, double> FastMemoryFit::along_chunks(const Reference& reference, int chunks) {
  // (0, 0) is the first knot: no fast memory, no change.
  int low_chunks = 0;
  double low_mean = 0.0;
  double low_variance = 0.0;
  for (std::size_t k = 0; k < reference.chunks.size(); ++k) {
    if (chunks <= reference.chunks[k]) {
      const double share = static_cast<double>(chunks - low_chunks) / (reference.chunks[k] - low_chunks);
      return {low_mean + share * (reference.mean[k] - low_mean),
              (1 - share) * (1 - share) * low_variance + share * share * reference.variance[k]};
    }
    low_chunks = reference.chunks[k];
    low_mean = reference.mean[k];
    low_variance = reference.variance[k];
  }
  return {low_mean, low_variance};
}

std::pair<double, double> FastMemoryFit::log_ratio(int cores, int chunks) const {
  if (chunks <= 0 || references_.empty()) return {0.0, 0.0};
  const double x = std::log(static_cast<double>(cores));
  std::pair<double, double> value = along_chunks(references_.front(), chunks);
  double nearest = std::abs(x - std::log(static_cast<double>(references_.front().cores)));
  for (std::size_t k = 0; k < references_.size(); ++k) {
    const double here = std::log(static_cast<double>(references_[k].cores));
    nearest = std::min(nearest, std::abs(x - here));
    if (x >= here) value = along_chunks(references_[k], chunks);
    if (k + 1 < references_.size()) {
      const double next = std::log(static_cast<double>(references_[k + 1].cores));
      if (x > here && x < next) {
        const double share = (x - here) / (next - here);
        const auto low = along_chunks(references_[k], chunks);
        const auto high = along_chunks(references_[k + 1], chunks);
        value = {low.first + share * (high.first - low.first),
                 (1 - share) * (1 - share) * low.second + share * share * high.second};
      }
    }
  }
  const double transfer = transfer_error_ * value.first;
  value.second += transfer * transfer * std::min(1.0, nearest / std::log(2.0));
  return value;
}

std::vector<int> FastMemoryFit::reference_cores() const {
  std::vector<int> cores;
  for (const Reference& reference : references_) cores.push_back(reference.cores);
  return cores;
}

}  // namespace cosched::knowledge
