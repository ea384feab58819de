#include "cosched/profiler/profile.hpp"

#include <algorithm>
#include <cassert>

namespace cosched::profiler {

std::string command_kernel_name(std::string_view command_name) {
  return std::string(kCommandKernelPrefix) + std::string(command_name);
}

std::string_view command_name_of(std::string_view kernel) {
  return kernel.starts_with(kCommandKernelPrefix) ? kernel.substr(kCommandKernelPrefix.size()) : std::string_view{};
}

double fast_bytes(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes) {
  return std::min(static_cast<double>(chunks) * chunk_bytes, static_cast<double>(footprint_bytes));
}

double fast_fraction(std::uint64_t footprint_bytes, unsigned chunks, double chunk_bytes) {
  if (footprint_bytes == 0) return 1.0;
  return fast_bytes(footprint_bytes, chunks, chunk_bytes) / static_cast<double>(footprint_bytes);
}

}  // namespace cosched::profiler
