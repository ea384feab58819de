#pragma once
// The STREAM kernels, described once as data (in the style of BabelStream's benchmark table). The table drives
// the byte accounting, the validation of every run, and the CLI's --kernel choices and help text; only the
// vectorised loops themselves are code, and tests check them against the table's element formula.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cosched::stream {

// The three arrays a kernel may touch, named as in STREAM.
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

enum class KernelId { write, ddot, copy, scale, add, triad };

struct KernelSpec {
  KernelId id;
  std::string_view name;
  ArraySet reads;
  ArraySet writes;           // empty for a reduction (ddot): its result is a sum, not an array
  std::string_view formula;  // for people: help text, tables, docs
  // The value element i of the written array gets (or, for a reduction, the term summed) from element i of the
  // arrays and the scalar s. Validation evaluates it on the initial values.
  double (*element)(double a, double b, double c, double s);

  // STREAM counting: every array read or written is moved once per element; no write-allocate traffic.
  [[nodiscard]] constexpr std::size_t bytes_per_element() const noexcept {
    return sizeof(double) * (reads.size() + writes.size());
  }
  [[nodiscard]] constexpr ArraySet touched() const noexcept { return reads | writes; }
  // Bytes one pass moves over a task of `footprint_bytes` split evenly over the arrays it touches: the
  // bytes_per_rep of a run with arrays of footprint / touched bytes (the launcher's and the profiler's sizing).
  [[nodiscard]] constexpr std::uint64_t bytes_per_pass(std::uint64_t footprint_bytes) const noexcept {
    return footprint_bytes / touched().size() / sizeof(double) * bytes_per_element();
  }
  [[nodiscard]] constexpr bool is_reduction() const noexcept { return writes.size() == 0; }
};

// The scalar s of write, scale and triad.
inline constexpr double kernel_scalar = 3.0;

[[nodiscard]] std::span<const KernelSpec> kernel_table() noexcept;

// The kernel called `name`; throws UsageError listing the valid names.
[[nodiscard]] const KernelSpec& find_kernel(std::string_view name);

// "write, ddot, copy, scale, add, triad" — for help texts and error messages.
[[nodiscard]] std::string kernel_names();

// Initial value of element i of an array. Chosen so that every kernel's result is exact in double (small
// multiples of 1/4), differs from the written array's initial value at every i (an element a kernel skipped is
// caught), and depends on i (an element read from the wrong index is caught).
[[nodiscard]] double initial_value(ArrayId array, std::size_t i) noexcept;

// Every array's initial values repeat with this period (lcm of the periods 8, 4, 3): initial_value(id, i) ==
// initial_value(id, i % initial_value_period), so first touch and validation can work from one period's values.
inline constexpr std::size_t initial_value_period = 24;

}  // namespace cosched::stream
