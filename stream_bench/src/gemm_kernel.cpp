// gemm: C = A * B, dense n x n row-major doubles, the compute-bound end of the roofline. OpenBLAS dgemm does the
// arithmetic (measured against a blocked loop: docs/stream_bench.md); the pinned team supplies the parallelism,
// each thread multiplying its block of rows of A into the same rows of C, so OpenBLAS runs single-threaded in
// each of our pinned threads (openblas_set_num_threads(1)) and the pinning stays ours.
#include <cblas.h>

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "roofline_kernels.hpp"
#include "tiered_access.hpp"

namespace cosched::stream::detail {

namespace {

enum : std::size_t { matrix_a = 0, matrix_b = 1, matrix_c = 2 };

// Entries are small multiples of 1/4 (A in [0.5, 1.5], B in [0.25, 1.75]), so every product is a multiple of
// 1/16 and every partial sum of a row of C is exact in double whatever the order (or FMA) OpenBLAS uses, as long
// as n^2 * 1.5 * 1.75 * 3 * 16 < 2^53: validation compares exactly. All entries and weights are positive, so a
// wrong entry of A, B or C always changes some row's checksum.
double a_entry(std::size_t i, std::size_t k) noexcept { return 0.5 + 0.25 * static_cast<double>((i + 2 * k) % 5); }
double b_entry(std::size_t k, std::size_t j) noexcept {
  return 0.25 + 0.25 * static_cast<double>((3 * k + j) % 7);
}
// The checksum weights: C * w must equal A * (B * w).
double weight(std::size_t j) noexcept { return static_cast<double>(j % 3 + 1); }
// C before the first rep: negative, unlike any entry of the product, so a skipped row shows.
constexpr double c_initial = -1.0;

class GemmWork final : public KernelWork {
 public:
  explicit GemmWork(const WorkContext& context)
      : n_(context.shape.dimension), threads_(context.threads), emulation_(context), row_checksums_(n_, 0.0) {
    // Our threads are the parallelism; OpenBLAS's own threads would ignore the pinning and oversubscribe.
    static std::once_flag single_threaded;
    std::call_once(single_threaded, [] { openblas_set_num_threads(1); });
    std::vector<double> bw(n_, 0.0);  // B * w, from the formula
    for (std::size_t k = 0; k < n_; ++k) {
      for (std::size_t j = 0; j < n_; ++j) bw[k] += b_entry(k, j) * weight(j);
    }
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t k = 0; k < n_; ++k) row_checksums_[i] += a_entry(i, k) * bw[k];
    }
  }

  void first_touch(unsigned thread, const ArraySpanList& arrays) override {
    const RowRange rows = row_range(n_, threads_, thread);
    for (std::size_t i = rows.begin; i < rows.end; ++i) {
      double* a = word_pointer(arrays[matrix_a], i * n_);
      double* b = word_pointer(arrays[matrix_b], i * n_);
      double* c = word_pointer(arrays[matrix_c], i * n_);
      for (std::size_t j = 0; j < n_; ++j) {
        a[j] = a_entry(i, j);
        b[j] = b_entry(i, j);
        c[j] = c_initial;
      }
    }
  }

  // Which kernels OpenBLAS chose for this CPU (OPENBLAS_CORETYPE overrides it: docs/stream_bench.md).
  [[nodiscard]] std::string problem_note() const override {
    return fmt::format(", OpenBLAS core {}", openblas_get_corename());
  }

  double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) override {
    const RowRange rows = row_range(n_, threads_, thread);
    // Rows of A and C split at whole rows (the granule); multiply each run of rows that lies in one part of A and
    // one part of C, and B in its (at most) two parts, accumulating the second into C.
    const std::size_t split_a = arrays[matrix_a].fast_count / n_;
    const std::size_t split_b = arrays[matrix_b].fast_count / n_;
    const std::size_t split_c = arrays[matrix_c].fast_count / n_;
    std::size_t first = rows.begin;
    while (first < rows.end) {
      std::size_t last = rows.end;
      if (first < split_a) last = std::min(last, split_a);
      if (first < split_c) last = std::min(last, split_c);
      multiply_rows(arrays, first, last, split_b);
      first = last;
    }
    emulation_.charge(thread, arrays, discarded);
    return 0.0;
  }

  SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample) override {
    SliceCheck check;
    const RowRange rows = row_range(n_, threads_, thread);
    for (std::size_t i = rows.begin; i < rows.end; ++i) {
      const double* c = word_pointer(arrays[matrix_c], i * n_);
      double sum = 0.0;
      for (std::size_t j = 0; j < n_; ++j) sum += c[j] * weight(j);
      check.compare(matrix_c, i * n_, sum, row_checksums_[i]);
    }
    return check;
  }

 private:
  // C[first, last) = A[first, last) * B, B taken as rows [0, split_b) and [split_b, n) (each contiguous).
  void multiply_rows(const ArraySpanList& arrays, std::size_t first, std::size_t last, std::size_t split_b) const {
    const auto n = static_cast<int>(n_);
    const auto m = static_cast<int>(last - first);
    const double* a = word_pointer(arrays[matrix_a], first * n_);
    double* c = word_pointer(arrays[matrix_c], first * n_);
    double beta = 0.0;
    for (const auto [k_begin, k_end] : {RowRange{0, split_b}, RowRange{split_b, n_}}) {
      if (k_begin >= k_end) continue;
      const double* b = word_pointer(arrays[matrix_b], k_begin * n_);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, static_cast<int>(k_end - k_begin), 1.0,
                  a + k_begin, n, b, n, beta, c, n);
      beta = 1.0;
    }
  }

  std::size_t n_;
  unsigned threads_;
  SlowTierEmulation emulation_;
  std::vector<double> row_checksums_;  // (A * (B * w))[i], exact
};

}  // namespace


std::unique_ptr<KernelWork> make_gemm_work(const WorkContext& context) { return std::make_unique<GemmWork>(context); }

}  // namespace cosched::stream::detail
