#pragma once
// A running sum of doubles that does not drift with the number of terms (Neumaier compensation).
namespace cosched {

// Neumaier-compensated running sum: the total area of Algorithm 1 is updated incrementally n*P times, and the lower
// bound it yields must not drift with the number of updates.
class CompensatedSum {
 public:
  void add(double value) noexcept {
    const double t = sum_ + value;
    if ((sum_ >= 0 ? sum_ : -sum_) >= (value >= 0 ? value : -value)) {
      compensation_ += (sum_ - t) + value;
    } else {
      compensation_ += (value - t) + sum_;
    }
    sum_ = t;
  }
  [[nodiscard]] double value() const noexcept { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}  // namespace cosched
