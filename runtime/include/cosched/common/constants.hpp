#pragma once
// Numeric constants that several sources use, defined once. A file-local copy in each source would clash when a
// unity build (scripts/build.sh, CMAKE_UNITY_BUILD) compiles several sources as one translation unit.
#include <limits>

namespace cosched {

inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace cosched
