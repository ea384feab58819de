#include "platform/topology/text.hpp"

#include <fmt/format.h>

namespace cosched::platform::topology_detail {

std::string describe_list(const std::vector<unsigned>& ascending) {
  std::string text;
  for (std::size_t first = 0; first < ascending.size();) {
    std::size_t last = first;
    while (last + 1 < ascending.size() && ascending[last + 1] == ascending[last] + 1) ++last;
    if (!text.empty()) text += ',';
    text += last == first ? fmt::format("{}", ascending[first])
                          : fmt::format("{}-{}", ascending[first], ascending[last]);
    first = last + 1;
  }
  return text;
}

std::string describe_bytes(std::uint64_t bytes) {
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  if (static_cast<double>(bytes) >= gib) return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / gib);
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

}  // namespace cosched::platform::topology_detail
