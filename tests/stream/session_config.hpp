#pragma once
// What the StreamSession tests share: their array size, a one-core configuration, and whether this machine has the
// two cores a team change needs.
#include <cstddef>
#include <string>

#include "cosched/platform/binding.hpp"
#include "cosched/stream/stream_session.hpp"

namespace cosched::stream::testing {

// Several pages per array (so the sampled check has pages to cover) and not a multiple of a vector width; big
// enough for one 3^3 grid, one spmv row and a gemm of a few rows.
inline constexpr std::size_t kSessionElements = 5 * 512 + 77;

inline bool two_cores_allowed() { return platform::allowed_cores().size() >= 2; }

inline StreamConfig one_core_config(const std::string& kernel) {
  StreamConfig config;
  config.kernel = kernel;
  config.threads = 1;
  config.cores = {0};
  config.array_bytes = kSessionElements * sizeof(double);
  return config;
}

}  // namespace cosched::stream::testing
