// The element-wise STREAM kernels behind the KernelWork seam: each thread works on its static slice of a, b and c
// with the loops of kernel_loops.cpp (slice_work.cpp), and the table's element formula gives the expected values.
#include <array>
#include <numeric>

#include "kernel_work.hpp"
#include "slice_work.hpp"

namespace cosched::stream::detail {

namespace {

class ElementwiseWork final : public KernelWork {
 public:
  explicit ElementwiseWork(const WorkContext& context)
      : kernel_(context.kernel),
        passes_(slow_passes_for(context.slow_pass_factor)),
        streaming_(context.streaming_stores),
        stream_initial_values_(context.stream_initial_values),
        sample_stride_(context.sample_stride),
        expected_sums_(context.threads, 0.0) {
    const std::size_t count = context.shape.dimension;
    for (unsigned t = 0; t < context.threads; ++t) slices_.push_back(thread_slice(count, context.threads, t));
  }

  void first_touch(unsigned thread, const ArraySpanList& arrays) override {
    fill_initial(kernel_, spans(arrays), slices_[thread], kernel_.touched(), stream_initial_values_);
    expected_sums_[thread] = detail::expected_sum(kernel_, slices_[thread]);
  }

  // Reps only write the written array (ddot none): the inputs still hold their initial values, which the previous
  // team's last full check and this team's first one compare (sampled, as always), so only the written array is
  // written afresh. The expected sums come from the formula, per this team's slices.
  void take_over(unsigned thread, const ArraySpanList& arrays, const KernelWork& /*previous*/) override {
    fill_initial(kernel_, spans(arrays), slices_[thread], kernel_.writes, stream_initial_values_);
    expected_sums_[thread] = detail::expected_sum(kernel_, slices_[thread]);
  }

  double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) override {
    return run_slice(kernel_, spans(arrays), slices_[thread], passes_, streaming_, discarded);
  }

  // A full check compares every element of the array the kernel writes and samples the arrays it only reads:
  // nothing but first touch writes those, and a wrong input value shows in the output of the next rep (every rep
  // reads every input), or in ddot's exact sum of every rep.
  SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample sample) override {
    return check_slice(kernel_, spans(arrays), slices_[thread], sample,
                       sample.every_element() ? CheckSample{sample_stride_, 0} : sample);
  }

  [[nodiscard]] std::optional<double> expected_sum() const override {
    if (!kernel_.is_reduction()) return std::nullopt;
    // The partial sums are exact (docs/stream_bench.md), so any order of adding them gives the same value.
    return std::accumulate(expected_sums_.begin(), expected_sums_.end(), 0.0);
  }

 private:
  static ArraySpans spans(const ArraySpanList& arrays) noexcept {
    ArraySpans fixed{};
    for (std::size_t k = 0; k < fixed.size() && k < arrays.size(); ++k) fixed[k] = arrays[k];
    return fixed;
  }

  const KernelSpec& kernel_;
  SlowPasses passes_;
  bool streaming_;
  bool stream_initial_values_;  // arrays larger than a core's own cache: initial values by streaming stores
  std::size_t sample_stride_;
  std::vector<Slice> slices_;          // per thread
  std::vector<double> expected_sums_;  // per thread: the reduction's exact sum over its slice
};

}  // namespace

std::unique_ptr<KernelWork> make_elementwise_work(const WorkContext& context) {
  return std::make_unique<ElementwiseWork>(context);
}

}  // namespace cosched::stream::detail
