#pragma once
// How a task's time at c fast-memory chunks relates to its time at 0, from few measurements: the log ratio
// ln t(p, c) - ln t(p, 0) measured at one or a few reference core counts, linear in c between the measured chunk
// counts (0 at c = 0, flat beyond the largest measured), linear in ln p between the reference core counts and flat
// outside them — the same ratio applied at every other core count.
//
// That assumption is wrong in a known direction: fast memory helps a task in proportion to how bandwidth-bound it
// is, which grows with its cores (one core rarely saturates DDR; all of them do). The prediction carries that error
// as a transfer error: kappa * |log ratio| in sd, in full from one doubling of cores away from a reference count
// (kappa = transfer_error, 0.5 by default: half the measured effect either way). The study in bench/ measures how
// far the assumption is off on its ground-truth programs (docs/knowledge.md).
#include <utility>
#include <vector>

namespace cosched::knowledge {

struct ChunkSample {
  int cores = 1;
  int fast_chunks = 1;
  double log_ratio = 0.0;      // ln t(cores, fast_chunks) - ln t(cores, 0)
  double log_variance = 0.0;   // its variance from the measurements
};

class FastMemoryFit {
 public:
  // No samples: fast memory changes nothing (ratio 1) and adds no variance. Throws InputError for a sample at
  // < 1 core or < 1 chunk, or values that are not finite (variance >= 0).
  explicit FastMemoryFit(const std::vector<ChunkSample>& samples, double transfer_error = 0.5);

  // The mean of ln t(cores, chunks) - ln t(cores, 0) and its variance.
  [[nodiscard]] std::pair<double, double> log_ratio(int cores, int chunks) const;
  [[nodiscard]] bool measured() const noexcept { return !references_.empty(); }
  // The core counts the ratio was measured at, ascending.
  [[nodiscard]] std::vector<int> reference_cores() const;

 private:
  struct Reference {
    int cores;
    std::vector<int> chunks;         // ascending, > 0
    std::vector<double> mean;        // ln ratio per chunk count
    std::vector<double> variance;
  };
  [[nodiscard]] static std::pair<double, double> along_chunks(const Reference& reference, int chunks);

  std::vector<Reference> references_;  // ascending in cores
  double transfer_error_ = 0.5;
};

}  // namespace cosched::knowledge
