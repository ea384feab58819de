// stencil: a 3-D 7-point Jacobi sweep over an n^3 grid, two grids swapped every rep: bandwidth-bound with reuse
// (each input row is read for five output rows; with the planes in cache, each grid moves once per sweep).
// Damped Jacobi with weight 3/4: out = in/4 + (sum of the 6 neighbours)/8; the boundary stays fixed.
#include <fmt/format.h>

#include "roofline_kernels.hpp"
#include "tiered_access.hpp"

namespace cosched::stream::detail {

namespace {

enum : std::size_t { grid_0 = 0, grid_1 = 1 };

// A linear field is a fixed point of the sweep (its 6 neighbours sum to 6x its centre, so out = in/4 + 6 in/8 =
// in), exact in double for these small integers. Distinct coefficients per axis make a neighbour read from the
// wrong side or axis show.
double linear_field(std::size_t x, std::size_t y, std::size_t z) noexcept {
  return 1.0 + static_cast<double>(x) + 2.0 * static_cast<double>(y) + 4.0 * static_cast<double>(z);
}
// The interior of grid 1 before the first sweep: not the field, so a point the first sweep skipped shows.
constexpr double unswept = -1.0;

class StencilWork final : public KernelWork {
 public:
  explicit StencilWork(const WorkContext& context)
      : n_(context.shape.dimension),
        threads_(context.threads),
        emulation_(context),
        sweeps_(context.threads, 0),
        ramp_(n_),
        sample_stride_(context.sample_stride) {
    for (std::size_t x = 0; x < n_; ++x) ramp_[x] = static_cast<double>(x);
  }

  void first_touch(unsigned thread, const ArraySpanList& arrays) override {
    const RowRange planes = owned_planes(thread);
    for (std::size_t z = planes.begin; z < planes.end; ++z) {
      for (std::size_t y = 0; y < n_; ++y) {
        double* g0 = row(arrays[grid_0], z, y);
        double* g1 = row(arrays[grid_1], z, y);
        for (std::size_t x = 0; x < n_; ++x) {
          g0[x] = linear_field(x, y, z);
          g1[x] = interior(x, y, z) ? unswept : linear_field(x, y, z);
        }
      }
    }
    sweeps_[thread] = 0;
  }

  // After any number of sweeps both grids hold the linear field (grid 1's interior only after one): grid 0 is
  // kept and grid 1's interior marked unswept again, so this team's first sweep (grid 0 into grid 1) and its full
  // check show any point it skipped, as after first touch.
  void take_over(unsigned thread, const ArraySpanList& arrays, const KernelWork& /*previous*/) override {
    const RowRange planes = owned_planes(thread);
    for (std::size_t z = planes.begin; z < planes.end; ++z) {
      for (std::size_t y = 0; y < n_; ++y) {
        double* g1 = row(arrays[grid_1], z, y);
        for (std::size_t x = 0; x < n_; ++x) g1[x] = interior(x, y, z) ? unswept : linear_field(x, y, z);
      }
    }
    sweeps_[thread] = 0;
  }

  double run_rep(unsigned thread, const ArraySpanList& arrays, double& discarded) override {
    const bool even = sweeps_[thread] % 2 == 0;
    const platform::TieredSpan& in = arrays[even ? grid_0 : grid_1];
    const platform::TieredSpan& out = arrays[even ? grid_1 : grid_0];
    const RowRange planes = interior_planes(thread);
    for (std::size_t z = planes.begin; z < planes.end; ++z) {
      for (std::size_t y = 1; y + 1 < n_; ++y) {
        sweep_row(row(in, z, y), row(in, z, y - 1), row(in, z, y + 1), row(in, z - 1, y), row(in, z + 1, y),
                  row(out, z, y), n_);
      }
    }
    ++sweeps_[thread];
    emulation_.charge(thread, arrays, discarded);
    return 0.0;
  }

