// The shapes of the kernels beyond STREAM (roofline_shapes.hpp): each one's byte model is its own
// (docs/stream_bench.md, "Kernels across the roofline").
#include "kernels/roofline_shapes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace cosched::kernels::detail {

namespace {

// The largest r with r^degree <= value (degree 2 or 3), exact where floating-point roots round.
constexpr std::uint64_t whole_root(std::uint64_t value, unsigned degree) noexcept {
  auto fits = [&](std::uint64_t r) {
    std::uint64_t power = 1;
    for (unsigned d = 0; d < degree; ++d) {
      if (__builtin_mul_overflow(power, r, &power)) return false;
    }
    return power <= value;
  };
  std::uint64_t low = 0, high = std::uint64_t{1} << (degree == 2 ? 32 : 22);  // high^degree > any value
  while (high - low > 1) {
    const std::uint64_t mid = low + (high - low) / 2;
    (fits(mid) ? low : high) = mid;
  }
  return low;
}

}  // namespace

KernelShape gemm_shape(std::uint64_t footprint_bytes) {
  KernelShape shape;
  // Three n x n matrices; n bounded so that int dimensions and exact checksums hold (stream_bench/src/gemm_kernel.cpp, a_entry).
  const std::uint64_t n = std::min<std::uint64_t>(whole_root(footprint_bytes / (3 * sizeof(double)), 2), 40000);
  for (const char* name : {"A", "B", "C"}) shape.arrays.push_back({name, n * n, std::max<std::size_t>(n, 1)});
  shape.dimension = n;
  shape.bytes_per_rep = 3 * sizeof(double) * n * n;  // compulsory: read A and B, write C once
  shape.flops_per_rep = 2 * n * n * n;
  shape.problem = fmt::format("n = {}", n);  // stream_bench adds the OpenBLAS core it runs with
  if (n == 0) shape.too_small = "gemm needs three 1 x 1 matrices (24 bytes)";
  return shape;
}

KernelShape stencil_shape(std::uint64_t footprint_bytes) {
  KernelShape shape;
  const std::uint64_t n = whole_root(footprint_bytes / (2 * sizeof(double)), 3);
  for (const char* name : {"grid0", "grid1"}) shape.arrays.push_back({name, n * n * n, std::max<std::size_t>(n, 1)});
  shape.dimension = n;
  // Compulsory traffic: each sweep reads one grid and writes the other, 2 x 8 bytes per point (neighbour reuse
  // from cache, no write-allocate: STREAM counting).
  shape.bytes_per_rep = 2 * sizeof(double) * n * n * n;
  const std::uint64_t inner = n >= 2 ? n - 2 : 0;
  shape.flops_per_rep = 8 * inner * inner * inner;  // 6 adds, 2 multiplies per interior point
  shape.problem = fmt::format("{}^3 grid", n);
  if (n < 3) shape.too_small = "stencil needs two 3^3 grids (432 bytes)";
  return shape;
}

KernelShape spmv_shape(std::uint64_t footprint_bytes) {
  KernelShape shape;
  const std::uint64_t words = footprint_bytes / sizeof(double);
  // n rows of spmv_row_words, the last row pointer, and 32-bit column indices.
  const std::uint64_t n = std::min<std::uint64_t>(words > 0 ? (words - 1) / spmv_row_words : 0, UINT32_MAX);
  shape.arrays = {{"values", n * spmv_row_nonzeros, spmv_row_nonzeros},
                  {"columns", n * spmv_row_nonzeros / 2, spmv_row_nonzeros / 2},
                  {"row_ptr", n + 1, 1},
                  {"x", n, 1},
                  {"y", n, 1}};
  shape.dimension = n;
  // Compulsory traffic: the matrix (8-byte values, 4-byte columns, 8-byte row pointers), x once, y written once.
  // Irregular reads of x that miss the cache again are not counted (the model's lower bound).
  shape.bytes_per_rep = n * spmv_row_nonzeros * (sizeof(double) + sizeof(std::uint32_t)) + (n + 1) * 8 + 2 * 8 * n;
  shape.flops_per_rep = 2 * spmv_row_nonzeros * n;
  shape.problem = fmt::format("{} rows, {} non-zeros", n, n * spmv_row_nonzeros);
  if (n == 0) shape.too_small = fmt::format("spmv needs one row of {} bytes", (spmv_row_words + 1) * sizeof(double));
  return shape;
}

KernelShape gups_shape(std::uint64_t footprint_bytes) {
  KernelShape shape;
  const std::uint64_t words = footprint_bytes / sizeof(double);
  const std::uint64_t n = words == 0 ? 0 : std::uint64_t{1} << (63 - __builtin_clzll(words));  // largest 2^m
  shape.arrays = {{"table", n, 1}};
  shape.dimension = n;
  shape.updates_per_rep = gups_updates_per_word * n;
  // Each update reads and writes one 8-byte word (HPCC's count; the hardware moves whole cache lines).
  shape.bytes_per_rep = 2 * sizeof(std::uint64_t) * shape.updates_per_rep;
  shape.problem = fmt::format("2^{} words, {} updates", n == 0 ? 0 : 63 - __builtin_clzll(n), shape.updates_per_rep);
  if (n == 0) shape.too_small = "gups needs a table of one 8-byte word";
  return shape;
}

}  // namespace cosched::kernels::detail
