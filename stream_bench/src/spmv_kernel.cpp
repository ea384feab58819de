// spmv: y = A * x with A in CSR (values, 32-bit column indices, row pointers), 16 non-zeros per row at
// pseudo-random columns within a band around the diagonal: bandwidth-bound with irregular reads of x. The matrix
// is generated from a seeded hash of (row, slot), so any thread can build or re-derive any row, and validation
// needs no copy of the matrix.
#include <algorithm>
#include <array>
#include <limits>

#include <fmt/format.h>

#include "roofline_kernels.hpp"
#include "tiered_access.hpp"
#include "vector_ops.hpp"

namespace cosched::stream::detail {

namespace {

constexpr std::size_t row_nonzeros = kernels::spmv_row_nonzeros;
constexpr std::uint64_t matrix_seed = 0x5eed5eed5eedULL;
enum : std::size_t { values = 0, columns = 1, row_pointers = 2, vector_x = 3, vector_y = 4 };

std::uint64_t slot_hash(std::size_t row, std::size_t slot) noexcept {
  return mix64(matrix_seed ^ (row * row_nonzeros + slot));
}
// Columns lie pseudo-randomly in a band of `column_band` around the diagonal (wrapping around), as in matrices
// from meshes: the reads of x are irregular but local (a band of x is 128 KiB, an L2's worth), so the kernel stays
// bandwidth-bound on the matrix. Columns spread over all of x would make it latency-bound (a cache miss per
// non-zero), gups' regime.
constexpr std::uint64_t column_band = 16384;
// (row + n * column_band - column_band / 2 + offset) % n. First touch derives every non-zero's column, and a 64-bit
// division each was most of its time: where the band fits in the matrix, row + offset + n - column_band / 2 lies
// in [0, 3n), and two conditional subtractions give the same column.
std::uint32_t column_of(std::size_t row, std::size_t slot, std::size_t n) noexcept {
  const std::uint64_t offset = slot_hash(row, slot) % column_band;
  if (n < column_band) return static_cast<std::uint32_t>((row + n * column_band - column_band / 2 + offset) % n);
  std::uint64_t column = row + offset + n - column_band / 2;
  if (column >= n) column -= n;
  if (column >= n) column -= n;
  return static_cast<std::uint32_t>(column);
}
// Values in {0.25, .., 2} and x in {1, .., 2} (quarters): every product is a multiple of 1/16 and a row's sum is
// exact in any order, so validation compares exactly.
double value_of(std::size_t row, std::size_t slot) noexcept {
  return 0.25 * static_cast<double>(1 + (slot_hash(row, slot) >> 40) % 8);
}
double x_of(std::size_t j) noexcept { return 1.0 + 0.25 * static_cast<double>(j % 5); }
// y before the first rep: no row sum can be negative, so a skipped row shows.
constexpr double y_initial = -1.0;

class SpmvWork final : public KernelWork {
 public:
  explicit SpmvWork(const WorkContext& context)
      : n_(context.shape.dimension),
        threads_(context.threads),
        stream_initial_values_(context.stream_initial_values),
        emulation_(context),
        expected_y_(n_, std::numeric_limits<double>::quiet_NaN()) {}

  void first_touch(unsigned thread, const ArraySpanList& arrays) override {
    fill_rows(row_range(n_, threads_, thread), arrays);
    finish_first_touch(thread, arrays);
  }

  // Pieces of rows_per_piece rows: a few hundred KiB of matrix each, so the last ones spread over the cores.
  [[nodiscard]] std::size_t shared_fill_pieces() const override { return (n_ + rows_per_piece - 1) / rows_per_piece; }
  void shared_fill(std::size_t piece, const ArraySpanList& arrays) override {
    fill_rows({piece * rows_per_piece, std::min(n_, (piece + 1) * rows_per_piece)}, arrays);
  }
  void finish_first_touch(unsigned thread, const ArraySpanList& arrays) override {
    if (thread + 1 == threads_) *u64_pointer(arrays[row_pointers], n_) = n_ * row_nonzeros;
  }

