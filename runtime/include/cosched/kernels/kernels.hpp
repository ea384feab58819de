#pragma once
// The kernels, described once as data (in the style of BabelStream's benchmark table). The table drives the
// byte and flop accounting, the sizing of a footprint into arrays, the validation of every run, the figure of
// merit, and the CLI's --kernel choices and help text. It is pure data and arithmetic, below every library that
// names a kernel: what a STREAM task of a workload runs and moves (cosched::exec, the profiler) is read here, and
// stream_bench (cosched::stream) adds each kernel's work — its loops — keyed by KernelId.
//
// Two kinds of entries share the table:
// - element-wise STREAM kernels (write .. triad) are pure data: the arrays they read and write and an element
//   formula; stream_bench's vectorised loops are checked against the formula;
// - the other kernels (gemm, stencil, spmv, gups) declare a `shape`: how a footprint is divided among their
//   arrays, what one repetition moves and computes (roofline_shapes.cpp; their work is stream_bench's, one source
//   file each: docs/stream_bench.md, "Kernels across the roofline").
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cosched::kernels {

// The three arrays an element-wise kernel may touch, named as in STREAM.
enum class ArrayId : unsigned { a = 0, b = 1, c = 2 };
inline constexpr std::size_t array_id_count = 3;

[[nodiscard]] constexpr char array_name(ArrayId array) noexcept {
  return static_cast<char>('a' + static_cast<unsigned>(array));
}

// A set of arrays as a bit mask (bit k = ArrayId k).
struct ArraySet {
  unsigned bits = 0;
  [[nodiscard]] constexpr bool contains(ArrayId array) const noexcept {
    return (bits >> static_cast<unsigned>(array)) & 1U;
  }
  [[nodiscard]] constexpr std::size_t size() const noexcept {
    return static_cast<std::size_t>(__builtin_popcount(bits));
  }
  [[nodiscard]] constexpr ArraySet operator|(ArraySet other) const noexcept { return {bits | other.bits}; }
};

[[nodiscard]] constexpr ArraySet arrays(std::initializer_list<ArrayId> ids) noexcept {
  ArraySet set;
  for (ArrayId id : ids) set.bits |= 1U << static_cast<unsigned>(id);
  return set;
}

enum class KernelId { write, ddot, copy, scale, add, triad, gemm, stencil, spmv, gups };

// What a kernel's figure of merit counts: bytes (GB/s), floating-point operations (GFLOP/s) or table updates
// (GUP/s), each per second / 1e9.
enum class MeritUnit { gbs, gflops, gups };
[[nodiscard]] std::string_view merit_unit_name(MeritUnit unit) noexcept;  // "GB/s", "GFLOP/s", "GUP/s"

// One array of a sized kernel, in 8-byte words (the tier backends allocate doubles; integer arrays use the same
// words). The fast share of the array is rounded up to whole granules (a matrix row, a grid row, one matrix
// row's non-zeros), so a granule never straddles the tiers and the loops can take plain row pointers.
struct ArrayLayout {
  std::string name;
  std::size_t words = 0;
  std::size_t granule = 1;
};

// A kernel sized for a footprint: its arrays and what one repetition moves and computes (the byte model is
// each kernel's own, docs/stream_bench.md).
struct KernelShape {
  std::vector<ArrayLayout> arrays;  // element-wise kernels: a, b, c (an untouched one has 0 words)
  std::size_t dimension = 0;        // n of the kernel: elements, matrix order, grid edge, rows, table words
  std::uint64_t bytes_per_rep = 0;
  std::uint64_t flops_per_rep = 0;
  std::uint64_t updates_per_rep = 0;
  std::string problem;  // for people: "n = 512", "96^3 grid", ...
  std::string too_small;  // non-empty: why the footprint cannot hold the kernel (a UsageError upstream)

  [[nodiscard]] std::uint64_t footprint_bytes() const noexcept;
  // What the figure of merit counts per rep.
  [[nodiscard]] std::uint64_t merit_count(MeritUnit unit) const noexcept;
};

struct KernelSpec {
  KernelId id;
  std::string_view name;
  // Element-wise kernels only (empty sets and a null element otherwise).
  ArraySet reads;
  ArraySet writes;           // empty for a reduction (ddot): its result is a sum, not an array
  std::string_view formula;  // for people: help text, tables, docs
  // The value element i of the written array gets (or, for a reduction, the term summed) from element i of the
  // arrays and the scalar s. Validation evaluates it on the initial values.
  double (*element)(double a, double b, double c, double s);
  MeritUnit merit = MeritUnit::gbs;
  // The other kernels: how many arrays share the footprint and how they are sized.
  std::size_t declared_arrays = 0;
  KernelShape (*sized)(std::uint64_t footprint_bytes) = nullptr;

  [[nodiscard]] constexpr bool elementwise() const noexcept { return element != nullptr; }
  // STREAM counting: every array read or written is moved once per element; no write-allocate traffic.
  [[nodiscard]] constexpr std::size_t bytes_per_element() const noexcept {
    return sizeof(double) * (reads.size() + writes.size());
  }
  [[nodiscard]] constexpr ArraySet touched() const noexcept { return reads | writes; }
  [[nodiscard]] constexpr bool is_reduction() const noexcept { return elementwise() && writes.size() == 0; }
  // The arrays a footprint is shared among: a caller sizing a task of F bytes gives every one F / array_count()
  // bytes (StreamConfig::array_bytes); kernels whose arrays differ in size divide F themselves (shape()).
  [[nodiscard]] constexpr std::size_t array_count() const noexcept {
    return elementwise() ? touched().size() : declared_arrays;
  }
  // The kernel sized for a footprint of `footprint_bytes` (array_count() arrays of footprint / array_count()).
  [[nodiscard]] KernelShape shape(std::uint64_t footprint_bytes) const;
  // Bytes one pass (rep) moves over a task of `footprint_bytes`: the launcher's and the profiler's sizing.
  [[nodiscard]] std::uint64_t bytes_per_pass(std::uint64_t footprint_bytes) const;
};

// The scalar s of write, scale and triad.
inline constexpr double kernel_scalar = 3.0;

[[nodiscard]] std::span<const KernelSpec> kernel_table() noexcept;

// The kernel called `name`; throws UsageError listing the valid names.
[[nodiscard]] const KernelSpec& find_kernel(std::string_view name);

// "write, ddot, copy, scale, add, triad, gemm, stencil, spmv, gups" — for help texts and error messages.
[[nodiscard]] std::string kernel_names();

// Initial value of element i of an array. Chosen so that every kernel's result is exact in double (small
// multiples of 1/4), differs from the written array's initial value at every i (an element a kernel skipped is
// caught), and depends on i (an element read from the wrong index is caught).
[[nodiscard]] double initial_value(ArrayId array, std::size_t i) noexcept;

// Every array's initial values repeat with this period (lcm of the periods 8, 4, 3): initial_value(id, i) ==
// initial_value(id, i % initial_value_period), so first touch and validation can work from one period's values.
inline constexpr std::size_t initial_value_period = 24;

// What the kernels beyond STREAM are made of, shared by their shapes (here) and their work (stream_bench).
inline constexpr std::uint64_t gups_updates_per_word = 4;  // HPCC: 4 updates per table word
inline constexpr std::size_t spmv_row_nonzeros = 16;      // even: a row's column indices fill whole words
// One matrix row's words: its values, its 32-bit column indices, its row pointer, and its x and y elements.
inline constexpr std::size_t spmv_row_words = spmv_row_nonzeros + spmv_row_nonzeros / 2 + 1 + 1 + 1;

}  // namespace cosched::kernels
