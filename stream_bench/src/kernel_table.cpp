#include <array>

#include "cosched/common/error.hpp"
#include "cosched/stream/kernels.hpp"

namespace cosched::stream {

namespace {

using enum ArrayId;

constexpr std::array<KernelSpec, 6> table{{
    {KernelId::write, "write", arrays({}), arrays({a}), "a[i] = s",
     [](double, double, double, double s) { return s; }},
    {KernelId::ddot, "ddot", arrays({a, b}), arrays({}), "sum += a[i] * b[i]",
     [](double va, double vb, double, double) { return va * vb; }},
    {KernelId::copy, "copy", arrays({a}), arrays({c}), "c[i] = a[i]",
     [](double va, double, double, double) { return va; }},
    {KernelId::scale, "scale", arrays({c}), arrays({b}), "b[i] = s * c[i]",
     [](double, double, double vc, double s) { return s * vc; }},
    {KernelId::add, "add", arrays({a, b}), arrays({c}), "c[i] = a[i] + b[i]",
     [](double va, double vb, double, double) { return va + vb; }},
    {KernelId::triad, "triad", arrays({b, c}), arrays({a}), "a[i] = b[i] + s * c[i]",
     [](double, double vb, double vc, double s) { return vb + s * vc; }},
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

}  // namespace

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

}  // namespace cosched::stream
