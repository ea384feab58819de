#pragma once
// Walks an allocation space one row at a time. A row fixes p_1..p_{d-1} and lets p_d run over 0..P(d), so the hot
// inner loops over p_d touch contiguous memory and need no per-element index arithmetic; everything that depends
// only on the outer coordinates (their share sum, which neighbours p - e_i exist) is computed once per row.
#include <cstddef>
#include <span>
#include <vector>

#include "cosched/sched/model.hpp"

namespace cosched::sched {

class RowWalker {
 public:
  explicit RowWalker(const AllocationSpace& space)
      : space_(space), outer_(space.dimensions() - 1, 0), row_length_(static_cast<std::size_t>(
                                                               space.capacity(space.dimensions() - 1)) + 1) {
    positive_strides_.reserve(outer_.size());
    refresh();
  }

  [[nodiscard]] bool valid() const noexcept { return base_ < space_.size(); }
  [[nodiscard]] std::size_t base() const noexcept { return base_; }
  [[nodiscard]] std::size_t row_length() const noexcept { return row_length_; }
  // p_1..p_{d-1} of the current row.
  [[nodiscard]] std::span<const int> outer() const noexcept { return outer_; }
  // 0 + p_1/P(1) + ... + p_{d-1}/P(d-1), folded left like AllocationSpace::share_sum.
  [[nodiscard]] double outer_share() const noexcept { return outer_share_; }
  // Strides of the outer resources with p_i > 0: the neighbours p - e_i that exist.
  [[nodiscard]] std::span<const std::size_t> positive_strides() const noexcept { return positive_strides_; }

  void advance() {
    base_ += row_length_;
    for (std::size_t i = outer_.size(); i-- > 0;) {
      if (++outer_[i] <= space_.capacity(i)) break;
      outer_[i] = 0;
    }
    refresh();
  }

 private:
  void refresh() {
    outer_share_ = 0.0;
    positive_strides_.clear();
    for (std::size_t i = 0; i < outer_.size(); ++i) {
      outer_share_ += space_.share(i, outer_[i]);
      if (outer_[i] > 0) positive_strides_.push_back(space_.stride(i));
    }
  }

  const AllocationSpace& space_;
  std::vector<int> outer_;
  std::vector<std::size_t> positive_strides_;
  std::size_t row_length_;
  std::size_t base_ = 0;
  double outer_share_ = 0.0;
};

}  // namespace cosched::sched