  // Reps write only y: the matrix and x stay as first touch wrote them, and each row's expected sum is the one
  // `previous` computed from the formulas. y is reset, so this team's first full check shows a row it skipped.
  void take_over(unsigned thread, const ArraySpanList& arrays, const KernelWork& previous) override {
    const auto* prior = dynamic_cast<const SpmvWork*>(&previous);
    if (prior == nullptr || prior->n_ != n_) {  // not this kernel's arrays: initialise them all
      first_touch(thread, arrays);
      return;
    }
    const RowRange rows = row_range(n_, threads_, thread);
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
      expected_y_[r] = prior->expected_y_[r];
      *word_pointer(arrays[vector_y], r) = y_initial;
    }
  }

  double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) override {
    const RowRange rows = row_range(n_, threads_, thread);
    const platform::TieredSpan& x = arrays[vector_x];
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
      const std::uint64_t begin = *u64_pointer(arrays[row_pointers], r);
      const std::uint64_t end = *u64_pointer(arrays[row_pointers], r + 1);
      // A row's non-zeros are one granule of values and of columns: contiguous in one tier.
      const double* v = word_pointer(arrays[values], begin);
      const std::uint32_t* cols = u32_pointer(arrays[columns], begin / 2);
      double sum = 0.0;
      for (std::uint64_t k = 0; k < end - begin; ++k) sum += v[k] * *word_pointer(x, cols[k]);
      *word_pointer(arrays[vector_y], r) = sum;
    }
    emulation_.charge(thread, arrays, discarded);
    return 0.0;
  }

  // The rows of y the sample names, against the sums of the formulas (a wrong value, column or x in memory
  // shows in its row's sum).
  SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample sample) override {
    SliceCheck check;
    const RowRange rows = row_range(n_, threads_, thread);
    for (std::size_t r = sample.first_from(rows.begin); r < rows.end; r += sample.stride) {
      check.compare(vector_y, r, *word_pointer(arrays[vector_y], r), expected_y_[r]);
    }
    return check;
  }

 private:
  static constexpr std::size_t rows_per_piece = 2048;

  // Every array's part for `rows`, and their expected sums: the matrix's rows depend on nothing but their index,
  // so any thread may build any rows (first_touch its own, shared_fill a piece).
  void fill_rows(RowRange rows, const ArraySpanList& arrays) {
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
      // A row is built apart and then written whole (by streaming stores on large arrays: the matrix is most of
      // the footprint, and nothing reads it before the first rep).
      std::array<double, row_nonzeros> row_values{};
      std::array<std::uint32_t, row_nonzeros> row_columns{};
      for (std::size_t s = 0; s < row_nonzeros; ++s) {
        row_values[s] = value_of(r, s);
        row_columns[s] = column_of(r, s, n_);
      }
      // Every product is a multiple of 1/16 and the sum is exact in any order: four partial sums instead of one
      // chain of dependent additions.
      std::array<double, 4> partial{};
      for (std::size_t s = 0; s < row_nonzeros; ++s) partial[s % 4] += row_values[s] * x_of(row_columns[s]);
      const double sum = (partial[0] + partial[1]) + (partial[2] + partial[3]);
      double* v = word_pointer(arrays[values], r * row_nonzeros);
      std::uint32_t* cols = u32_pointer(arrays[columns], r * row_nonzeros / 2);
      if (stream_initial_values_) {
        stream_bytes(v, row_values.data(), sizeof row_values);
        stream_bytes(cols, row_columns.data(), sizeof row_columns);
      } else {
        std::copy(row_values.begin(), row_values.end(), v);
        std::copy(row_columns.begin(), row_columns.end(), cols);
      }
      expected_y_[r] = sum;
      *u64_pointer(arrays[row_pointers], r) = r * row_nonzeros;
      *word_pointer(arrays[vector_x], r) = x_of(r);
      *word_pointer(arrays[vector_y], r) = y_initial;
    }
    if (stream_initial_values_) store_fence();
  }

  std::size_t n_;
  unsigned threads_;
  bool stream_initial_values_;
  SlowTierEmulation emulation_;
  // Each row's exact sum, computed at first touch from the formulas, not from the matrix in memory (so a matrix
  // corrupted later shows): the checks then cost one read of y instead of regenerating every non-zero. NaN until
  // its row is built, so a row no thread built fails every check (its zero matrix would sum to a zero y).
  std::vector<double> expected_y_;
};

}  // namespace


std::unique_ptr<KernelWork> make_spmv_work(const WorkContext& context) { return std::make_unique<SpmvWork>(context); }

}  // namespace cosched::stream::detail
