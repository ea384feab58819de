#pragma once
// The one median of the project (and the summary built on it). Every figure that says "median" — profile times,
// launch overheads, fidelity errors, benchmark ratios — comes from here, so two outputs never disagree on what
// the median of an even sample is.
#include <span>
#include <vector>

namespace cosched {

// The median of a non-empty sample; for an even count, the mean of the two middle values. Throws
// std::invalid_argument on an empty sample (a caller bug: every caller has data before it summarises).
[[nodiscard]] double median(std::vector<double> values);

// Median, min and max of a non-empty sample.
struct SampleSummary {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
};
[[nodiscard]] SampleSummary summarize(std::vector<double> values);

// Half the range over the median, (max - min) / (2 median): how far repeated measurements of one thing spread —
// the noise floor a prediction error is compared with. 0 for fewer than two values or a median that is not > 0.
[[nodiscard]] double relative_half_range(const std::vector<double>& values);

}  // namespace cosched
