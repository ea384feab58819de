// The kernel loops, written once and compiled once per instruction set: each kernel_loops_<isa>.cpp defines
// COSCHED_KERNEL_LOOPS_VARIANT (its namespace) and includes this file, and its compile flags (-mavx2 -mfma,
// -mavx512f ...: stream_bench/CMakeLists.txt) decide which `Vector` (vector_ops.hpp) the loops get.
// Hand-vectorised loops, unrolled four vectors deep so that enough cache lines are in flight per core. With
// streaming stores a scalar head aligns the destination to the vector width (the arrays are 64-byte aligned and
// thread slices start on cache lines, so the head is normally empty).
#ifndef COSCHED_KERNEL_LOOPS_VARIANT
#error "define COSCHED_KERNEL_LOOPS_VARIANT (the variant's namespace) before including kernel_loops_body.hpp"
#endif

#include <algorithm>
#include <cstdint>

#include "kernel_loops.hpp"
#include "vector_ops.hpp"

namespace cosched::stream::detail {

namespace {

constexpr std::size_t lanes = Vector::lanes;
constexpr std::size_t unroll = 4;

struct RegularStore {
  static constexpr bool needs_alignment = false;
  static void put(double* p, Vector::type v) noexcept { Vector::store(p, v); }
};

struct StreamingStore {
  static constexpr bool needs_alignment = true;
  static void put(double* p, Vector::type v) noexcept { Vector::stream(p, v); }
};

// out[i] = scalar(i) element by element where needed, vector(i) for `lanes` elements at a time elsewhere.
template <class Store, class Scalar, class Vec>
inline void map_range(double* __restrict out, std::size_t n, Scalar scalar, Vec vector) noexcept {
  std::size_t i = 0;
  if constexpr (Store::needs_alignment) {
    constexpr std::size_t vector_bytes = lanes * sizeof(double);
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(out) % vector_bytes;
    const std::size_t head = misalignment == 0 ? 0 : (vector_bytes - misalignment) / sizeof(double);
    for (const std::size_t end = std::min(head, n); i < end; ++i) out[i] = scalar(i);
  }
  for (; i + unroll * lanes <= n; i += unroll * lanes) {
    Store::put(out + i, vector(i));
    Store::put(out + i + lanes, vector(i + lanes));
    Store::put(out + i + 2 * lanes, vector(i + 2 * lanes));
    Store::put(out + i + 3 * lanes, vector(i + 3 * lanes));
  }
  for (; i + lanes <= n; i += lanes) Store::put(out + i, vector(i));
  for (; i < n; ++i) out[i] = scalar(i);
}

template <class Store>
void write(double* __restrict a, std::size_t n, double s) noexcept {
  const Vector::type vs = Vector::broadcast(s);
  map_range<Store>(a, n, [s](std::size_t) { return s; }, [vs](std::size_t) { return vs; });
}

template <class Store>
void copy(const double* __restrict a, double* __restrict c, std::size_t n) noexcept {
  map_range<Store>(c, n, [a](std::size_t i) { return a[i]; }, [a](std::size_t i) { return Vector::load(a + i); });
}

template <class Store>
void scale(double* __restrict b, const double* __restrict c, std::size_t n, double s) noexcept {
  const Vector::type vs = Vector::broadcast(s);
  map_range<Store>(
      b, n, [c, s](std::size_t i) { return s * c[i]; },
      [c, vs](std::size_t i) { return Vector::mul(vs, Vector::load(c + i)); });
}

template <class Store>
void add(const double* __restrict a, const double* __restrict b, double* __restrict c, std::size_t n) noexcept {
  map_range<Store>(
      c, n, [a, b](std::size_t i) { return a[i] + b[i]; },
      [a, b](std::size_t i) { return Vector::add(Vector::load(a + i), Vector::load(b + i)); });
}

template <class Store>
void triad(double* __restrict a, const double* __restrict b, const double* __restrict c, std::size_t n,
           double s) noexcept {
  const Vector::type vs = Vector::broadcast(s);
  map_range<Store>(
      a, n, [b, c, s](std::size_t i) { return b[i] + s * c[i]; },
      [b, c, vs](std::size_t i) { return Vector::add(Vector::load(b + i), Vector::mul(vs, Vector::load(c + i))); });
}

// Four independent accumulators hide the add latency; the sums are of exact values, so order does not matter.
double ddot(const double* __restrict a, const double* __restrict b, std::size_t n) noexcept {
  Vector::type acc0 = Vector::zero(), acc1 = Vector::zero(), acc2 = Vector::zero(), acc3 = Vector::zero();
  std::size_t i = 0;
  for (; i + unroll * lanes <= n; i += unroll * lanes) {
    acc0 = Vector::add(acc0, Vector::mul(Vector::load(a + i), Vector::load(b + i)));
    acc1 = Vector::add(acc1, Vector::mul(Vector::load(a + i + lanes), Vector::load(b + i + lanes)));
    acc2 = Vector::add(acc2, Vector::mul(Vector::load(a + i + 2 * lanes), Vector::load(b + i + 2 * lanes)));
    acc3 = Vector::add(acc3, Vector::mul(Vector::load(a + i + 3 * lanes), Vector::load(b + i + 3 * lanes)));
  }
  for (; i + lanes <= n; i += lanes) acc0 = Vector::add(acc0, Vector::mul(Vector::load(a + i), Vector::load(b + i)));
  double sum = Vector::sum(Vector::add(Vector::add(acc0, acc1), Vector::add(acc2, acc3)));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

template <class Store>
double run(KernelId kernel, const ArrayPointers& p, std::size_t n, double s) noexcept {
  switch (kernel) {
    case KernelId::write: write<Store>(p.a, n, s); return 0.0;
    case KernelId::ddot: return ddot(p.a, p.b, n);
    case KernelId::copy: copy<Store>(p.a, p.c, n); return 0.0;
    case KernelId::scale: scale<Store>(p.b, p.c, n, s); return 0.0;
    case KernelId::add: add<Store>(p.a, p.b, p.c, n); return 0.0;
    case KernelId::triad: triad<Store>(p.a, p.b, p.c, n, s); return 0.0;
    case KernelId::gemm:
    case KernelId::stencil:
    case KernelId::spmv:
    case KernelId::gups: return 0.0;  // not element-wise: their own work (kernel_work.hpp), never here
  }
  return 0.0;
}

}  // namespace

namespace COSCHED_KERNEL_LOOPS_VARIANT {

double run_kernel_range(KernelId kernel, const ArrayPointers& arrays, std::size_t n, double scalar,
                        bool streaming) noexcept {
  if (n == 0) return 0.0;
  if (streaming) {
    const double sum = run<StreamingStore>(kernel, arrays, n, scalar);
    store_fence();
    return sum;
  }
  return run<RegularStore>(kernel, arrays, n, scalar);
}

}  // namespace COSCHED_KERNEL_LOOPS_VARIANT

}  // namespace cosched::stream::detail