  // After any number of sweeps both grids hold the linear field everywhere (grid 1's interior only after the
  // first sweep): the points the sample names (by their index in the grid), in both grids. A full check compares
  // every point of the grid the last sweep wrote and samples the one it read: that grid was written by the sweep
  // before, and a wrong point in it would have spread into the last sweep's output, which is compared in full.
  SliceCheck check(unsigned thread, const ArraySpanList& arrays, CheckSample full_or_sampled) override {
    SliceCheck check;
    const RowRange planes = owned_planes(thread);
    const std::uint64_t sweeps = sweeps_[thread];
    for (std::size_t grid : {grid_0, grid_1}) {
      const bool read_last = sweeps > 0 && (grid == grid_1) == (sweeps % 2 == 0);
      const CheckSample sample =
          full_or_sampled.every_element() && read_last ? CheckSample{sample_stride_, 0} : full_or_sampled;
      const bool unswept_interior = grid == grid_1 && sweeps == 0;
      for (std::size_t z = planes.begin; z < planes.end; ++z) {
        for (std::size_t y = 0; y < n_; ++y) {
          const double* g = row(arrays[grid], z, y);
          const std::size_t row_start = (z * n_ + y) * n_;
          if (sample.every_element() && !unswept_interior && row_holds_field(g, y, z)) {
            check.checked += n_;
            continue;
          }
          for (std::size_t x = sample.first_from(row_start) - row_start; x < n_; x += sample.stride) {
            const bool untouched = unswept_interior && interior(x, y, z);
            check.compare(grid, row_start + x, g[x], untouched ? unswept : linear_field(x, y, z));
          }
        }
      }
    }
    return check;
  }

 private:
  static void sweep_row(const double* __restrict centre, const double* __restrict y_minus,
                        const double* __restrict y_plus, const double* __restrict z_minus,
                        const double* __restrict z_plus, double* __restrict out, std::size_t n) noexcept {
    for (std::size_t x = 1; x + 1 < n; ++x) {
      out[x] = 0.25 * centre[x] +
               0.125 * (centre[x - 1] + centre[x + 1] + y_minus[x] + y_plus[x] + z_minus[x] + z_plus[x]);
    }
  }

  [[nodiscard]] double* row(const platform::TieredSpan& grid, std::size_t z, std::size_t y) const noexcept {
    return word_pointer(grid, (z * n_ + y) * n_);  // a row is a granule: never split between the tiers
  }
  // Whether a whole row holds the linear field: a branch-free count the compiler vectorises, so that a full check
  // runs at the speed of reading memory (check() looks for the wrong points only in a row where this fails).
  [[nodiscard]] bool row_holds_field(const double* g, std::size_t y, std::size_t z) const noexcept {
    const double start = linear_field(0, y, z);
    std::size_t wrong = 0;
    for (std::size_t x = 0; x < n_; ++x) wrong += g[x] != start + ramp_[x] ? 1 : 0;
    return wrong == 0;
  }
  [[nodiscard]] bool interior(std::size_t x, std::size_t y, std::size_t z) const noexcept {
    return x > 0 && y > 0 && z > 0 && x + 1 < n_ && y + 1 < n_ && z + 1 < n_;
  }
  // The interior planes [1, n-1) split among the team; first touch and checks add the boundary planes to the
  // first and last thread, so every thread touches the pages it sweeps.
  [[nodiscard]] RowRange interior_planes(unsigned thread) const noexcept {
    const RowRange range = row_range(n_ - 2, threads_, thread);
    return {range.begin + 1, range.end + 1};
  }
  [[nodiscard]] RowRange owned_planes(unsigned thread) const noexcept {
    RowRange range = interior_planes(thread);
    if (thread == 0) range.begin = 0;
    if (thread + 1 == threads_) range.end = n_;
    return range;
  }

  std::size_t n_;
  unsigned threads_;
  SlowTierEmulation emulation_;
  std::vector<std::uint64_t> sweeps_;  // per thread (all threads sweep every rep): sweeps since first touch
  std::vector<double> ramp_;           // 0, 1, .., n-1: linear_field(x, y, z) = linear_field(0, y, z) + x
  std::size_t sample_stride_;          // the session's, for the grid a full check samples
};

}  // namespace


std::unique_ptr<KernelWork> make_stencil_work(const WorkContext& context) {
  return std::make_unique<StencilWork>(context);
}

}  // namespace cosched::stream::detail
