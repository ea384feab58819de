#include <array>
#include <cassert>

#include <fmt/format.h>

#include "cosched/common/error.hpp"
#include "cosched/kernels/kernels.hpp"
#include "kernels/roofline_shapes.hpp"

namespace cosched::kernels {

namespace {

using enum ArrayId;

// The element-wise entries: data only (reads, writes, formula, element).
constexpr KernelSpec elementwise_entry(KernelId id, std::string_view name, ArraySet reads, ArraySet writes,
                                 std::string_view formula, double (*element)(double, double, double, double)) {
  return {id, name, reads, writes, formula, element, MeritUnit::gbs, 0, nullptr};
}

// The other entries: a description, the figure of merit, the arrays sharing the footprint and their shape.
constexpr KernelSpec sized_entry(KernelId id, std::string_view name, std::string_view description, MeritUnit merit,
                           std::size_t arrays, KernelShape (*shape)(std::uint64_t)) {
  return {id, name, {}, {}, description, nullptr, merit, arrays, shape};
}

constexpr std::array<KernelSpec, 10> table{{
    elementwise_entry(KernelId::write, "write", arrays({}), arrays({a}), "a[i] = s",
                [](double, double, double, double s) { return s; }),
    elementwise_entry(KernelId::ddot, "ddot", arrays({a, b}), arrays({}), "sum += a[i] * b[i]",
                [](double va, double vb, double, double) { return va * vb; }),
    elementwise_entry(KernelId::copy, "copy", arrays({a}), arrays({c}), "c[i] = a[i]",
                [](double va, double, double, double) { return va; }),
    elementwise_entry(KernelId::scale, "scale", arrays({c}), arrays({b}), "b[i] = s * c[i]",
                [](double, double, double vc, double s) { return s * vc; }),
    elementwise_entry(KernelId::add, "add", arrays({a, b}), arrays({c}), "c[i] = a[i] + b[i]",
                [](double va, double vb, double, double) { return va + vb; }),
    elementwise_entry(KernelId::triad, "triad", arrays({b, c}), arrays({a}), "a[i] = b[i] + s * c[i]",
                [](double, double vb, double vc, double s) { return vb + s * vc; }),
    sized_entry(KernelId::gemm, "gemm", "C = A * B (dense, n x n, OpenBLAS dgemm per thread block)", MeritUnit::gflops,
          3, detail::gemm_shape),
    sized_entry(KernelId::stencil, "stencil", "out = in/4 + (6 neighbours)/8 (3-D 7-point Jacobi, two grids)",
          MeritUnit::gbs, 2, detail::stencil_shape),
    sized_entry(KernelId::spmv, "spmv", "y = A * x (CSR, 16 non-zeros per row at random columns in a band)",
                MeritUnit::gbs, 5, detail::spmv_shape),
    sized_entry(KernelId::gups, "gups", "T[r & (n-1)] ^= r (HPCC RandomAccess, 4n updates)", MeritUnit::gups, 1,
          detail::gups_shape),
}};

// Every written array must also be one the kernel cannot read: the kernels are then idempotent, so repeated
// reps and the emulated tier's repeated passes leave identical results.
constexpr bool writes_disjoint_from_reads() {
  for (const KernelSpec& kernel : table) {
    if ((kernel.reads.bits & kernel.writes.bits) != 0 || kernel.writes.size() > 1) return false;
  }
  return true;
}
static_assert(writes_disjoint_from_reads());

// Every entry is either element-wise or has arrays (and a shape: shape() asserts it, since a function's address is
// not a constant expression under the sanitizers).
constexpr bool entries_complete() {
  for (const KernelSpec& kernel : table) {
    if (!kernel.elementwise() && kernel.array_count() == 0) return false;
  }
  return true;
}
static_assert(entries_complete());

// Floating-point operations per element of the element-wise kernels (for the roofline: their flop rate).
std::uint64_t flops_per_element(KernelId id) noexcept {
  switch (id) {
    case KernelId::ddot:
    case KernelId::triad: return 2;
    case KernelId::scale:
    case KernelId::add: return 1;
    default: return 0;
  }
}

}  // namespace

std::string_view merit_unit_name(MeritUnit unit) noexcept {
  switch (unit) {
    case MeritUnit::gbs: return "GB/s";
    case MeritUnit::gflops: return "GFLOP/s";
    case MeritUnit::gups: return "GUP/s";
  }
  return "?";
}

std::uint64_t KernelShape::footprint_bytes() const noexcept {
  std::uint64_t words = 0;
  for (const ArrayLayout& array : arrays) words += array.words;
  return words * sizeof(double);
}

std::uint64_t KernelShape::merit_count(MeritUnit unit) const noexcept {
  switch (unit) {
    case MeritUnit::gbs: return bytes_per_rep;
    case MeritUnit::gflops: return flops_per_rep;
    case MeritUnit::gups: return updates_per_rep;
  }
  return 0;
}

KernelShape KernelSpec::shape(std::uint64_t footprint_bytes) const {
  if (!elementwise()) {
    assert(sized != nullptr);  // a table entry that is not element-wise sizes its arrays
    return sized(footprint_bytes);
  }
  const std::uint64_t count = footprint_bytes / touched().size() / sizeof(double);
  KernelShape shape;
  for (ArrayId array : {a, b, c}) {
    shape.arrays.push_back({std::string(1, array_name(array)), touched().contains(array) ? count : 0, 1});
  }
  shape.dimension = count;
  shape.bytes_per_rep = count * bytes_per_element();
  shape.flops_per_rep = count * flops_per_element(id);
  shape.problem = fmt::format("{} elements per array", count);
  if (count == 0) shape.too_small = "an array of fewer than 8 bytes holds no double";
  return shape;
}

std::uint64_t KernelSpec::bytes_per_pass(std::uint64_t footprint_bytes) const {
  if (elementwise()) return footprint_bytes / touched().size() / sizeof(double) * bytes_per_element();
  return shape(footprint_bytes).bytes_per_rep;
}

std::span<const KernelSpec> kernel_table() noexcept { return table; }

const KernelSpec& find_kernel(std::string_view name) {
  for (const KernelSpec& kernel : table) {
    if (kernel.name == name) return kernel;
  }
  throw UsageError("unknown kernel \"" + std::string(name) + "\"; valid kernels: " + kernel_names());
}

std::string kernel_names() {
  std::string names;
  for (const KernelSpec& kernel : table) {
    if (!names.empty()) names += ", ";
    names += kernel.name;
  }
  return names;
}

double initial_value(ArrayId array, std::size_t i) noexcept {
  // Ranges: a in [4, 11], b in [16, 19], c in [0.5, 1]. Outputs: write 3, copy [4, 11], scale [1.5, 3],
  // add [20, 30], triad [17.5, 22] — never equal to the output array's own initial value. Different periods
  // (8, 4, 3) make an element read from a neighbouring index show.
  switch (array) {
    case a: return 4.0 + static_cast<double>(i % 8);
    case b: return 16.0 + static_cast<double>(i % 4);
    case c: return 0.5 + 0.25 * static_cast<double>(i % 3);
  }
  return 0.0;
}

}  // namespace cosched::kernels
