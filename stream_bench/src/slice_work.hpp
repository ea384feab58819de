#pragma once
// What one OpenMP thread does to its static slice of the arrays: first touch, the kernel over the fast part and
// the (possibly re-streamed) slow part, and the check against the kernel table's expected values.
#include <array>
#include <cstddef>
#include <optional>

#include "cosched/platform/memory_tier.hpp"
#include "cosched/stream/kernels.hpp"
#include "kernel_work.hpp"

namespace cosched::stream::detail {

// Elements [begin, end) of every array. Slices start on cache-line boundaries so no two threads write one line.
struct Slice {
  std::size_t begin = 0;
  std::size_t end = 0;
};

[[nodiscard]] Slice thread_slice(std::size_t count, unsigned threads, unsigned thread) noexcept;

// Indexed by ArrayId; arrays the kernel does not touch are empty spans.
using ArraySpans = std::array<platform::TieredSpan, array_id_count>;

// Writes the initial values into the kernel's arrays of `which` (those it touches) over the slice: the first
// touch, by the thread that will stream the slice, so pages land next to it; or, for a new team on kept arrays,
// the arrays the kernel writes (KernelSpec::writes) afresh. `streaming`: with streaming stores (for arrays larger
// than the cache, where the first rep reads them from memory anyway), fenced before returning.
void fill_initial(const KernelSpec& kernel, const ArraySpans& spans, Slice slice, ArraySet which,
                  bool streaming) noexcept;

// One rep over the slice: the fast part once, the slow part as `passes` says. Returns the reduction's sum over
// the first pass only; later passes' sums go to `discarded`, which the caller keeps observable so the compiler
// cannot drop the extra (real) memory traffic.
double run_slice(const KernelSpec& kernel, const ArraySpans& spans, Slice slice, const SlowPasses& passes,
                 bool streaming, double& discarded) noexcept;

// Compares the sampled elements of every touched array over the slice with the table's expected values: the
// written array holds element(initial values), the others still hold their initial values. The arrays the kernel
// writes are compared as `outputs` says, those it only reads as `inputs` says.
[[nodiscard]] SliceCheck check_slice(const KernelSpec& kernel, const ArraySpans& spans, Slice slice,
                                     CheckSample outputs, CheckSample inputs) noexcept;

// The reduction's exact expected sum over the slice (0 for kernels that are not reductions).
[[nodiscard]] double expected_sum(const KernelSpec& kernel, Slice slice) noexcept;

}  // namespace cosched::stream::detail
