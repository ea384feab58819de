#pragma once
// The widest vector unit this translation unit is compiled for, behind one small interface, so each kernel loop is
// written once. Streaming (non-temporal) stores need a vector-aligned destination; loads are unaligned (free when
// aligned). The loops are compiled once per instruction set (kernel_loops_*.cpp, chosen at run time), so each
// `Vector` lives in an inline namespace named after its width: the variants' inline functions never share a
// symbol, and the linker cannot swap one variant's body into another (an ODR violation otherwise).
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cosched::stream::detail {

#if defined(__AVX512F__)
inline namespace vector512 {
struct Vector {
  using type = __m512d;
  static constexpr std::size_t lanes = 8;
  static type load(const double* p) noexcept { return _mm512_loadu_pd(p); }
  static void store(double* p, type v) noexcept { _mm512_storeu_pd(p, v); }
  static void stream(double* p, type v) noexcept { _mm512_stream_pd(p, v); }
  static type broadcast(double s) noexcept { return _mm512_set1_pd(s); }
  static type zero() noexcept { return _mm512_setzero_pd(); }
  static type add(type x, type y) noexcept { return _mm512_add_pd(x, y); }
  static type mul(type x, type y) noexcept { return _mm512_mul_pd(x, y); }
  // Through memory rather than _mm512_reduce_add_pd, which trips GCC 12's -Wuninitialized (_mm256_undefined_pd).
  static double sum(type v) noexcept {
    alignas(64) double lanes_out[8];
    _mm512_store_pd(lanes_out, v);
    return ((lanes_out[0] + lanes_out[1]) + (lanes_out[2] + lanes_out[3])) +
           ((lanes_out[4] + lanes_out[5]) + (lanes_out[6] + lanes_out[7]));
  }
};
}  // namespace vector512
#elif defined(__AVX__)
inline namespace vector256 {
struct Vector {
  using type = __m256d;
  static constexpr std::size_t lanes = 4;
  static type load(const double* p) noexcept { return _mm256_loadu_pd(p); }
  static void store(double* p, type v) noexcept { _mm256_storeu_pd(p, v); }
  static void stream(double* p, type v) noexcept { _mm256_stream_pd(p, v); }
  static type broadcast(double s) noexcept { return _mm256_set1_pd(s); }
  static type zero() noexcept { return _mm256_setzero_pd(); }
  static type add(type x, type y) noexcept { return _mm256_add_pd(x, y); }
  static type mul(type x, type y) noexcept { return _mm256_mul_pd(x, y); }
  static double sum(type v) noexcept {
    alignas(32) double lanes_out[4];
    _mm256_store_pd(lanes_out, v);
    return (lanes_out[0] + lanes_out[1]) + (lanes_out[2] + lanes_out[3]);
  }
};
}  // namespace vector256
#elif defined(__SSE2__)
inline namespace vector128 {
struct Vector {
  using type = __m128d;
  static constexpr std::size_t lanes = 2;
  static type load(const double* p) noexcept { return _mm_loadu_pd(p); }
  static void store(double* p, type v) noexcept { _mm_storeu_pd(p, v); }
  static void stream(double* p, type v) noexcept { _mm_stream_pd(p, v); }
  static type broadcast(double s) noexcept { return _mm_set1_pd(s); }
  static type zero() noexcept { return _mm_setzero_pd(); }
  static type add(type x, type y) noexcept { return _mm_add_pd(x, y); }
  static type mul(type x, type y) noexcept { return _mm_mul_pd(x, y); }
  static double sum(type v) noexcept {
    alignas(16) double lanes_out[2];
    _mm_store_pd(lanes_out, v);
    return lanes_out[0] + lanes_out[1];
  }
};
}  // namespace vector128
#else
// No x86 vector unit: plain doubles; "streaming" stores are ordinary stores.
inline namespace vector_scalar {
struct Vector {
  using type = double;
  static constexpr std::size_t lanes = 1;
  static type load(const double* p) noexcept { return *p; }
  static void store(double* p, type v) noexcept { *p = v; }
  static void stream(double* p, type v) noexcept { *p = v; }
  static type broadcast(double s) noexcept { return s; }
  static type zero() noexcept { return 0.0; }
  static type add(type x, type y) noexcept { return x + y; }
  static type mul(type x, type y) noexcept { return x * y; }
  static double sum(type v) noexcept { return v; }
};
}  // namespace vector_scalar
#endif

// Orders this thread's streaming stores before what follows (they are weakly ordered): called before the
// barrier that ends a timed rep, so the time includes them and other threads see the data.
inline void store_fence() noexcept {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// Copies `bytes` from src to dst, by streaming stores (16 bytes at a time, which the write-combining buffers merge
// into whole lines) where dst is 16-byte aligned and on x86, else as memcpy. For values of any type that memory
// will not read again soon, e.g. a kernel's first touch: nothing reads the lines first. Callers fence (store_fence)
// before others read the data.
inline void stream_bytes(void* dst, const void* src, std::size_t bytes) noexcept {
#if defined(__SSE2__)
  if (reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
    auto* to = static_cast<__m128i*>(dst);
    const auto* from = static_cast<const unsigned char*>(src);
    std::size_t done = 0;
    for (; done + 16 <= bytes; done += 16, ++to) {
      _mm_stream_si128(to, _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + done)));
    }
    std::memcpy(static_cast<unsigned char*>(dst) + done, from + done, bytes - done);
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}

}  // namespace cosched::stream::detail
